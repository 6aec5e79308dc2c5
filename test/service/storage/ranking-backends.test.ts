/**
 * The same corpus and questions give the same evidence, in the same order, on SQLite (FTS5) and on
 * PostgreSQL (postings): a corpus past the row budget where searches plan which terms to keep, so the
 * planning and the scoring are both compared, not only the formula on a handful of rows.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retrieve } from '../../../src/service/knowledge/retrieval';
import type { KnowledgeIndex, PassageEntry, QaEntry } from '../../../src/service/storage/knowledge-index';
import { PostgresKnowledgeIndex } from '../../../src/service/storage/postgres/knowledge';
import { SqliteKnowledgeIndex } from '../../../src/service/storage/sqlite/knowledge';
import { createTestDatabase, type TestDatabase } from '../postgres';
import { passageOf, qaOf } from './entries';

const VOCABULARY = (
  'data access security policy control review annual encryption key management incident response backup restore ' +
  'vendor risk assessment audit logging monitoring network firewall password authentication multifactor identity ' +
  'privileged account training awareness employee contractor physical facility badge visitor retention deletion ' +
  'customer privacy consent breach notification regulator continuity disaster recovery objective testing exercise ' +
  'change approval deployment pipeline code repository secret rotation certificate transport storage cloud tenant ' +
  'isolation segregation vulnerability scanning patch endpoint malware antivirus laptop mobile device inventory asset ' +
  'classification label confidential public internal subprocessor contract clause insurance governance board committee'
).split(' ');

/** A deterministic generator (a linear congruential one): the corpus is the same on every run and backend. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** Words drawn with a Zipf-like skew: a few words in most rows, most words in few. */
function words(next: () => number, count: number): string {
  return Array.from({ length: count }, () => VOCABULARY[Math.floor(VOCABULARY.length * next() ** 2.5)]!).join(' ');
}

const FILES = 4;
const PASSAGES_PER_FILE = 700;
const QA_PER_FILE = 100;

function corpus(file: number): { passages: PassageEntry[]; qa: QaEntry[] } {
  const next = random(file * 7919);
  const passages = Array.from({ length: PASSAGES_PER_FILE }, () => passageOf(words(next, 3), `${words(next, 30)}.`));
  const qa = Array.from({ length: QA_PER_FILE }, () => qaOf(`${words(next, 8)}?`, `Yes, ${words(next, 12)}.`));
  return { passages, qa };
}

const QUESTIONS = [
  'Do you review access and security policy annually?',
  'Is customer data encrypted in transport and storage?',
  'Describe your incident response and breach notification to the regulator.',
  'How are privileged account passwords rotated and monitored?',
  'Do you test disaster recovery objectives with an exercise?',
  'Are subprocessor contracts reviewed by the governance committee?',
  'Is vulnerability scanning and patch management in place for every endpoint?',
  'Do employees and contractors complete security awareness training?',
  'How is confidential data classified, labelled and deleted at the end of retention?',
  'Is the data access control policy reviewed?',
];

async function build(index: KnowledgeIndex): Promise<void> {
  for (let file = 1; file <= FILES; file++) {
    const { passages, qa } = corpus(file);
    await index.replaceFile(
      { org_id: 1, file_id: file, filename: `f${file}.md`, offering_ids: [], scope_includes_company: true, use_as_source: true },
      passages,
      qa,
    );
  }
}

/** What an answer is built from, per question: each piece of evidence's file, text and relevance, in order. */
async function evidence(index: KnowledgeIndex): Promise<string[][]> {
  const out: string[][] = [];
  for (const question of QUESTIONS) {
    for (const weighByRarity of [false, true]) {
      const found = await retrieve(index, 1, question, {}, { limit: 8, weighByRarity });
      out.push(
        found.map(
          (c) => `${c.evidence.type} ${c.evidence.filename} ${c.evidence.relevance_score.toFixed(4)} ${c.evidence.question_text ?? c.evidence.content}`,
        ),
      );
    }
  }
  return out;
}

describe('ranking on SQLite and on PostgreSQL', () => {
  let dir: string;
  let sqlite: Database.Database;
  let database: TestDatabase;
  let pool: pg.Pool;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'qfill-ranking-'));
    sqlite = new Database(join(dir, 'kb.sqlite'));
    database = await createTestDatabase();
    pool = new pg.Pool({ connectionString: database.url, max: 2 });
  }, 60_000);

  afterAll(async () => {
    sqlite?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    await pool?.end();
    await database?.drop();
  });

  it('gives the same evidence in the same order for the same corpus and questions', async () => {
    const lite = new SqliteKnowledgeIndex(sqlite);
    const postgres = new PostgresKnowledgeIndex(pool);
    await postgres.migrate();
    await build(lite);
    await build(postgres);
    expect(await lite.orgRows('passages', 1)).toBe(FILES * PASSAGES_PER_FILE);
    const expected = await evidence(lite);
    // Something to compare: every question finds evidence.
    expect(expected.every((list) => list.length > 0)).toBe(true);
    expect(await evidence(postgres)).toEqual(expected);
  }, 120_000);
});
