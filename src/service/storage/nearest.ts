/** The best `k` of a stream of scored ids, for nearest-vector scans that hold no more than that. */
export function keepBest(best: [number, number][], id: number, score: number, k: number): void {
  if (score === -Infinity || k <= 0) return;
  if (best.length >= k && score <= best[best.length - 1]![1]) return;
  let i = best.length;
  while (i > 0 && best[i - 1]![1] < score) i--;
  best.splice(i, 0, [id, score]);
  if (best.length > k) best.pop();
}
