/**
 * Postings, as the PostgreSQL index stores them (see ./schema.ts, kb_postings): for one lexeme and up to
 * a few thousand of a file's rows, a bytea of 12-byte entries, big-endian (as SQL's int4send writes them, which
 * the migration from `tf` objects uses): the row's id less the batch's `first_id`, its term frequency
 * (10 × the weighted count, see TF_TENTHS) and its length (BM25's doclen). A ranked search reads its
 * lexemes' postings and scores them here: tens of thousands of entries in a few milliseconds, where
 * SQL's executor spends microseconds on each.
 */

const ENTRY_BYTES = 12;

export interface Posting {
  id: number;
  tf: number;
  len: number;
}

/**
 * A file's postings as its rows are written, a lexeme each, until `take` packs them for one postings
 * row per lexeme: rows must be added in ascending id order (a transaction draws its ids in order).
 * Kept as flat number arrays (id, tf, length), a few megabytes for thousands of rows.
 */
export class PostingsBuilder {
  private byTerm = new Map<string, number[]>();
  private firstId: number | null = null;
  rows = 0;

  add(rows: { tf: Map<string, number>; doclen: number }[], ids: number[]): void {
    rows.forEach((row, i) => {
      const id = ids[i]!;
      this.firstId ??= id;
      for (const [term, tf] of row.tf) {
        let list = this.byTerm.get(term);
        if (!list) this.byTerm.set(term, (list = []));
        list.push(id, tf, row.doclen);
      }
    });
    this.rows += rows.length;
  }

  /** The postings gathered since the last take, packed, and empties the builder; null when none. */
  take(): { firstId: number; terms: string[]; bytes: Buffer[] } | null {
    if (this.firstId === null) return null;
    const firstId = this.firstId;
    const terms: string[] = [];
    const bytes: Buffer[] = [];
    for (const [term, flat] of this.byTerm) {
      const out = Buffer.allocUnsafe((flat.length / 3) * ENTRY_BYTES);
      for (let i = 0, at = 0; i < flat.length; i += 3, at += ENTRY_BYTES) {
        out.writeInt32BE(flat[i]! - firstId, at);
        out.writeInt32BE(flat[i + 1]!, at + 4);
        out.writeInt32BE(flat[i + 2]!, at + 8);
      }
      terms.push(term);
      bytes.push(out);
    }
    this.byTerm = new Map();
    this.firstId = null;
    this.rows = 0;
    return { firstId, terms, bytes };
  }
}

export function decodePostings(firstId: number, bytes: Buffer): Posting[] {
  const out: Posting[] = [];
  for (let at = 0; at + ENTRY_BYTES <= bytes.length; at += ENTRY_BYTES) {
    out.push({ id: firstId + bytes.readInt32BE(at), tf: bytes.readInt32BE(at + 4), len: bytes.readInt32BE(at + 8) });
  }
  return out;
}

/** BM25's constants, as FTS5's bm25() has them. */
export const K1 = 1.2;
export const B = 0.75;

/** A chunk of postings read for a search: the query lexeme it is for (0-based), its file and batch. */
export interface PostingsChunk {
  term: number;
  fileId: number;
  firstId: number;
  bytes: Buffer;
}

export interface Scored {
  id: number;
  fileId: number;
  bm: number;
}

/**
 * BM25 of every row the chunks name, FTS5's formula: per query lexeme `i`, weights[i] (its IDF times the
 * query words it stands for) × tf(k1+1) / (tf + k1(1 - b + b·len/avgdl)), summed in the lexemes' order
 * (chunks must come ordered by lexeme), so sums are FTS5's to the last bit. The best `limit`, best first,
 * ties by id; and how many rows matched.
 */
export function scorePostings(chunks: PostingsChunk[], weights: number[], avgdl: number, limit: number): { best: Scored[]; matched: number } {
  const scores = new Map<number, Scored>();
  for (const chunk of chunks) {
    const w = weights[chunk.term] ?? 0;
    const bytes = chunk.bytes;
    for (let at = 0; at + ENTRY_BYTES <= bytes.length; at += ENTRY_BYTES) {
      const id = chunk.firstId + bytes.readInt32BE(at);
      const tf = bytes.readInt32BE(at + 4) / 10;
      const len = bytes.readInt32BE(at + 8);
      const score = w * ((tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * len) / avgdl)));
      const had = scores.get(id);
      if (had) had.bm += score;
      else scores.set(id, { id, fileId: chunk.fileId, bm: score });
    }
  }
  const all = [...scores.values()];
  return { best: topOf(all, limit), matched: all.length };
}

const better = (a: Scored, b: Scored) => b.bm - a.bm || a.id - b.id;

/** The best `limit` of `all`, sorted; without sorting all of tens of thousands when a few hundred are kept. */
function topOf(all: Scored[], limit: number): Scored[] {
  if (all.length <= limit * 4) return all.sort(better).slice(0, limit);
  // A threshold from a sample would be cleverer; a partial pass keeping a bounded sorted buffer is enough.
  let kept: Scored[] = [];
  let floor = -Infinity;
  for (const s of all) {
    if (kept.length >= limit && s.bm < floor) continue;
    kept.push(s);
    if (kept.length >= limit * 4) {
      kept = kept.sort(better).slice(0, limit);
      floor = kept[kept.length - 1]!.bm;
    }
  }
  return kept.sort(better).slice(0, limit);
}

/** A row's offsets from its chunk's first id, as the chunk's bytes list them (ascending). */
function offsetsOf(bytes: Buffer): Int32Array {
  const out = new Int32Array(Math.floor(bytes.length / ENTRY_BYTES));
  for (let i = 0; i < out.length; i++) out[i] = bytes.readInt32BE(i * ENTRY_BYTES);
  return out;
}

/** The values both ascending lists hold. */
function intersect(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(Math.min(a.length, b.length));
  let n = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (a[i]! < b[j]!) i++;
    else if (a[i]! > b[j]!) j++;
    else {
      out[n++] = a[i]!;
      i++;
      j++;
    }
  }
  return out.subarray(0, n);
}

/**
 * The newest `limit` rows (highest ids first) holding every one of `terms` lexemes, from their postings:
 * a file's rows written together share one chunk (file, first id) across lexemes (PostingsBuilder packs
 * every lexeme of a batch at once), so a row holding them all is in a chunk every lexeme has, and the
 * chunks' offsets are intersected there; and how many rows hold them all.
 */
export function newestHoldingAll(chunks: PostingsChunk[], terms: number, limit: number): { best: Scored[]; matched: number } {
  const groups = new Map<string, PostingsChunk[]>();
  for (const chunk of chunks) {
    const key = `${chunk.fileId}:${chunk.firstId}`;
    const group = groups.get(key);
    if (group) group.push(chunk);
    else groups.set(key, [chunk]);
  }
  const found: Scored[] = [];
  for (const group of groups.values()) {
    if (new Set(group.map((c) => c.term)).size < terms) continue;
    // The rarest lexeme first, so every intersection after it is of short lists.
    const lists = group.map((c) => offsetsOf(c.bytes)).sort((a, b) => a.length - b.length);
    let common = lists[0]!;
    for (const list of lists.slice(1)) {
      if (common.length === 0) break;
      common = intersect(common, list);
    }
    const { fileId, firstId } = group[0]!;
    for (const offset of common) found.push({ id: firstId + offset, fileId, bm: 1 });
  }
  found.sort((a, b) => b.id - a.id);
  return { best: found.slice(0, limit), matched: found.length };
}
