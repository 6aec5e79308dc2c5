/**
 * Latency summaries shared by the benches: one definition of a percentile, so that a p95 in one table
 * means what it means in another.
 */

/** Milliseconds to a tenth, as every latency table shows them. */
export const round = (ms: number) => Math.round(ms * 10) / 10;

/** The nearest-rank percentile (`p` in percent) of samples sorted ascending; 0 when there are none. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** Count, p50, p95 and maximum of latencies in ms, to a tenth; nulls when there are none. */
export function latencyStats(latencies: readonly number[]): { n: number; p50_ms: number | null; p95_ms: number | null; max_ms: number | null } {
  const sorted = [...latencies].sort((a, b) => a - b);
  if (sorted.length === 0) return { n: 0, p50_ms: null, p95_ms: null, max_ms: null };
  return { n: sorted.length, p50_ms: round(percentile(sorted, 50)), p95_ms: round(percentile(sorted, 95)), max_ms: round(sorted.at(-1)!) };
}
