import { listsToProbe, probeCount, similarity, vectorFromBytes, type VectorLists } from './ivf';

/** The best `k` of a stream of scored ids, for nearest-vector scans that hold no more than that. */
export function keepBest(best: [number, number][], id: number, score: number, k: number): void {
  if (score === -Infinity || k <= 0) return;
  if (best.length >= k && score <= best[best.length - 1]![1]) return;
  let i = best.length;
  while (i > 0 && best[i - 1]![1] < score) i--;
  best.splice(i, 0, [id, score]);
  if (best.length > k) best.pop();
}

/** A stored vector as a backend reads it: its row id and its Float32 bytes. */
export type VectorRow = [id: number, embedding: Uint8Array];

/** How a backend reads an organisation's stored vectors of one kind for `nearestVectors`. */
export interface VectorReader {
  /** How many lists one read asks for. */
  listsPerRead: number;
  /** Every row in these lists. */
  inLists(lists: number[]): Promise<VectorRow[]>;
  /** Up to `limit` rows with a vector, in id order, after row `after` (null: from the first). */
  batchAfter(after: number | null, limit: number): Promise<VectorRow[]>;
}

/** Rows an exact scan reads at a time. */
const VECTOR_BATCH = 2_000;

/**
 * The ids of the `k` stored vectors nearest `query` (dot product; unit vectors, so cosine), and how many
 * vectors were read: through the organisation's ready vector lists when it has them (see ./ivf.ts), the
 * lists nearest the query for its `rows` rows; else an exact scan in batches. Vectors of another
 * dimension are skipped. Holds no more than `k` candidates, whatever the corpus.
 */
export async function nearestVectors(
  reader: VectorReader,
  lists: VectorLists | null,
  query: Float32Array,
  k: number,
  rows: number,
): Promise<{ ids: number[]; scanned: number }> {
  const best: [number, number][] = [];
  let scanned = 0;
  const visit = (found: VectorRow[]) => {
    scanned += found.length;
    for (const [id, bytes] of found) {
      const vector = vectorFromBytes(bytes);
      if (vector.length === query.length) keepBest(best, id, similarity(vector, query), k);
    }
  };
  const probe = lists ? listsToProbe(lists, query, probeCount(rows)) : [];
  if (probe.length > 0) {
    for (let i = 0; i < probe.length; i += reader.listsPerRead) visit(await reader.inLists(probe.slice(i, i + reader.listsPerRead)));
  } else {
    for (let after: number | null = null; ; ) {
      const found = await reader.batchAfter(after, VECTOR_BATCH);
      visit(found);
      if (found.length < VECTOR_BATCH) break;
      after = found[found.length - 1]![0];
    }
  }
  return { ids: best.map(([id]) => id), scanned };
}
