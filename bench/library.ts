/**
 * `npm run bench -- "answer library"`: the answer library's browse and search on 50,000 entries in one
 * organisation (100 past questionnaires of 500 questions, 25 templates of four questionnaires each, 5% of
 * answers disagreeing with their template's others), with analysts' decisions on some (settled, approved,
 * retired). Measured through the same functions the routes call (src/service/domain/library-actions.ts),
 * in process: a page of the list, a deep page (asked by number, and by the cursor a `next` link carries),
 * each filter, the conflict groups (of the whole library, and of one offering's questionnaires: a first
 * page, and a page further on by its cursor; one questionnaire of each template is about that offering
 * alone), and a search with the
 * retrieval answering uses. Target: p95 under 100 ms. SQLite always; PostgreSQL too when
 * QFILL_BENCH_DATABASE_URL (or QFILL_TEST_DATABASE_URL) names a server the bench may create a database on.
 *
 *   npx tsx bench/library.ts [entries]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { browse, conflicts, type LibraryDeps } from '../src/service/domain/library-actions';
import { conflictsForOffering } from '../src/service/domain/library-offerings';
import type { Knowledge } from '../src/service/context';
import { KnowledgeBase } from '../src/service/knowledge';
import { qaEntry } from '../src/service/knowledge/entries';
import { openStorage, type Storage } from '../src/service/storage/open';
import type { QaEntry } from '../src/service/storage/knowledge-index';
import { latencyStats } from './stats';
import { markdownTable } from './table';

export interface LibraryBenchRow {
  backend: string;
  entries: number;
  measure: string;
  n: number;
  p50_ms: number | null;
  p95_ms: number | null;
  max_ms: number | null;
  within: string;
}

export const LIBRARY_COLUMNS: [keyof LibraryBenchRow, string][] = [
  ['backend', 'backend'],
  ['entries', 'entries'],
  ['measure', 'measure'],
  ['n', 'n'],
  ['p50_ms', 'p50 ms'],
  ['p95_ms', 'p95 ms'],
  ['max_ms', 'max ms'],
  ['within', 'p95 < 100 ms'],
];

const BUDGET_MS = 100;
const PER_FILE = 500;
const FILES_PER_TEMPLATE = 4;
const REPS = 30;

const VERBS = [
  'enforce',
  'document',
  'review',
  'encrypt',
  'monitor',
  'test',
  'audit',
  'restrict',
  'log',
  'approve',
  'rotate',
  'back up',
  'retain',
  'train staff on',
  'scan',
];
const OBJECTS = [
  'administrator access',
  'customer data at rest',
  'data in transit',
  'privileged accounts',
  'vendor contracts',
  'incident response plans',
  'business continuity plans',
  'change requests',
  'source code repositories',
  'encryption keys',
  'firewall rules',
  'user access rights',
  'audit logs',
  'backups',
  'mobile devices',
  'remote access',
  'third-party integrations',
  'password policies',
  'vulnerability findings',
  'security awareness',
  'data retention schedules',
  'penetration test results',
  'disaster recovery procedures',
  'network segmentation',
  'API credentials',
  'production databases',
  'physical access',
  'software licences',
  'cloud workloads',
  'email gateways',
  'endpoint protection',
  'identity providers',
  'data classification',
  'service accounts',
  'configuration baselines',
  'patch deployments',
  'secure development practices',
  'subprocessor lists',
  'privacy notices',
  'data subject requests',
];
const QUALIFIERS = [
  'at least annually',
  'quarterly',
  'for every release',
  'with multi-factor authentication',
  'using AES-256',
  'by an independent party',
  'within 24 hours',
  'under a documented policy',
  'for all environments',
  'before go-live',
];

function question(template: number, i: number): string {
  const n = template * PER_FILE + i;
  return `Do you ${VERBS[n % VERBS.length]} ${OBJECTS[Math.floor(n / VERBS.length) % OBJECTS.length]} ${QUALIFIERS[Math.floor(n / (VERBS.length * OBJECTS.length)) % QUALIFIERS.length]} (${template}-${i})?`;
}

function fileEntries(template: number, copy: number): QaEntry[] {
  return Array.from({ length: PER_FILE }, (_, i) => {
    // One questionnaire of four disagrees on 5% of its template's questions.
    const answer = copy === 1 && i % 20 === 0 ? 'No' : 'Yes';
    const pair = {
      question: question(template, i),
      answer,
      slots: [
        { slot_key: 'answer', content: answer },
        { slot_key: 'comment', content: `Stated in policy ${template}.${i}.` },
      ],
      original_id: `T${template}-${i}`,
      tab_name: `Template ${template}`,
      location: `Template ${template}!C${i + 2}`,
    };
    return { ...qaEntry(pair), embedding: null };
  });
}

async function build(storage: Storage, entries: number, log: (line: string) => void): Promise<{ orgId: number; offeringId: number }> {
  const index = storage.knowledgeIndex!;
  const org = await storage.store.orgs.upsert('bench', {});
  const offering = await storage.store.offerings.upsert(org.id, 'Cloud', 'service');
  const files = Math.ceil(entries / PER_FILE);
  const started = performance.now();
  for (let f = 0; f < files; f++) {
    const template = Math.floor(f / FILES_PER_TEMPLATE);
    // The last questionnaire of each template is about one offering alone.
    const aboutCloud = f % FILES_PER_TEMPLATE === FILES_PER_TEMPLATE - 1;
    await index.replaceFile(
      {
        org_id: org.id,
        file_id: f + 1,
        filename: `questionnaire-${f + 1}.xlsx`,
        offering_ids: aboutCloud ? [offering.id] : [],
        scope_includes_company: !aboutCloud,
        use_as_source: true,
      },
      [],
      fileEntries(template, f % FILES_PER_TEMPLATE),
    );
  }
  log(`${storage.store.backend}: ${entries.toLocaleString('en')} entries written in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  // Analysts' decisions: some settled, approved, retired.
  const { rows } = await storage.store.library.list(org.id, { review_cutoff: '1970-01-01' }, { limit: 3000, offset: 0 });
  for (const [i, row] of rows.entries()) {
    const by = { updated_by: 'bench', updated_at: new Date().toISOString() };
    const event = { by_name: 'bench', detail: null, version: null, version_question: null, version_slots: null };
    if (i % 3 === 0)
      await storage.store.library.change(org.id, row, { approved_by: 'bench', approved_at: by.updated_at, ...by }, { action: 'approved', ...event });
    else if (i % 7 === 0)
      await storage.store.library.change(org.id, row, { status: 'retired', retired_reason: 'bench', ...by }, { action: 'retired', ...event });
  }
  return { orgId: org.id, offeringId: offering.id };
}

async function measure(name: string, fn: (i: number) => Promise<unknown>): Promise<{ name: string; samples: number[] }> {
  await fn(0); // warm the statements and caches once
  const samples: number[] = [];
  for (let i = 0; i < REPS; i++) {
    const t0 = performance.now();
    await fn(i);
    samples.push(performance.now() - t0);
  }
  return { name, samples };
}

async function runOne(storage: Storage, entries: number, log: (line: string) => void, analyze?: () => Promise<void>): Promise<LibraryBenchRow[]> {
  const { orgId, offeringId } = await build(storage, entries, log);
  await analyze?.();
  const kb = new KnowledgeBase(storage.knowledgeIndex!, { library: storage.store.library });
  const deps: LibraryDeps = { store: storage.store, knowledge: kb as unknown as Knowledge };
  const page = { limit: 50, offset: 0 };
  const lastPage = { limit: 50, offset: Math.max(0, entries - 500) };
  const searches = Array.from(
    { length: REPS + 1 },
    (_, i) => `${VERBS[i % VERBS.length]} ${OBJECTS[(i * 7) % OBJECTS.length]} ${QUALIFIERS[i % QUALIFIERS.length]}`,
  );
  // The cursor a client following `next` would hold at the deep page.
  const deepCursor = (await browse(deps, orgId, {}, { limit: 50, offset: lastPage.offset - 50 })).next ?? undefined;
  // The cursor a client following `next` through one offering's conflicts would hold halfway.
  const offeringGroups = (await conflictsForOffering(deps, orgId, offeringId, { limit: 1, offset: 0 })).count;
  const midCursor =
    (await conflictsForOffering(deps, orgId, offeringId, { limit: 20, offset: Math.max(0, Math.floor(offeringGroups / 2) - 20) })).next ?? undefined;
  log(`${storage.store.backend}: ${offeringGroups} conflict groups for one offering`);
  const runs = [
    await measure('list, first page (50)', () => browse(deps, orgId, {}, page)),
    await measure('list, a deep page by number', () => browse(deps, orgId, {}, lastPage)),
    await measure('list, a deep page by its cursor (next link)', () => browse(deps, orgId, {}, { ...lastPage, cursor: deepCursor })),
    await measure('filter unapproved', () => browse(deps, orgId, { filter: 'unapproved' }, page)),
    await measure('filter review due', () => browse(deps, orgId, { filter: 'review_due' }, page)),
    await measure('filter conflicts', () => browse(deps, orgId, { filter: 'conflicts' }, page)),
    await measure('conflict groups, first page', () => conflicts(deps, orgId, { limit: 20, offset: 0 })),
    await measure('conflict groups of one offering, first page', () => conflictsForOffering(deps, orgId, offeringId, { limit: 20, offset: 0 })),
    await measure('conflict groups of one offering, a page by its cursor', () =>
      conflictsForOffering(deps, orgId, offeringId, { limit: 20, offset: 0, cursor: midCursor }),
    ),
    await measure('search (q=…), first page', (i) => browse(deps, orgId, { q: searches[i]! }, page)),
  ];
  return runs.map((r) => {
    const s = latencyStats(r.samples);
    return { backend: storage.store.backend, entries, measure: r.name, ...s, within: s.p95_ms !== null && s.p95_ms < BUDGET_MS ? 'yes' : 'no' };
  });
}

async function postgresUrl(): Promise<{ url: string; drop(): Promise<void> } | null> {
  const server = process.env.QFILL_BENCH_DATABASE_URL ?? process.env.QFILL_TEST_DATABASE_URL;
  if (!server) return null;
  const name = `qfill_bench_library_${process.pid}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: server });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

export async function runLibraryBench(entries = 50_000, log: (line: string) => void = () => undefined): Promise<LibraryBenchRow[]> {
  const rows: LibraryBenchRow[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'qfill-bench-library-'));
  try {
    const sqlite = await openStorage({ dataDir: dir });
    try {
      rows.push(...(await runOne(sqlite, entries, log)));
    } finally {
      await sqlite.store.close();
    }
    const database = await postgresUrl();
    if (database) {
      try {
        const postgres = await openStorage({ dataDir: dir, databaseUrl: database.url, poolSize: 2 });
        try {
          // Statistics and the visibility map, as autovacuum makes them within a minute of the writes (it
          // vacuums inserted tables too, since PostgreSQL 13): the planner's estimates for freshly written
          // tables are guesses, and index-only scans of pages never vacuumed visit every row's heap page.
          const analyze = async () => {
            const client = new pg.Client({ connectionString: database.url });
            await client.connect();
            try {
              await client.query('VACUUM ANALYZE');
            } finally {
              await client.end();
            }
          };
          rows.push(...(await runOne(postgres, entries, log, analyze)));
        } finally {
          await postgres.store.close();
        }
      } finally {
        await database.drop();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

if (process.argv[1]?.endsWith('library.ts')) {
  const n = Number(process.argv[2] ?? 50_000);
  runLibraryBench(n, (line) => console.error(line))
    .then((rows) => console.log(markdownTable(rows, LIBRARY_COLUMNS as [string, string][])))
    .catch((e: unknown) => {
      console.error(e);
      process.exitCode = 1;
    });
}
