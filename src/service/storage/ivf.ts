/**
 * Vector lists (an inverted-file index, IVF) for the nearest-neighbour search of embeddings: vectors are
 * grouped around centroids, and a query reads only the lists whose centroids are nearest to it instead of
 * every vector of the organisation (a million passages' vectors are 1.5 GB at 384 dimensions).
 *
 * Two levels: COARSE centroids, each with FINE centroids of its own, COARSE * FINE lists in all. A vector's
 * list is found with COARSE + FINE dot products instead of COARSE * FINE, so a row written after training
 * gets its list for the price of 64 dot products. Embeddings are unit vectors (see knowledge/embeddings.ts),
 * so similarity is the dot product and centroids are kept at unit length (spherical k-means).
 *
 * Pure: the backends store the centroids and each row's list, and scan the lists a query probes.
 */

export const COARSE = 32;
export const FINE = 32;
/**
 * Vectors k-means learns from, bounded whatever the corpus: 32 a list. With 8 a list the centroids split
 * topics, and on the bench's 100,000 vectors recall@10 reading 4 % of them was 0.47 instead of 0.96.
 */
export const TRAINING_SAMPLE = 32_768;
export const LISTS = COARSE * FINE;
/** Organisations with fewer vectors of a kind are searched exactly (every fixture knowledge base is). */
export const MIN_VECTORS_FOR_LISTS = 20_000;
/**
 * A query reads the lists nearest to it until they hold about this share of the organisation's vectors
 * (lists are of even size on average), and never fewer than MIN_SCANNED vectors' worth: a small
 * organisation's lists are small, and a few more of them cost little and keep recall high.
 */
export const SCANNED_SHARE = 0.025;
export const MIN_SCANNED = 4_000;
const COARSE_ITERATIONS = 8;
const FINE_ITERATIONS = 6;

export interface VectorLists {
  dim: number;
  /** COARSE unit centroids, one after the other. */
  coarse: Float32Array;
  /** COARSE * FINE unit centroids: those of coarse centroid c start at c * FINE * dim. */
  fine: Float32Array;
}

/** How training hands the event loop back: called between chunks of work. */
export type Pause = () => Promise<void>;

const noPause: Pause = async () => {};

/** Uniform numbers in [0, 1) from a 32-bit seed (mulberry32): the same stream on every run. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function dot(a: Float32Array, aAt: number, b: Float32Array, bAt: number, dim: number): number {
  let sum = 0;
  for (let j = 0; j < dim; j++) sum += a[aAt + j]! * b[bAt + j]!;
  return sum;
}

/** Index (0..count-1) of the centroid of `centroids` (from `at`) with the largest dot product with `v`. */
function best(v: Float32Array, centroids: Float32Array, at: number, count: number, dim: number): number {
  let bestIndex = 0;
  let bestScore = -Infinity;
  for (let c = 0; c < count; c++) {
    const score = dot(v, 0, centroids, at + c * dim, dim);
    if (score > bestScore) {
      bestScore = score;
      bestIndex = c;
    }
  }
  return bestIndex;
}

function normaliseInPlace(v: Float32Array, at: number, dim: number): boolean {
  let norm = 0;
  for (let j = 0; j < dim; j++) norm += v[at + j]! * v[at + j]!;
  if (norm === 0) return false;
  const scale = 1 / Math.sqrt(norm);
  for (let j = 0; j < dim; j++) v[at + j]! *= scale;
  return true;
}

/**
 * Spherical k-means of `vectors` into `k` unit centroids (k <= vectors.length), started from vectors
 * spread evenly through the sample, so the same sample always gives the same centroids.
 */
async function kMeans(vectors: Float32Array[], k: number, dim: number, iterations: number, pause: Pause): Promise<Float32Array> {
  const centroids = new Float32Array(k * dim);
  for (let c = 0; c < k; c++) centroids.set(vectors[Math.floor((c * vectors.length) / k)]!, c * dim);
  const assigned = new Int32Array(vectors.length);
  for (let iteration = 0; iteration < iterations; iteration++) {
    for (let i = 0; i < vectors.length; i++) {
      assigned[i] = best(vectors[i]!, centroids, 0, k, dim);
      if (i % 256 === 255) await pause();
    }
    const sums = new Float32Array(k * dim);
    for (let i = 0; i < vectors.length; i++) {
      const at = assigned[i]! * dim;
      const v = vectors[i]!;
      for (let j = 0; j < dim; j++) sums[at + j]! += v[j]!;
    }
    // A centroid left without vectors keeps its place.
    for (let c = 0; c < k; c++) if (normaliseInPlace(sums, c * dim, dim)) centroids.set(sums.subarray(c * dim, (c + 1) * dim), c * dim);
  }
  return centroids;
}

