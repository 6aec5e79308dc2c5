/** Vector lists (src/service/storage/ivf.ts): training, a vector's list, the lists a query reads. */
import { describe, expect, it } from 'vitest';
import {
  buildVectorLists,
  COARSE,
  FINE,
  LISTS,
  listOf,
  listsFromBytes,
  listsToBytes,
  listsToProbe,
  MIN_SCANNED,
  probeCount,
  similarity,
  TRAINING_SAMPLE,
  trainVectorLists,
  type VectorLists,
} from '../../../src/service/storage/ivf';
import { clusteredVectors } from './vectors';

describe('vector lists', () => {
  const sample = clusteredVectors(3_000, 32, 40);

  it('trains the same centroids from the same sample, all of unit length', async () => {
    const a = await trainVectorLists(sample);
    const b = await trainVectorLists(sample);
    expect(a.coarse).toEqual(b.coarse);
    expect(a.fine).toEqual(b.fine);
    expect(a.coarse).toHaveLength(COARSE * 32);
    expect(a.fine).toHaveLength(COARSE * FINE * 32);
    for (let c = 0; c < COARSE * FINE; c++) {
      let norm = 0;
      for (let j = 0; j < 32; j++) norm += a.fine[c * 32 + j]! ** 2;
      expect(Math.abs(norm - 1)).toBeLessThan(1e-4);
    }
  });

  it('puts a vector in a list the query nearest to it reads first', async () => {
    const lists = await trainVectorLists(sample);
    let first = 0;
    for (const v of sample.slice(0, 200)) {
      const list = listOf(lists, v)!;
      expect(list).toBeGreaterThanOrEqual(0);
      expect(list).toBeLessThan(LISTS);
      if (listsToProbe(lists, v, 1)[0] === list) first++;
    }
    // The two-level choice (best coarse, then best fine inside it) is the overall best fine centroid
    // for nearly every vector.
    expect(first).toBeGreaterThan(180);
  });

  it('reads more lists of a small organisation and about 2.5 % of a large one', () => {
    expect(probeCount(20_000)).toBe(Math.ceil((LISTS * MIN_SCANNED) / 20_000));
    expect(probeCount(1_000_000)).toBe(Math.ceil(LISTS * 0.025));
    expect(probeCount(100)).toBe(LISTS);
  });

  it('learns from a sample smaller than its lists, and ignores vectors of another dimension', async () => {
    const tiny = [...clusteredVectors(5, 8, 2), Float32Array.from([1, 0, 0])];
    const lists = await trainVectorLists(tiny);
    expect(lists.dim).toBe(8);
    expect(listOf(lists, tiny[0]!)).not.toBeNull();
    expect(listOf(lists, Float32Array.from([1, 0, 0]))).toBeNull();
    expect(listsToProbe(lists, Float32Array.from([1, 0, 0]), 10)).toEqual([]);
  });

  it('stores centroids as bytes and reads them back unchanged', async () => {
    const lists = await trainVectorLists(sample.slice(0, 500));
    const bytes = listsToBytes(lists);
    const back = listsFromBytes(lists.dim, new Uint8Array(bytes.coarse), new Uint8Array(bytes.fine));
    expect(back).toEqual(lists);
  });

  it('hands the event loop back while it trains', async () => {
    let pauses = 0;
    await trainVectorLists(sample, async () => {
      pauses++;
    });
    expect(pauses).toBeGreaterThan(50);
  });
  it('learns from vectors spread over every part of the organisation, whatever period its rows repeat with', async () => {
    // Rows alternate between 32 topics (row i is of topic i % 32), twice as many rows as the sample: every
    // other row would have seen only the even topics.
    const centres = clusteredVectors(32, 16, 32, 5);
    const rows = Array.from({ length: 2 * TRAINING_SAMPLE }, (_, i) => ({ id: i + 1, embedding: centres[i % 32]!, list: null as number | null }));
    let kept: VectorLists | null = null;
    await buildVectorLists(
      {
        vectors: async (after, limit) => rows.filter((r) => r.id > after).slice(0, limit),
        unassigned: async (after, limit) => rows.filter((r) => r.id > after && r.list === null).slice(0, limit),
        assign: async (lists) => {
          for (const [id, list] of lists) rows[id - 1]!.list = list;
        },
        stored: async () => null,
        keep: async (lists) => (kept = lists),
        ready: async () => {},
      },
      async () => {},
    );
    expect(rows.every((r) => r.list !== null)).toBe(true);
    const lists = kept!;
    for (const centre of centres) {
      let nearest = -1;
      for (let list = 0; list < LISTS; list++) nearest = Math.max(nearest, similarity(centre, lists.fine.subarray(list * 16, (list + 1) * 16)));
      expect(nearest).toBeGreaterThan(0.99);
    }
  });
});
