/**
 * The PostgreSQL knowledge index's own representation (the shared contract is in ../knowledge-index.test.ts):
 * each row's term frequencies (`tf`) equal what a tsvector with positions of its text holds, while the
 * stored tsvector keeps only its lexemes; rows indexed before `tf` existed (their tsvector with positions)
 * are filled by the migration and rank as before, and a search is one statement; entries written before the
 * answer library kept question keys get them from the migration, with the keys in conflict.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IndexedFile, IndexQuery } from '../../../../src/service/storage/knowledge-index';
import { PostgresKnowledgeIndex } from '../../../../src/service/storage/postgres/knowledge';
import { tfFromTsv } from '../../../../src/service/storage/postgres/knowledge/schema';
import { indexTokens } from '../../../../src/service/storage/postgres/knowledge/tokens';
import { createTestDatabase, type TestDatabase } from '../../postgres';
import { passageOf, qaOf } from '../entries';
import { libraryQuestionKey } from '../../../../src/service/knowledge/question-identity';

const FILE: IndexedFile = { org_id: 1, file_id: 1, filename: 'policy.md', offering_ids: [], scope_includes_company: true, use_as_source: true };

const passage = (header: string, content: string) => passageOf(header, content);

/**
 * The tsvector literal with positions (heading or question weighted 'A') that rows were stored with
 * before `tf` existed; PostgreSQL itself caps it (256 positions a lexeme, none past 16,383).
 */
function positionalLiteral(head: string, body: string): string {
  const tokens = [...indexTokens(head).map((t) => [t, 'A'] as const), ...indexTokens(body).map((t) => [t, ''] as const)];
  return tokens.map(([t, w], i) => `'${t.replace(/'/g, "''")}':${Math.min(16383, i + 1)}${w}`).join(' ');
}
const qa = qaOf;

const PASSAGES = [
  passage('Encryption', 'Customer data is encrypted at rest with AES-256 and in transit with TLS 1.2. Encryption keys rotate yearly.'),
  passage('Access control', 'Access to production requires SSO with MFA; access reviews are quarterly. Encryption of backups is enforced.'),
  passage('Backups backups', 'Backups are taken daily, backups are encrypted, and restores are tested twice a year.'),
  // Longer than the tsvector's 16,383 positions: the last positions collapse into one, as PostgreSQL stores them.
  passage('Long appendix', `${'retention '.repeat(300)}${'filler words here '.repeat(5500)}retention retention audit audit audit`),
];
const QA = [
  qa('Is data encrypted at rest?', 'Yes, with AES-256; encryption keys are rotated.'),
  qa('Do you require MFA for access?', 'Yes. MFA is required for all access.'),
];

