/**
 * Timestamps for stored rows. Strictly increasing within the process so that "newest activity first"
 * is a total order even when two writes land in the same millisecond.
 */
let last = 0;

export function nowIso(): string {
  let t = Date.now();
  if (t <= last) t = last + 1;
  last = t;
  return new Date(t).toISOString();
}
