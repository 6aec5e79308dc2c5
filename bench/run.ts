/**
 * `npm run bench`: speed and memory of the product, printed as markdown tables for docs/benchmarks.md.
 * Sections: write-back into Excel (in-memory host), retrieval and answering (in process), the service
 * end to end over HTTP, and the task pane bundle. Timings are measured, never asserted by tests.
 *
 * `--quick`: seconds instead of minutes, the sections that depend on the machine's setup (write-back at one
 * small size; SQLite and PostgreSQL on fresh databases with a few files, a small synthetic knowledge base and
 * a second of load), so CI finds a bench that no longer runs on a fresh clone.
 */
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { runWritebackBench, WRITEBACK_COLUMNS } from './writeback';
import { runRetrievalBench, type Row as RetrievalRow } from './retrieval';
import { runServiceBench, SERVICE_COLUMNS } from './service';
import { LLM_COLUMNS, runLlmBench } from './llm';
import { ATTACK_COLUMNS, runAttackBench } from './attack';
import { runScaleBench, SCALE_COLUMNS } from './scale';
import { API_SCALE_COLUMNS, apiScaleArgs, runApiScaleBench } from './scale-api';
import { runVectorsBench, VECTORS_COLUMNS } from './vectors';
import { POSTGRES_COLUMNS, QUICK, runPostgresBench } from './postgres';
import { INGEST_COLUMNS, runIngestBench } from './ingest';
import { markdownTable } from './table';
import { LIBRARY_COLUMNS, runLibraryBench } from './library';
import buildIfStale from '../test/build-if-stale';
import { BROKEN_UPLOAD_COLUMNS, runBrokenUploadBench } from './broken-uploads';

interface Section {
  title: string;
  run: () => Promise<object[]>;
  columns: [string, string][];
  /** Runs only when named (minutes long): `npm run bench -- "<part of its title>"`. */
  optIn?: boolean;
  /** The section's form in `npm run bench -- --quick`; sections without one are left out of it. */
  quick?: () => Promise<object[]>;
}

const RETRIEVAL_COLUMNS: [keyof RetrievalRow | 'verdict', string][] = [
  ['name', 'measure'],
  ['n', 'n'],
  ['p50_ms', 'p50 ms'],
  ['p95_ms', 'p95 ms'],
  ['total_ms', 'total ms'],
  ['budget', 'budget'],
  ['verdict', 'within budget'],
];

async function bundleRows(): Promise<object[]> {
  const file = 'dist/bundle-sizes.json';
  // A fresh clone has no build yet: make it, as npm test does.
  buildIfStale();
  if (!existsSync(file)) throw new Error('dist/bundle-sizes.json is missing after the build');
  const rows = JSON.parse(readFileSync(file, 'utf8')) as { name: string; raw: number; gz: number }[];
  return rows.map((r) => ({
    name: r.name,
    raw: `${(r.raw / 1024).toFixed(1)} KB`,
    gz: `${(r.gz / 1024).toFixed(1)} KB`,
    budget: r.name === 'taskpane' ? '< 60 KB gzipped' : '',
  }));
}

