/** A markdown table (for docs/benchmarks.md) from rows and [key, label] columns. */
export function markdownTable(rows: object[], columns: [string, string][]): string {
  const cell = (v: unknown) => (v === null || v === undefined ? '-' : typeof v === 'number' ? v.toLocaleString('en') : String(v));
  const head = `| ${columns.map(([, label]) => label).join(' | ')} |`;
  const rule = `| ${columns.map(() => '---').join(' | ')} |`;
  const body = rows.map((r) => `| ${columns.map(([key]) => cell((r as Record<string, unknown>)[key])).join(' | ')} |`);
  return [head, rule, ...body].join('\n');
}
