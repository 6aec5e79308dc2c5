/** The benches' one percentile: nearest rank, checked against its definition on random samples. */
import { describe, expect, it } from 'vitest';
import { latencyStats, percentile } from '../../bench/stats';

/** The definition: the smallest sample with at least p % of the samples at or below it. */
function byDefinition(sorted: number[], p: number): number {
  return sorted.find((value) => sorted.filter((x) => x <= value).length * 100 >= p * sorted.length)!;
}

describe('bench percentiles', () => {
  it('is the nearest-rank percentile for every sample count and percent', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 100;
    for (let n = 1; n <= 60; n++) {
      const sorted = Array.from({ length: n }, () => Math.round(random())).sort((a, b) => a - b);
      for (const p of [1, 25, 50, 90, 95, 99, 100]) expect([n, p, percentile(sorted, p)]).toEqual([n, p, byDefinition(sorted, p)]);
    }
  });

  it('gives 0 for no samples, and the lower middle for an even count', () => {
    expect(percentile([], 95)).toBe(0);
    expect(percentile([1, 2, 3, 4], 50)).toBe(2);
    expect(percentile([1, 2, 3, 4], 95)).toBe(4);
  });

  it('summarises latencies to a tenth, unsorted in, nulls for none', () => {
    expect(latencyStats([30.04, 10.06, 20])).toEqual({ n: 3, p50_ms: 20, p95_ms: 30, max_ms: 30 });
    expect(latencyStats([])).toEqual({ n: 0, p50_ms: null, p95_ms: null, max_ms: null });
  });
});