const SECTIONS: Section[] = [
  {
    title: 'Write-back into Excel (in-memory host, 5 tabs)',
    run: () => runWritebackBench(),
    columns: WRITEBACK_COLUMNS as [string, string][],
    quick: () => runWritebackBench([1000]),
  },
  {
    title: 'Retrieval and answering (in process, extractive)',
    run: async () => (await runRetrievalBench()).map((r) => ({ ...r, verdict: r.ok === null ? '' : r.ok ? 'yes' : 'no' })),
    columns: RETRIEVAL_COLUMNS as [string, string][],
  },
  { title: 'The local service end to end (real HTTP on loopback)', run: () => runServiceBench(), columns: SERVICE_COLUMNS as [string, string][] },
  {
    title: 'Through a language model (the CAIQ, loopback stub model with 300 ms latency)',
    run: () => runLlmBench((line) => console.error(line)),
    columns: LLM_COLUMNS as [string, string][],
  },
  {
    title: 'Under attack (hostile uploads, a qfill serve process)',
    run: () => runAttackBench((line) => console.error(line)),
    columns: ATTACK_COLUMNS as [string, string][],
  },
  {
    title: 'SQLite and PostgreSQL (real HTTP, qfill serve processes on one database)',
    run: () => runPostgresBench((line) => console.error(line)),
    columns: POSTGRES_COLUMNS as [string, string][],
    quick: () => runPostgresBench((line) => console.error(line), QUICK),
  },
  {
    title: 'The answer library (50,000 entries: list, filters, conflicts, search; in process)',
    run: () => runLibraryBench(50_000, (line) => console.error(line)),
    columns: LIBRARY_COLUMNS as [string, string][],
    quick: () => runLibraryBench(2_000, (line) => console.error(line)),
  },
  {
    title: 'Bundles (production build)',
    run: bundleRows,
    columns: [
      ['name', 'bundle'],
      ['raw', 'minified'],
      ['gz', 'gzipped'],
      ['budget', 'budget'],
    ],
  },
  {
    title: 'Ingest while asking (a qfill serve process ingests 100 MB of text while a client chats)',
    run: () => runIngestBench(100, (line) => console.error(line)),
    columns: INGEST_COLUMNS as [string, string][],
    optIn: true,
  },
  {
    title: 'Broken-off uploads (a qfill serve process on each backend, thousands of clients breaking off)',
    run: () => runBrokenUploadBench(3000, (line) => console.error(line)),
    columns: BROKEN_UPLOAD_COLUMNS,
    optIn: true,
  },
];

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  console.log(`Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, Node ${process.version}`);
  // Opt-in: minutes of building synthetic knowledge bases up to a million passages.
  if (args.includes('--scale')) {
    // Through the API of a qfill serve process on PostgreSQL (or SQLite): `--database URL|sqlite [--passages N]`.
    const api = apiScaleArgs(args);
    if (api) {
      console.log(`\n### A knowledge base at scale through the API (${api.database === 'sqlite' ? 'SQLite' : 'PostgreSQL'}, qfill serve, extractive)\n`);
      console.log(markdownTable(await runApiScaleBench(api.database, api.sizes, (line) => console.error(line)), API_SCALE_COLUMNS as [string, string][]));
      return;
    }
    console.log('\n### A knowledge base at scale (synthetic passages, in process, extractive)\n');
    console.log(
      markdownTable(
        runScaleBench(undefined, (line) => console.error(line)),
        SCALE_COLUMNS as [string, string][],
      ),
    );
    return;
  }
  // Opt-in: minutes of writing and searching 100,000 embeddings (and a million with --vectors 1000000).
  const vectorsAt = args.indexOf('--vectors');
  if (vectorsAt >= 0) {
    const sizes = args
      .slice(vectorsAt + 1)
      .filter((a) => /^\d+$/.test(a))
      .map(Number);
    console.log('\n### Nearest vectors at scale (SQLite, exact scan against vector lists)\n');
    console.log(
      markdownTable(
        runVectorsBench(sizes.length ? sizes : undefined, (line) => console.error(line)),
        VECTORS_COLUMNS as [string, string][],
      ),
    );
    return;
  }
  // Flags (and the value after --synthetic-database) are options of a section, not part of a title.
  const only = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--synthetic-database');
  const quick = args.includes('--quick');
  for (const section of SECTIONS) {
    const named = only.some((o) => section.title.toLowerCase().includes(o.toLowerCase()));
    if ((only.length || section.optIn) && !named) continue;
    if (quick && !section.quick) continue;
    const rows = await (quick ? section.quick! : section.run)();
    console.log(`\n### ${section.title}\n`);
    console.log(markdownTable(rows, section.columns));
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
