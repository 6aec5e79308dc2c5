/**
 * Synthetic documents for the retrieval and scale benches: passages of ~180 words drawn from the real
 * corpus' vocabulary with its word frequencies, from one deterministic pseudo-random stream, so every
 * run (and every worker) makes the same documents. Document `d` starts at the stream's state after
 * `d` documents (`stateAt`), so documents can be made out of order, in several threads.
 */
import type { ExtractedDocument } from '../src/service/knowledge';

const A = 1664525;
const C = 1013904223;
export const SEED = 42;
/** Passages per synthetic document. */
export const PER_DOC = 100;
const WORDS = 180;

/** Draws per document: a heading word and WORDS body words per passage. */
function drawsPerDoc(perDoc: number): number {
  return perDoc * (1 + WORDS);
}

/** The stream's state after `d` documents (an affine jump, not `d` documents' worth of steps). */
export function stateAt(d: number, perDoc = PER_DOC): number {
  // state -> A*state + C (mod 2^32), composed `steps` times by squaring.
  let steps = d * drawsPerDoc(perDoc);
  let mul = A;
  let add = C;
  let state = SEED >>> 0;
  while (steps > 0) {
    if (steps % 2 === 1) state = (Math.imul(mul, state) + add) >>> 0;
    add = (Math.imul(mul, add) + add) >>> 0;
    mul = Math.imul(mul, mul) >>> 0;
    steps = Math.floor(steps / 2);
  }
  return state;
}

/** Document `d` of the stream, made from the state `stateAt(d)`. */
export function syntheticDoc(vocabulary: string[], d: number, state: number, perDoc = PER_DOC): ExtractedDocument {
  let s = state >>> 0;
  const random = () => {
    s = (s * A + C) >>> 0;
    return s / 2 ** 32;
  };
  const blocks = [] as { level: number; text: string }[];
  for (let p = 0; p < perDoc; p++) {
    blocks.push({ level: 1, text: `Section ${d}.${p} ${vocabulary[Math.floor(random() * vocabulary.length)]}` });
    const words: string[] = [];
    for (let w = 0; w < WORDS; w++) words.push(vocabulary[Math.floor(random() * vocabulary.length)]!);
    blocks.push({ level: 0, text: `${words.join(' ')}.` });
  }
  return { file_format: 'txt', document_type: 'documentation', qa: [], pages: [{ page_number: 1, text: '', blocks }] };
}

/** Documents of PER_DOC passages, made one at a time (a million passages never sit in memory together). */
export function* syntheticDocs(vocabulary: string[], passages: number, perDoc = PER_DOC): Generator<ExtractedDocument> {
  for (let d = 0; d < passages / perDoc; d++) yield syntheticDoc(vocabulary, d, stateAt(d, perDoc), perDoc);
}
