/**
 * `npm run bench -- --vectors` (opt-in): nearest-neighbour search of embeddings at scale on
 * SQLite, exact scan against vector lists (src/service/storage/ivf.ts). Synthetic unit vectors around
 * 1,000 topics (the shape real embeddings have), 384 dimensions, written as passages of one organisation
 * (30 queries; 10 from a million vectors on);
 * each size in its own process (its peak RSS its own). Printed per size: the write, the lists' build in
 * the background, query latency exact and through the lists, how many vectors a query reads, recall@10
 * of the lists against the exact answer, peak RSS.
 *
 *   npx tsx bench/vectors.ts [100000 1000000]     (prints the markdown table)
 *   npx tsx bench/vectors.ts --one 100000          (one size, JSON on the last line)
 */
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PassageEntry } from '../src/service/storage/knowledge-index';
import { NEW_DATABASE_PAGE_SIZE } from '../src/service/storage/sqlite/database';
import { SqliteKnowledgeIndex } from '../src/service/storage/sqlite/knowledge';
import { percentile } from './stats';
import { markdownTable } from './table';

const DIM = 384;
const TOPICS = 1_000;
const PER_FILE = 1_000;
/** Vectors written once the lists are ready. */
const LATER_VECTORS = 20_000;
/** Queries asked (fewer from a million vectors on: each exact one reads them all, about 12 s). */
const queriesFor = (count: number) => (count >= 1_000_000 ? 10 : 30);

export interface VectorsRow {
  vectors: number;
  write_s: number;
  lists_s: number;
  /** Vectors written a second once the lists are ready (each row then gets its list as it is written). */
  later_per_s: number;
  exact_p50_ms: number;
  exact_p95_ms: number;
  lists_p50_ms: number;
  lists_p95_ms: number;
  read_per_query: number;
  recall_at_10: number;
  peak_rss_mb: number;
}

export const VECTORS_COLUMNS: [keyof VectorsRow, string][] = [
  ['vectors', 'vectors'],
  ['write_s', 'written s'],
  ['lists_s', 'lists built s'],
  ['later_per_s', 'written after, vectors/s'],
  ['exact_p50_ms', 'exact p50 ms'],
  ['exact_p95_ms', 'exact p95 ms'],
  ['lists_p50_ms', 'lists p50 ms'],
  ['lists_p95_ms', 'lists p95 ms'],
  ['read_per_query', 'vectors read a query'],
  ['recall_at_10', 'recall@10'],
  ['peak_rss_mb', 'peak RSS MB'],
];

/** A deterministic stream of normal deviates (Box-Muller over a 32-bit LCG). */
function normals(seed: number): () => number {
  let s = seed >>> 0;
  const uniform = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s + 1) / 2 ** 32;
  };
  return () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
}

function unit(v: Float32Array): Float32Array {
  let norm = 0;
  for (const x of v) norm += x * x;
  const scale = 1 / Math.sqrt(norm);
  for (let j = 0; j < v.length; j++) v[j]! *= scale;
  return v;
}

const gaussian = normals(11);
const topics = Array.from({ length: TOPICS }, () => unit(Float32Array.from({ length: DIM }, gaussian)));

/** Vector `i`: its topic's centre and noise of about the same length (made on demand, never all held). */
function vectorAt(i: number, seed = 1): Float32Array {
  const noise = normals(i * 7919 + seed);
  const centre = topics[(i * 2654435761) % TOPICS]!;
  return unit(centre.map((x) => x + noise() / Math.sqrt(DIM)));
}

/** The `p`th percentile (nearest rank) of the samples in ms, to a hundredth. */
function percentileMs(samples: number[], p: number): number {
  return (
    Math.round(
      percentile(
        [...samples].sort((a, b) => a - b),
        p,
      ) * 100,
    ) / 100
  );
}

/** Vectors `from` .. `to` - 1 written as passages of organisation 1, in files of PER_FILE. */
async function writeVectors(index: SqliteKnowledgeIndex, from: number, to: number): Promise<void> {
  for (let start = from; start < to; start += PER_FILE) {
    const file = 1 + start / PER_FILE;
    const entries: PassageEntry[] = [];
    for (let i = start; i < Math.min(to, start + PER_FILE); i++) {
      entries.push({
        page_number: 1,
        section_path: ['V'],
        context_header: 'V',
        content: `Passage ${i}.`,
        stems: 'passag',
        index_header: 'v',
        index_body: `passage ${i}`,
        embedding: vectorAt(i),
      });
    }
    await index.replaceFile(
      { org_id: 1, file_id: file, filename: `v${file}.txt`, offering_ids: [], scope_includes_company: true, use_as_source: true },
      entries,
      [],
    );
  }
}