describe('PostgreSQL knowledge index: term frequencies and search statements', () => {
  let database: TestDatabase;
  let pool: pg.Pool;
  let index: PostgresKnowledgeIndex;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = new pg.Pool({ connectionString: database.url, max: 2 });
    index = new PostgresKnowledgeIndex(pool);
    await index.migrate();
    await index.replaceFile(FILE, PASSAGES, QA);
  });

  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });

  it('stores each row\'s term frequencies as a tsvector with positions would hold them, and only lexemes in its tsvector', async () => {
    const texts = { passages: PASSAGES.map((p) => [p.index_header, p.index_body]), qa: QA.map((q) => [q.index_question, q.index_answer]) };
    for (const [table, kind] of [['kb_passages', 'passages'], ['kb_qa', 'qa']] as const) {
      const { rows } = await pool.query<{ id: number; tf: Record<string, number>; lexemes: string[]; stripped: boolean }>(
        `SELECT t.id, t.tf, tsvector_to_array(t.tsv) AS lexemes, t.tsv = strip(t.tsv) AS stripped FROM ${table} t ORDER BY t.id`,
      );
      expect(rows.length).toBe(kind === 'passages' ? PASSAGES.length : QA.length);
      for (const [i, row] of rows.entries()) {
        const [head, body] = texts[kind][i]!;
        const positional = await pool.query<{ tf: Record<string, number> }>(`SELECT ${tfFromTsv(kind)} AS tf FROM (SELECT $1::tsvector AS tsv) t`, [positionalLiteral(head!, body!)]);
        expect(row.tf).toEqual(positional.rows[0]!.tf);
        expect(row.stripped).toBe(true);
        expect(row.lexemes.sort()).toEqual(Object.keys(row.tf).sort());
      }
    }
    const { rows } = await pool.query<{ tf: Record<string, number> }>('SELECT tf FROM kb_passages ORDER BY id');
    // "backup": twice in the heading (weight 0.5 each), twice in the body (1 each), in tenths.
    expect(rows[2]!.tf.backup).toBe(2 * 5 + 2 * 10);
    // Positions past 16,383 are one position: "audit" three times there counts once.
    expect(rows[3]!.tf.audit).toBe(10);
    const qaRows = await pool.query<{ tf: Record<string, number> }>('SELECT tf FROM kb_qa ORDER BY id');
    // In the library the question weighs 1 and the answer 0.3: "encrypt" once in each.
    expect(qaRows.rows[0]!.tf.encrypt).toBe(10 + 3);
  });

  it('fills the term frequencies of rows indexed before they existed, and ranks them as before', async () => {
    const queries: IndexQuery[] = [
      { kind: 'passages', scope: { org_id: 1 }, terms: ['encryption', 'backups', 'access', 'retention'], limit: 10, pool: 50 },
      { kind: 'qa', scope: { org_id: 1 }, terms: ['encrypted', 'MFA'], limit: 10, pool: 50 },
    ];
    const before = await Promise.all(queries.map((q) => index.search(q)));
    expect(before[0]!.hits.length).toBe(4);
    // As an earlier version stored them: a tsvector with positions, and no tf.
    for (const [table, texts] of [['kb_passages', PASSAGES.map((p) => [p.index_header, p.index_body])], ['kb_qa', QA.map((q) => [q.index_question, q.index_answer])]] as const) {
      const { rows } = await pool.query<{ id: number }>(`SELECT id FROM ${table} ORDER BY id`);
      for (const [i, row] of rows.entries()) await pool.query(`UPDATE ${table} SET tsv = $1::tsvector WHERE id = $2`, [positionalLiteral(texts[i]![0]!, texts[i]![1]!), row.id]);
    }
    await pool.query('ALTER TABLE kb_passages DROP COLUMN tf; ALTER TABLE kb_qa DROP COLUMN tf');
    await index.migrate();
    const after = await Promise.all(queries.map((q) => index.search(q)));
    expect(after).toEqual(before);
  });

  it('analyses a table that has grown and merges its GIN pending list, in the background of the write', async () => {
    const upkept = new PostgresKnowledgeIndex(pool, { firstAnalyzeRows: 3 });
    const analysed = async () => (await pool.query<{ n: number }>("SELECT (analyze_count + autoanalyze_count)::int AS n FROM pg_stat_user_tables WHERE relname = 'kb_passages'")).rows[0]!.n;
    const before = await analysed();
    await upkept.replaceFile({ ...FILE, file_id: 2 }, [passage('Upkeep', 'One row.'), passage('Upkeep', 'Two rows.')], []);
    expect(await upkept.upkeepSettled()).toBeNull();
    // Two rows are fewer than the three that call for it.
    await new Promise((r) => setTimeout(r, 700));
    expect(await analysed()).toBe(before);
    await upkept.replaceFile({ ...FILE, file_id: 3 }, [passage('Upkeep', 'Three rows.')], []);
    expect(await upkept.upkeepSettled()).toBeNull();
    // Statistics views are updated by the backend when its statement ends; poll briefly.
    for (let i = 0; i < 20 && (await analysed()) === before; i++) await new Promise((r) => setTimeout(r, 100));
    // ANALYZE and the pending list's merge both ran (a failure of either would be its lastError).
    expect(await analysed()).toBe(before + 1);
    await upkept.deleteFile(1, 2);
    await upkept.deleteFile(1, 3);
  });

  it('answers a search in one statement, statistics, ranking, filters and contents together', async () => {
    const statements: string[] = [];
    const counting = {
      connect: pool.connect.bind(pool),
      query: ((sql: string, args?: unknown[]) => {
        statements.push(sql);
        return pool.query(sql, args);
      }) as pg.Pool['query'],
    };
    const counted = new PostgresKnowledgeIndex(counting);
    for (const match of ['any', 'all'] as const) {
      statements.length = 0;
      const result = await counted.search({ kind: 'passages', scope: { org_id: 1, offering_ids: [7] }, terms: ['encryption', 'data'], match, limit: 5, pool: 20 });
      expect(result.hits.length).toBeGreaterThan(0);
      expect(statements.length).toBe(1);
    }
    // A scope that hides every pooled row still reports the pool, so the caller can widen it.
    await pool.query('UPDATE kb_files SET use_as_source = FALSE');
    statements.length = 0;
    const hidden = await counted.search({ kind: 'passages', scope: { org_id: 1 }, terms: ['encryption'], limit: 5, pool: 20 });
    expect(hidden).toEqual({ hits: [], pool_size: 3 });
    expect(statements.length).toBe(1);
    await pool.query('UPDATE kb_files SET use_as_source = TRUE');
  });

  it("gives entries written before version 1006 their question keys (the library's definition) and fills the keys in conflict", async () => {
    const file = (file_id: number, filename: string): IndexedFile => ({ ...FILE, org_id: 2, file_id, filename });
    await index.replaceFile(file(1, 'a.xlsx'), [], [qa('Do you  encrypt data\nat rest?', 'Yes'), qa('Is MFA enforced?', 'Yes')]);
    await index.replaceFile(file(2, 'b.xlsx'), [], [qa('do you encrypt data at rest?', 'No'), qa('Is MFA enforced?', 'Yes')]);
    const keys = async () => (await pool.query<{ qkey: string }>('SELECT qkey FROM kb_qa WHERE org_id = 2 ORDER BY id')).rows.map((r) => r.qkey);
    const conflicts = async () => (await pool.query<{ qkey: string }>('SELECT qkey FROM library_conflicts WHERE org_id = 2')).rows.map((r) => r.qkey);
    const written = await keys();
    expect(written).toEqual([libraryQuestionKey({ text: 'do you encrypt data at rest?' }), libraryQuestionKey({ text: 'Is MFA enforced?' }), written[0], written[1]]);
    expect(await conflicts()).toEqual([written[0]]);
    // As an earlier version left them: no key, no table of conflicts.
    await pool.query("UPDATE kb_qa SET qkey = ''; DROP TABLE library_conflicts");
    await index.migrate();
    expect(await keys()).toEqual(written);
    expect(await conflicts()).toEqual([written[0]]);
  });
});
