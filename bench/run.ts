/**
 * `npm run bench`: runs the benches and prints markdown tables. Add a bench by pushing a section
 * (title, columns, rows) to SECTIONS.
 */
import { runWritebackBench, WRITEBACK_COLUMNS } from './writeback';

interface Section {
  title: string;
  run: () => Promise<object[]>;
  columns: [string, string][];
}

export function markdownTable(rows: object[], columns: [string, string][]): string {
  const cell = (v: unknown) => (v === null || v === undefined ? '-' : typeof v === 'number' ? v.toLocaleString('en') : String(v));
  const head = `| ${columns.map(([, label]) => label).join(' | ')} |`;
  const rule = `| ${columns.map(() => '---').join(' | ')} |`;
  const body = rows.map((r) => `| ${columns.map(([key]) => cell((r as Record<string, unknown>)[key])).join(' | ')} |`);
  return [head, rule, ...body].join('\n');
}

const SECTIONS: Section[] = [
  { title: 'Write-back into Excel (in-memory host, 5 tabs)', run: runWritebackBench, columns: WRITEBACK_COLUMNS as [string, string][] },
];

async function main(): Promise<void> {
  for (const section of SECTIONS) {
    const rows = await section.run();
    console.log(`\n### ${section.title}\n`);
    console.log(markdownTable(rows, section.columns));
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