/** Lists learnt from a sample of vectors of one dimension (at least one vector). */
export async function trainVectorLists(sample: Float32Array[], pause: Pause = noPause): Promise<VectorLists> {
  const dim = sample[0]!.length;
  const vectors = sample.filter((v) => v.length === dim);
  const coarseCount = Math.min(COARSE, vectors.length);
  const found = await kMeans(vectors, coarseCount, dim, COARSE_ITERATIONS, pause);
  // Fewer vectors than coarse centroids: the missing ones repeat the first (their lists stay empty).
  const coarse = new Float32Array(COARSE * dim);
  for (let c = 0; c < COARSE; c++) coarse.set(found.subarray((c % coarseCount) * dim, ((c % coarseCount) + 1) * dim), c * dim);
  const members: Float32Array[][] = Array.from({ length: COARSE }, () => []);
  for (const v of vectors) members[best(v, coarse, 0, COARSE, dim)]!.push(v);
  const fine = new Float32Array(COARSE * FINE * dim);
  for (let c = 0; c < COARSE; c++) {
    const own = members[c]!.length > 0 ? members[c]! : [coarse.slice(c * dim, (c + 1) * dim)];
    const count = Math.min(FINE, own.length);
    const centroids = await kMeans(own, count, dim, FINE_ITERATIONS, pause);
    for (let f = 0; f < FINE; f++) fine.set(centroids.subarray((f % count) * dim, ((f % count) + 1) * dim), (c * FINE + f) * dim);
    await pause();
  }
  return { dim, coarse, fine };
}

/** The list of `v` (0 .. COARSE * FINE - 1), or null for a vector of another dimension. */
export function listOf(lists: VectorLists, v: Float32Array): number | null {
  if (v.length !== lists.dim) return null;
  const c = best(v, lists.coarse, 0, COARSE, lists.dim);
  return c * FINE + best(v, lists.fine, c * FINE * lists.dim, FINE, lists.dim);
}

/** How many lists a query reads in an organisation of `vectors` vectors of its kind (see SCANNED_SHARE). */
export function probeCount(vectors: number): number {
  const wanted = Math.max(MIN_SCANNED, vectors * SCANNED_SHARE);
  return Math.min(LISTS, Math.max(1, Math.ceil((LISTS * wanted) / Math.max(1, vectors))));
}

/**
 * The `count` lists whose centroids are nearest `query` (every fine centroid is scored: 1,024 dot
 * products, well under a millisecond). Empty for a query of another dimension.
 */
export function listsToProbe(lists: VectorLists, query: Float32Array, count: number): number[] {
  const { dim } = lists;
  if (query.length !== dim) return [];
  const scores = new Float32Array(LISTS);
  for (let list = 0; list < LISTS; list++) scores[list] = dot(query, 0, lists.fine, list * dim, dim);
  return Array.from({ length: LISTS }, (_, list) => list)
    .sort((a, b) => scores[b]! - scores[a]! || a - b)
    .slice(0, count);
}

/** Centroids as bytes to store, and back. */
export function listsToBytes(lists: VectorLists): { coarse: Buffer; fine: Buffer } {
  return { coarse: Buffer.from(lists.coarse.buffer.slice(0)), fine: Buffer.from(lists.fine.buffer.slice(0)) };
}

export function listsFromBytes(dim: number, coarse: Uint8Array, fine: Uint8Array): VectorLists {
  const floats = (bytes: Uint8Array) => new Float32Array(Uint8Array.from(bytes).buffer);
  return { dim, coarse: floats(coarse), fine: floats(fine) };
}

/** An organisation's lists of one kind as a backend keeps them (null: none stored). */
export type StoredLists = { lists: VectorLists; ready: boolean } | null;

/** What building an organisation's lists of one kind needs of a backend. */
export interface VectorListStore {
  /** Vectors of the organisation and kind, with ids above `after`, in id order, at most `limit`. */
  vectors(after: number, limit: number): Promise<{ id: number; embedding: Float32Array }[]>;
  /** The same, of rows without a list yet. */
  unassigned(after: number, limit: number): Promise<{ id: number; embedding: Float32Array }[]>;
  /** Gives rows their lists (null: a vector of another dimension), in one transaction. */
  assign(lists: [id: number, list: number | null][]): Promise<void>;
  /** Lists stored by an earlier build that did not finish (a restart, a failure), to finish with. */
  stored(): Promise<VectorLists | null>;
  /** Stores `lists` unless the organisation has some already; the lists stored (another process's first). */
  keep(lists: VectorLists): Promise<VectorLists>;
  /** Every row written before the lists were stored has its list: queries may use them. */
  ready(): Promise<void>;
}

const READ_BATCH = 2_000;
const ASSIGN_BATCH = 500;
/** Lets the event loop serve what waits (requests) between a build's batches. */
const eventLoopTurn: Pause = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Builds an organisation's lists: a sample of TRAINING_SAMPLE of its vectors (of the dimension most have),
 * k-means, then every row its list. Rows written once the lists are stored get
 * theirs when written (the backends look the lists up); `pause` between batches keeps the event loop free.
 */
