import { describe, expect, it } from 'vitest';
import { isRequirementMatrix, splitWordCount } from '../../../../src/service/knowledge/extract/subject';

describe('splitWordCount', () => {
  it('counts as `text.split(/\\s+/).length` does, for every character of the Basic Multilingual Plane', () => {
    const differing: string[] = [];
    for (let c = 0; c < 0x10000; c++) {
      const ch = String.fromCharCode(c);
      for (const text of [`a${ch}b${ch}${ch}c ${ch}`, ch, `${ch}${ch}`, ` ${ch}x`]) {
        if (splitWordCount(text) !== text.split(/\s+/).length) differing.push(c.toString(16));
      }
    }
    expect(differing).toEqual([]);
  });

  it('counts the empty text, leading and trailing whitespace and runs as split does', () => {
    for (const text of ['', ' ', 'one', ' one', 'one ', '  one \u00a0two\r\n\tthree\u3000', '\ufeffa\u2028b']) {
      expect(splitWordCount(text), JSON.stringify(text)).toBe(text.split(/\s+/).length);
    }
  });
});

describe('isRequirementMatrix', () => {
  const item = (n: number) => `${1 + (n % 9)}.${1 + (n % 7)}.${1 + (n % 5)} Maintain the control described here for the systems x`;
  const page = (text: string) => [{ page_number: 1, text }];

  it('is true for numbered requirements with tick marks beside them', () => {
    expect(isRequirementMatrix(page(Array.from({ length: 60 }, (_, n) => item(n)).join('\n')))).toBe(true);
  });

  it('is false for the same requirements without tick marks, and for prose citing one', () => {
    const noTicks = Array.from({ length: 60 }, (_, n) => item(n).replace(/ x$/, '')).join('\n');
    expect(isRequirementMatrix(page(noTicks))).toBe(false);
    const prose = `${'The organisation reviews access every quarter and keeps records of it. '.repeat(40)}See 8.3.1 Multi-factor authentication x`;
    expect(isRequirementMatrix(page(prose))).toBe(false);
  });

  it('is false below 200 words', () => {
    expect(isRequirementMatrix(page(Array.from({ length: 10 }, (_, n) => item(n)).join('\n')))).toBe(false);
  });
});

describe('splitWordCount with a cap', () => {
  it('stops at the cap, and counts exactly below it', () => {
    const text = 'one two  three\tfour five';
    expect(splitWordCount(text, 3)).toBe(3);
    expect(splitWordCount(text, 5)).toBe(5);
    expect(splitWordCount(text, 6)).toBe(5);
    expect(splitWordCount(' lead', 2)).toBe(2);
  });
});

describe('isRequirementMatrix against its definition', () => {
  // The rule as first written: words by split, every count made.
  const byDefinition = (text: string) => {
    const words = text.split(/\s+/).length;
    if (words < 200) return false;
    const items = text.match(/(?:^|\s)\d{1,2}\.\d{1,2}(?:\.\d{1,2}){0,2}\s+[A-Z]/g)?.length ?? 0;
    const ticks = text.match(/(?:^|\s)x(?=\s|$)/g)?.length ?? 0;
    return items >= words / 40 && ticks >= items / 2;
  };

  it('gives the same answer on texts of every density of requirements and tick marks', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const pieces = ['1.2 Review', '12.4.2 Perform', 'x', 'the', 'controls', 'are', 'reviewed', '\n', '  ', '3.1 a'];
    let trues = 0;
    for (let n = 0; n < 400; n++) {
      const itemShare = random() * 0.3;
      const words = 150 + Math.floor(random() * 400);
      const parts: string[] = [];
      for (let w = 0; w < words; w++) {
        const r = random();
        parts.push(r < itemShare ? pieces[Math.floor(random() * 2)]! : r < itemShare * 2 ? 'x' : pieces[2 + Math.floor(random() * 8)]!);
      }
      const text = parts.join(' ');
      const expected = byDefinition(text);
      if (expected) trues++;
      expect(isRequirementMatrix([{ page_number: 1, text }]), text.slice(0, 80)).toBe(expected);
    }
    // Both answers occur, so the comparison says something.
    expect(trues).toBeGreaterThan(20);
    expect(trues).toBeLessThan(380);
  });
});
