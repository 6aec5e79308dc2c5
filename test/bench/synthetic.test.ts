import { describe, expect, it } from 'vitest';
import { PER_DOC, stateAt, syntheticDoc, syntheticDocs } from '../../bench/synthetic';

/** The generator's text as first written: each passage's words drawn in turn and joined by spaces. */
function reference(vocabulary: string[], d: number, state: number, perDoc: number) {
  let s = state >>> 0;
  const random = () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  const texts: string[] = [];
  for (let p = 0; p < perDoc; p++) {
    texts.push(`Section ${d}.${p} ${vocabulary[Math.floor(random() * vocabulary.length)]}`);
    const words = Array.from({ length: 180 }, () => vocabulary[Math.floor(random() * vocabulary.length)]!);
    texts.push(`${words.join(' ')}.`);
  }
  return texts;
}

describe('synthetic documents (bench)', () => {
  // Repeats carry the words' frequencies; non-ASCII words are more than one byte each.
  const vocabulary = ['the', 'data', 'the', 'encryption', 'Zürich', 'the', 'données', 'access', 'data', 'key'];

  it('builds in bytes exactly the text of drawing the words and joining them', () => {
    for (const d of [0, 1, 17]) {
      const doc = syntheticDoc(vocabulary, d, stateAt(d, 5), 5);
      expect(doc.pages[0]!.blocks!.map((b) => b.text)).toEqual(reference(vocabulary, d, stateAt(d, 5), 5));
    }
  });

  it('makes document d from its own state: out of order, the same documents as in turn', () => {
    const inTurn = [...syntheticDocs(vocabulary, 3 * PER_DOC)];
    expect(inTurn).toHaveLength(3);
    expect(syntheticDoc(vocabulary, 2, stateAt(2))).toEqual(inTurn[2]);
  });
});