export async function buildVectorLists(store: VectorListStore, pause: Pause = eventLoopTurn): Promise<void> {
  const lists = (await store.stored()) ?? (await trainFromSample(store, pause));
  if (!lists) return;
  for (let after = -Infinity; ; ) {
    const rows = await store.unassigned(after, ASSIGN_BATCH);
    await store.assign(rows.map((r) => [r.id, listOf(lists, r.embedding)]));
    if (rows.length < ASSIGN_BATCH) break;
    after = rows[rows.length - 1]!.id;
    await pause();
  }
  await store.ready();
}

/**
 * Samples, trains and stores (see buildVectorLists); null when the organisation has no vectors. The sample
 * is a reservoir sample from a fixed seed: every vector equally likely, the same sample for the same rows.
 * Every n-th vector would alias with any period in the rows' order (the vectors bench's topics repeat
 * every 1,000 ids, and a stride of 30 saw a tenth of them: recall@10 0.4 at a million vectors).
 */
async function trainFromSample(store: VectorListStore, pause: Pause): Promise<VectorLists | null> {
  const random = seededRandom(0x9e3779b9);
  const sample: Float32Array[] = [];
  let seen = 0;
  for (let after = -Infinity; ; ) {
    const rows = await store.vectors(after, READ_BATCH);
    for (const r of rows) {
      if (sample.length < TRAINING_SAMPLE) sample.push(r.embedding);
      else {
        const slot = Math.floor(random() * (seen + 1));
        if (slot < TRAINING_SAMPLE) sample[slot] = r.embedding;
      }
      seen++;
    }
    if (rows.length < READ_BATCH) break;
    after = rows[rows.length - 1]!.id;
    await pause();
  }
  if (sample.length === 0) return null;
  // The dimension most vectors have (a model changed midway leaves a few of another).
  const dims = new Map<number, number>();
  for (const v of sample) dims.set(v.length, (dims.get(v.length) ?? 0) + 1);
  const dim = [...dims].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]![0];
  return store.keep(
    await trainVectorLists(
      sample.filter((v) => v.length === dim),
      pause,
    ),
  );
}

/**
 * A stored vector (Float32 bytes) as floats: a view of the same bytes when they start on a 4-byte boundary
 * (Node's buffers nearly always do), else a copy.
 */
export function vectorFromBytes(bytes: Uint8Array): Float32Array {
  if (bytes.byteOffset % 4 === 0 && bytes.byteLength % 4 === 0) return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new Float32Array(copy.buffer);
}

/** The dot product of two vectors of one length. */
export function similarity(a: Float32Array, b: Float32Array): number {
  return dot(a, 0, b, 0, a.length);
}

/**
 * The background list builds of one index, per organisation and kind: whether a count of vectors is due
 * (every twentieth of the threshold written, not on every write), the builds running, their last error.
 */
export class ListBuilds {
  private readonly running = new Map<string, Promise<void>>();
  private readonly writtenSinceCount = new Map<string, number>();
  lastError: string | null = null;

  constructor(readonly minVectors: number) {}

  isRunning(key: string): boolean {
    return this.running.has(key);
  }

  /** `vectors` more were written: true when the organisation's vectors should be counted now. */
  countDue(key: string, vectors: number): boolean {
    const written = (this.writtenSinceCount.get(key) ?? 0) + vectors;
    if (written < Math.max(1, Math.floor(this.minVectors / 20)) && this.writtenSinceCount.has(key)) {
      this.writtenSinceCount.set(key, written);
      return false;
    }
    // Bounded: one entry per organisation and kind written to.
    if (this.writtenSinceCount.size >= 10_000) this.writtenSinceCount.clear();
    this.writtenSinceCount.set(key, 0);
    return true;
  }

  /**
   * After a committed write of `vectors` embeddings of organisation and kind `key`: starts `build` in the
   * background when it is due. Lists stored but not ready (a build stopped before every row had its list:
   * a restart, a failure; or another process building them now, and assigning the same lists twice
   * changes nothing) are finished now. With none, the organisation's vectors are counted now and then
   * (countDue) and the lists built once there are `minVectors`.
   */
  async noteWrite(
    key: string,
    vectors: number,
    backend: { stored(): Promise<StoredLists>; countUpTo(limit: number): Promise<number>; build(): Promise<void> },
  ): Promise<void> {
    if (vectors === 0 || this.isRunning(key)) return;
    const stored = await backend.stored();
    if (stored?.ready) return;
    if (!stored) {
      if (!this.countDue(key, vectors)) return;
      if ((await backend.countUpTo(this.minVectors)) < this.minVectors) return;
    }
    // Another write may have started it while this one looked.
    if (!this.isRunning(key)) this.start(key, () => backend.build());
  }

  start(key: string, build: () => Promise<void>): void {
    const running = build()
      .catch((error: Error) => {
        this.lastError = error.message;
      })
      .finally(() => this.running.delete(key));
    this.running.set(key, running);
  }

  /** Resolves when every build started so far has ended (tests, benches). */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running.values()]);
  }
}