async function measureOne(count: number): Promise<VectorsRow> {
  const dir = mkdtempSync(join(tmpdir(), 'qfill-bench-vectors-'));
  const db = new Database(join(dir, 'kb.sqlite'));
  // As the service makes a new database: with SQLite's default 4 KB pages a 1.5 KB vector did not fit in
  // an index entry, and what an index could do for the lists was not what the service would see.
  db.pragma(`page_size = ${NEW_DATABASE_PAGE_SIZE}`);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  try {
    // Written with no lists (a threshold never reached), then searched exactly: the reference answers.
    const exactIndex = new SqliteKnowledgeIndex(db, { minVectorsForLists: Number.MAX_SAFE_INTEGER });
    const started = performance.now();
    await writeVectors(exactIndex, 0, count);
    const writeS = (performance.now() - started) / 1000;
    const queries = Array.from({ length: queriesFor(count) }, (_, q) => vectorAt(q * 31 + 5, 977));
    const exact: number[][] = [];
    const exactMs: number[] = [];
    for (const q of queries) {
      const t0 = performance.now();
      exact.push(await exactIndex.nearest('passages', 1, q, 10));
      exactMs.push(performance.now() - t0);
    }
    // The lists, built in the background after the next write (of a vector of another dimension, which
    // no query of these can return).
    const index = new SqliteKnowledgeIndex(db);
    const built = performance.now();
    const odd = {
      page_number: 1,
      section_path: ['V'],
      context_header: 'V',
      content: 'Odd.',
      stems: 'odd',
      index_header: 'v',
      index_body: 'odd',
      embedding: Float32Array.from([1, 0, 0]),
    };
    await index.replaceFile(
      { org_id: 1, file_id: 999_999, filename: 'odd.txt', offering_ids: [], scope_includes_company: true, use_as_source: true },
      [odd],
      [],
    );
    const error = await index.vectorListsSettled();
    if (error) throw new Error(`building the lists failed: ${error}`);
    const listsS = (performance.now() - built) / 1000;
    const listsMs: number[] = [];
    let found = 0;
    let read = 0;
    for (const [n, q] of queries.entries()) {
      const t0 = performance.now();
      const ids = await index.nearest('passages', 1, q, 10);
      listsMs.push(performance.now() - t0);
      read += index.vectorsLastScanned;
      const reference = new Set(exact[n]);
      found += ids.filter((id) => reference.has(id)).length;
    }
    // Rows written once the lists are ready: each gets its list as it is written.
    const later = performance.now();
    await writeVectors(index, count, count + LATER_VECTORS);
    const laterS = (performance.now() - later) / 1000;
    return {
      vectors: count,
      write_s: Math.round(writeS * 10) / 10,
      lists_s: Math.round(listsS * 10) / 10,
      later_per_s: Math.round(LATER_VECTORS / laterS),
      exact_p50_ms: percentileMs(exactMs, 50),
      exact_p95_ms: percentileMs(exactMs, 95),
      lists_p50_ms: percentileMs(listsMs, 50),
      lists_p95_ms: percentileMs(listsMs, 95),
      read_per_query: Math.round(read / queries.length),
      recall_at_10: Math.round((found / (queries.length * 10)) * 1000) / 1000,
      peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
    };
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Each size in a child process. */
export function runVectorsBench(sizes = [100_000], log: (line: string) => void = () => {}): VectorsRow[] {
  const self = fileURLToPath(import.meta.url);
  const tsx = resolve(dirname(self), '..', 'node_modules', '.bin', 'tsx');
  return sizes.map((size) => {
    log(`${size.toLocaleString('en')} vectors ...`);
    const child = spawnSync(tsx, [self, '--one', String(size)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    const last = child.stdout.trim().split('\n').pop() ?? '';
    if (child.status !== 0 || !last.startsWith('{')) throw new Error(`vectors bench at ${size} failed (exit ${child.status}): ${child.stdout.slice(-500)}`);
    return JSON.parse(last) as VectorsRow;
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  if (args[0] === '--one') {
    measureOne(Number(args[1]))
      .then((row) => console.log(JSON.stringify(row)))
      .catch((error: Error) => {
        console.error(error.stack ?? error.message);
        process.exit(1);
      });
  } else {
    const sizes = args.length ? args.map(Number) : [100_000];
    console.log(
      markdownTable(
        runVectorsBench(sizes, (line) => console.error(line)),
        VECTORS_COLUMNS,
      ),
    );
  }
}
