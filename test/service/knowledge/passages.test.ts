import { describe, expect, it } from 'vitest';
import { countWords, lastSentence, splitIntoPassages } from '../../../src/service/knowledge/passages';
import { splitSentences } from '../../../src/service/knowledge/text';

/** The definition: splitSentences' last sentence, when it is short (40 words at most) and not the only one. */
function reference(content: string): string {
  const sentences = splitSentences(content);
  const last = sentences[sentences.length - 1] ?? '';
  return countWords(last) <= 40 && sentences.length > 1 ? last : '';
}

describe('passages', () => {
  it('carries the last sentence as splitSentences finds it, for paragraphs, bullets, colons and odd spacing', () => {
    const pieces = [
      'Access is reviewed quarterly.',
      'The CISO approves it!',
      'e.g. version 1.2 is used',
      '• Backups are encrypted',
      ': Access is reviewed by managers',
      'Is it tested? "Yes" it is.',
      '\n\n',
      '  \u00a0 ',
      '(see below)',
      '— ',
      '3 times a year.',
      'lower case start. then more',
      'Café résumé.',
      'x'.repeat(30),
      Array.from({ length: 45 }, (_, i) => `word${i}`).join(' ') + '.',
    ];
    let seed = 3;
    const random = () => {
      seed = (seed * 1664525 + 1013904223) >>> 0;
      return seed / 2 ** 32;
    };
    for (let i = 0; i < 2000; i++) {
      const n = 1 + Math.floor(random() * 6);
      const content = Array.from({ length: n }, () => pieces[Math.floor(random() * pieces.length)]).join(random() < 0.5 ? ' ' : '\n');
      expect(lastSentence(content), JSON.stringify(content)).toBe(reference(content));
    }
  });

  it("starts the next passage of a long section with the previous passage's last sentence", () => {
    const sentence = (i: number) => `Sentence ${i} says the backups are encrypted and tested every quarter by the operations team.`;
    const text = Array.from({ length: 40 }, (_, i) => sentence(i)).join(' ');
    const passages = splitIntoPassages({ file_format: 'txt', document_type: 'documentation', qa: [], pages: [{ page_number: 1, text }] });
    expect(passages.length).toBeGreaterThan(1);
    const firstSentences = splitSentences(passages[0]!.content);
    expect(passages[1]!.content.startsWith(firstSentences[firstSentences.length - 1]!)).toBe(true);
  });
});
