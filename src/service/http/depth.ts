/**
 * How deeply a parsed JSON value nests, counted without recursion (a hostile body may nest 100,000
 * levels; JSON.parse copes, but anything recursive afterwards, JSON.stringify included, overflows
 * the stack).
 */
export const MAX_JSON_DEPTH = 32;

export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Object.values(v as Record<string, unknown>)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}
