import { describe, expect, it } from 'vitest';
import { isRequirementMatrix, splitWordCount } from '../../../../src/service/knowledge/extract/subject';

describe('splitWordCount', () => {
  it("counts as `text.split(/\\s+/).length` does, for every character of the Basic Multilingual Plane", () => {
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
