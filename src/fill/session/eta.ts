/** Time left for answer generation, from the rate answers have arrived at so far; sizes and durations in words. */

export interface RateSample {
  at: number; // ms
  received: number;
}

/**
 * Seconds until `expected` is reached at the rate seen between the first and last samples; null until
 * the rate can be told (two samples with progress between them).
 */
export function estimateSecondsLeft(samples: readonly RateSample[], expected: number): number | null {
  if (samples.length < 2) return null;
  const first = samples[0]!;
  const last = samples[samples.length - 1]!;
  const done = last.received - first.received;
  const elapsed = last.at - first.at;
  if (done <= 0 || elapsed <= 0) return null;
  const left = Math.max(0, expected - last.received);
  return Math.ceil((left * elapsed) / done / 1000);
}

export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
