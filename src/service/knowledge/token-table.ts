/**
 * What each distinct token of the indexed text stands for (its stem, or that it is no key term), found
 * from the token's characters in place: indexing a million passages looks up 180 million tokens, and
 * cutting each out of the text as a string and hashing it again for a `Map` and then a `Set` was most of
 * what stemming cost. An open-addressing hash table over FNV-1a hashes the scanner computes as it reads
 * the characters; a token is cut out as a string only the first time it is seen.
 */

/** FNV-1a's 32-bit offset basis: the hash of no characters. */
export const HASH_START = 0x811c9dc5 | 0;

/** FNV-1a: the hash of a token so far, extended by character code `c`. */
export function hashStep(hash: number, c: number): number {
  return Math.imul(hash ^ c, 0x01000193);
}

/** What a token is to the index, computed once per distinct token. */
export interface TokenFacts {
  /** Its stem, null when it is no key term. */
  stem: string | null;
  /** Bits the caller defines (what its scans need to know of the token), at most 31. */
  flags: number;
}

export class TokenTable {
  // Slot -> entry + 1 (0: empty). A power of two, kept at most half full.
  private slots: Int32Array = new Int32Array(1 << 12);
  private keys: string[] = [];
  // Entry -> its hash, its stem's id + 1 (0: no key term), its flags. Typed arrays: a hash is no small integer.
  private hashes: Int32Array = new Int32Array(1 << 11);
  private stemIds: Int32Array = new Int32Array(1 << 11);
  private flagBits: Int32Array = new Int32Array(1 << 11);
  /** Stem id -> the stem; ids are shared by tokens with the same stem, so a text's stems dedupe by id. */
  readonly stems: string[] = [];
  private readonly stemIdOf = new Map<string, number>();
  /** Stem id -> the pass that last took it (see `beginPass`). */
  private taken: Int32Array = new Int32Array(1 << 11);
  private pass = 0;

  /**
   * `limit`: distinct tokens kept; past it the table starts again empty at the next pass (an adversarial
   * stream of unique tokens must not grow memory). `facts` tells what a token not yet seen is.
   */
  constructor(
    private readonly limit: number,
    private readonly facts: (token: string) => TokenFacts,
  ) {}

  /** Starts collecting one text's stems: `take` answers true once per stem until the next pass. */
  beginPass(): void {
    if (this.keys.length > this.limit) this.clear();
    if (++this.pass === 0x7fffffff) {
      this.taken.fill(0);
      this.pass = 1;
    }
  }

  /**
   * The entry of the token `text[start, end)` whose hash (`hashStep` over its characters from
   * HASH_START) is `hash`; the token is added when new.
   */
  entry(text: string, start: number, end: number, hash: number): number {
    const slots = this.slots;
    const mask = slots.length - 1;
    for (let s = (hash ^ (hash >>> 16)) & mask; ; s = (s + 1) & mask) {
      const e = slots[s]! - 1;
      if (e < 0) return this.add(text.slice(start, end), hash, s);
      if (this.hashes[e] === hash && sameChars(this.keys[e]!, text, start, end)) return e;
    }
  }

  /** The stem id of entry `e`, -1 when it is no key term. */
  stemId(e: number): number {
    return this.stemIds[e]! - 1;
  }

  flags(e: number): number {
    return this.flagBits[e]!;
  }

  /** The id of a stem not from a token (an acronym's), so it dedupes with the tokens' stems. */
  idOfStem(stem: string): number {
    let id = this.stemIdOf.get(stem);
    if (id === undefined) {
      id = this.stems.length;
      this.stems.push(stem);
      this.stemIdOf.set(stem, id);
      if (id >= this.taken.length) this.taken = grown(this.taken);
    }
    return id;
  }

  /** Whether stem `id` is new in this pass (and it is taken from now on). */
  take(id: number): boolean {
    if (this.taken[id] === this.pass) return false;
    this.taken[id] = this.pass;
    return true;
  }

  private add(token: string, hash: number, slot: number): number {
    const e = this.keys.length;
    const facts = this.facts(token);
    if (e >= this.hashes.length) {
      this.hashes = grown(this.hashes);
      this.stemIds = grown(this.stemIds);
      this.flagBits = grown(this.flagBits);
    }
    this.keys.push(token);
    this.hashes[e] = hash;
    this.stemIds[e] = facts.stem === null ? 0 : this.idOfStem(facts.stem) + 1;
    this.flagBits[e] = facts.flags;
    this.slots[slot] = e + 1;
    if (this.keys.length * 2 > this.slots.length) this.rehash(this.slots.length * 2);
    return e;
  }

  private rehash(size: number): void {
    const slots = new Int32Array(size);
    const mask = size - 1;
    for (let e = 0; e < this.keys.length; e++) {
      const hash = this.hashes[e]!;
      let s = (hash ^ (hash >>> 16)) & mask;
      while (slots[s] !== 0) s = (s + 1) & mask;
      slots[s] = e + 1;
    }
    this.slots = slots;
  }

  private clear(): void {
    this.slots = new Int32Array(1 << 12);
    this.keys = [];
    this.hashes = new Int32Array(1 << 11);
    this.stemIds = new Int32Array(1 << 11);
    this.flagBits = new Int32Array(1 << 11);
    this.stems.length = 0;
    this.stemIdOf.clear();
    this.taken = new Int32Array(1 << 11);
    this.pass = 0;
  }
}

/** A copy twice as long. */
function grown(array: Int32Array): Int32Array {
  const copy = new Int32Array(array.length * 2);
  copy.set(array);
  return copy;
}

/** Whether `key` is `text[start, end)`. */
function sameChars(key: string, text: string, start: number, end: number): boolean {
  if (key.length !== end - start) return false;
  for (let i = 0; i < key.length; i++) if (key.charCodeAt(i) !== text.charCodeAt(start + i)) return false;
  return true;
}

/** The hash of a whole string, as the scanner computes it for a token. */
export function hashOf(token: string): number {
  let hash = HASH_START;
  for (let i = 0; i < token.length; i++) hash = hashStep(hash, token.charCodeAt(i));
  return hash;
}
