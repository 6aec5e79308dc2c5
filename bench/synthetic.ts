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

/**
 * A vocabulary as its distinct words' UTF-8 bytes in one buffer, each distinct word's [start, end), and each
 * entry's distinct word: a passage is built in bytes, from a few hundred kilobytes the processor keeps cached.
 */
interface PackedVocabulary {
  bytes: Buffer;
  bounds: Uint32Array;
  /** Entry i of the vocabulary is distinct word `words[i]`. */
  words: Uint16Array | Uint32Array;
  /** Bytes of the longest word. */
  longest: number;
}

const packed = new WeakMap<string[], PackedVocabulary>();

function pack(vocabulary: string[]): PackedVocabulary {
  let found = packed.get(vocabulary);
  if (found) return found;
  const distinct = new Map<string, number>();
  const ids = vocabulary.map((word) => {
    let id = distinct.get(word);
    if (id === undefined) distinct.set(word, (id = distinct.size));
    return id;
  });
  const words = distinct.size <= 65_536 ? Uint16Array.from(ids) : Uint32Array.from(ids);
  const bytes = Buffer.from([...distinct.keys()].join(''), 'utf8');
  const bounds = new Uint32Array(distinct.size * 2);
  let at = 0;
  let longest = 0;
  let i = 0;
  for (const word of distinct.keys()) {
    const length = Buffer.byteLength(word, 'utf8');
    bounds[2 * i] = at;
    bounds[2 * i + 1] = at + length;
    at += length;
    longest = Math.max(longest, length);
    i++;
  }
  found = { bytes, bounds, words, longest };
  packed.set(vocabulary, found);
  return found;
}

/**
 * Document `d` of the stream, made from the state `stateAt(d)`. A passage's words are copied as bytes into
 * one buffer and decoded once (the same text as joining them with spaces, at a fraction of the cost: the
 * generator stands in for reading documents, and should not weigh on what the bench measures).
 */
export function syntheticDoc(vocabulary: string[], d: number, state: number, perDoc = PER_DOC): ExtractedDocument {
  let s = state >>> 0;
  const random = () => {
    s = (s * A + C) >>> 0;
    return s / 2 ** 32;
  };
  const { bytes, bounds, words, longest } = pack(vocabulary);
  const body = Buffer.allocUnsafe(WORDS * (longest + 1) + 1);
  const blocks = [] as { level: number; text: string }[];
  for (let p = 0; p < perDoc; p++) {
    blocks.push({ level: 1, text: `Section ${d}.${p} ${vocabulary[Math.floor(random() * vocabulary.length)]}` });
    let at = 0;
    for (let w = 0; w < WORDS; w++) {
      const word = words[Math.floor(random() * vocabulary.length)]!;
      if (w > 0) body[at++] = 32;
      for (let i = bounds[2 * word]!, end = bounds[2 * word + 1]!; i < end; i++) body[at++] = bytes[i]!;
    }
    body[at++] = 46;
    blocks.push({ level: 0, text: body.toString('utf8', 0, at) });
  }
  return { file_format: 'txt', document_type: 'documentation', qa: [], pages: [{ page_number: 1, text: '', blocks }] };
}

/** Documents of PER_DOC passages, made one at a time (a million passages never sit in memory together). */
export function* syntheticDocs(vocabulary: string[], passages: number, perDoc = PER_DOC): Generator<ExtractedDocument> {
  for (let d = 0; d < passages / perDoc; d++) yield syntheticDoc(vocabulary, d, stateAt(d, perDoc), perDoc);
}
