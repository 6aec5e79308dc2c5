/**
 * The PostgreSQL knowledge index's own representation (the shared contract is in ../knowledge-index.test.ts):
 * each row's term frequencies, in its lexemes' postings, equal what a tsvector with positions of its text
 * holds, and rows keep no tsvector; rows indexed when each kept its frequencies as a `tf` object get
 * postings from the migration and rank as before, and a search is two statements at most, ranked or not;
 * a database of the schema before 1010 loses its tsvector and GIN index and answers alike; entries written before the answer library kept question keys get them from the migration, with
 * the keys in conflict.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IndexedFile, IndexQuery } from '../../../../src/service/storage/knowledge-index';
import { PostgresKnowledgeIndex } from '../../../../src/service/storage/postgres/knowledge';
import { KNOWLEDGE_INDEX_MIGRATIONS, tfFromTsv } from '../../../../src/service/storage/postgres/knowledge/schema';
import { decodePostings } from '../../../../src/service/storage/postgres/knowledge/postings';
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

/** Each row's term frequencies, gathered from its lexemes' postings, as the `tf` object rows once kept. */
async function tfOfRows(pool: pg.Pool, kind: 'passages' | 'qa'): Promise<Map<number, Record<string, number>>> {
  const { rows } = await pool.query<{ term: string; first_id: string; postings: Buffer }>('SELECT term, first_id, postings FROM kb_postings WHERE kind = $1', [
    kind,
  ]);
  const tf = new Map<number, Record<string, number>>();
  for (const row of rows) {
    for (const p of decodePostings(Number(row.first_id), row.postings)) {
      const of = tf.get(p.id) ?? {};
      of[row.term] = p.tf;
      tf.set(p.id, of);
    }
  }
  return tf;
}

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

  it("stores each row's term frequencies as a tsvector with positions would hold them, and no tsvector", async () => {
    const texts = { passages: PASSAGES.map((p) => [p.index_header, p.index_body]), qa: QA.map((q) => [q.index_question, q.index_answer]) };
    for (const [table, kind] of [
      ['kb_passages', 'passages'],
      ['kb_qa', 'qa'],
    ] as const) {
      const tfs = await tfOfRows(pool, kind);
      const { rows } = await pool.query<{ id: string }>(`SELECT t.id FROM ${table} t ORDER BY t.id`);
      expect(rows.length).toBe(kind === 'passages' ? PASSAGES.length : QA.length);
      for (const [i, row] of rows.entries()) {
        const [head, body] = texts[kind][i]!;
        const positional = await pool.query<{ tf: Record<string, number> }>(`SELECT ${tfFromTsv(kind)} AS tf FROM (SELECT $1::tsvector AS tsv) t`, [
          positionalLiteral(head!, body!),
        ]);
        const tf = tfs.get(Number(row.id))!;
        expect(tf).toEqual(positional.rows[0]!.tf);
      }
    }
    const tsv = await pool.query("SELECT 1 FROM information_schema.columns WHERE table_name IN ('kb_passages', 'kb_qa') AND column_name = 'tsv'");
    expect(tsv.rows).toEqual([]);
    const rows = [...(await tfOfRows(pool, 'passages')).entries()].sort(([a], [b]) => a - b).map(([, tf]) => ({ tf }));
    // "backup": twice in the heading (weight 0.5 each), twice in the body (1 each), in tenths.
    expect(rows[2]!.tf.backup).toBe(2 * 5 + 2 * 10);
    // Positions past 16,383 are one position: "audit" three times there counts once.
    expect(rows[3]!.tf.audit).toBe(10);
    const qaRows = { rows: [...(await tfOfRows(pool, 'qa')).entries()].sort(([a], [b]) => a - b).map(([, tf]) => ({ tf })) };
    // In the library the question weighs 1 and the answer 0.3: "encrypt" once in each.
    expect(qaRows.rows[0]!.tf.encrypt).toBe(10 + 3);
  });

  it('upgrades rows that kept their term frequencies as a tf object to postings, and ranks them as before', async () => {
    const queries: IndexQuery[] = [
      { kind: 'passages', scope: { org_id: 1 }, terms: ['encryption', 'backups', 'access', 'retention'], limit: 10, pool: 50 },
      { kind: 'passages', scope: { org_id: 1, file_id: 1 }, terms: ['encryption', 'audit'], limit: 10, pool: 50 },
      { kind: 'qa', scope: { org_id: 1 }, terms: ['encrypted', 'MFA'], limit: 10, pool: 50 },
    ];
    const before = await Promise.all(queries.map((q) => index.search(q)));
    expect(before[0]!.hits.length).toBe(4);
    const terms = (await pool.query('SELECT kind, term, docs FROM kb_terms ORDER BY kind, term')).rows;
    // As the previous version stored them: a `tf` object in each row, no postings.
    for (const [table, kind] of [
      ['kb_passages', 'passages'],
      ['kb_qa', 'qa'],
    ] as const) {
      await pool.query(`ALTER TABLE ${table} ADD COLUMN tf JSONB`);
      for (const [id, tf] of await tfOfRows(pool, kind)) await pool.query(`UPDATE ${table} SET tf = $1 WHERE id = $2`, [JSON.stringify(tf), id]);
      await pool.query(`ALTER TABLE ${table} ALTER COLUMN tf SET NOT NULL`);
    }
    await pool.query('DELETE FROM kb_postings');
    await pool.query('DELETE FROM kb_schema_versions WHERE version >= 1006');
    expect(await index.search(queries[0]!)).toEqual({ hits: [], pool_size: 0 });
    await index.migrate();
    expect(await Promise.all(queries.map((q) => index.search(q)))).toEqual(before);
    const columns = await pool.query("SELECT 1 FROM information_schema.columns WHERE table_name IN ('kb_passages', 'kb_qa') AND column_name = 'tf'");
    expect(columns.rows).toEqual([]);
    // Deleting an upgraded file takes its rows out of the statistics as for a file written since.
    expect((await pool.query('SELECT kind, term, docs FROM kb_terms ORDER BY kind, term')).rows).toEqual(terms);
    await index.replaceFile({ ...FILE, file_id: 9 }, PASSAGES, QA);
    await index.deleteFile(1, 9);
    expect((await pool.query('SELECT kind, term, docs FROM kb_terms ORDER BY kind, term')).rows).toEqual(terms);
  });

  it('runs every migration of the index on a database of the schema before postings', async () => {
    const old = await createTestDatabase();
    const oldPool = new pg.Pool({ connectionString: old.url, max: 2 });
    try {
      for (const m of KNOWLEDGE_INDEX_MIGRATIONS.filter((m) => m.version < 1006)) await oldPool.query(m.sql);
      await oldPool.query('CREATE TABLE kb_schema_versions (version INTEGER PRIMARY KEY)');
      await oldPool.query('INSERT INTO kb_schema_versions SELECT unnest($1::int[])', [
        KNOWLEDGE_INDEX_MIGRATIONS.filter((m) => m.version < 1006).map((m) => m.version),
      ]);
      await oldPool.query(
        `INSERT INTO kb_files (org_id, file_id, filename) VALUES (1, 1, 'old.md');
         INSERT INTO kb_passages (org_id, file_id, page_number, section_path, context_header, content, stems, tsv, doclen, tf)
         VALUES (1, 1, 1, '[]', 'Old', 'Encryption at rest', '', 'encrypt rest'::tsvector, 5, '{"encrypt": 15, "rest": 10}');
         INSERT INTO kb_terms VALUES ('passages', 'encrypt', 1), ('passages', 'rest', 1);
         INSERT INTO kb_counts VALUES (1, 'passages', 1, 5);`,
      );
      const upgraded = new PostgresKnowledgeIndex(oldPool);
      await upgraded.migrate();
      const found = await upgraded.search({ kind: 'passages', scope: { org_id: 1 }, terms: ['encryption'], limit: 5, pool: 10 });
      expect(found.hits.map((h) => h.content)).toEqual(['Encryption at rest']);
      const postings = await oldPool.query<{ term: string; first_id: string; postings: Buffer }>(
        'SELECT term, first_id, postings FROM kb_postings ORDER BY term',
      );
      expect(postings.rows.map((r) => ({ term: r.term, postings: decodePostings(Number(r.first_id), r.postings) }))).toEqual([
        { term: 'encrypt', postings: [{ id: 1, tf: 15, len: 5 }] },
        { term: 'rest', postings: [{ id: 1, tf: 10, len: 5 }] },
      ]);
    } finally {
      await oldPool.end();
      await old.drop();
    }
  });

  it('drops the tsvector and its GIN index of a database at 1008, and finds what the GIN index found', async () => {
    const old = await createTestDatabase();
    const oldPool = new pg.Pool({ connectionString: old.url, max: 2 });
    try {
      const before1010 = KNOWLEDGE_INDEX_MIGRATIONS.filter((m) => m.version < 1010);
      for (const m of before1010) await oldPool.query(m.sql);
      await oldPool.query('CREATE TABLE kb_schema_versions (version INTEGER PRIMARY KEY)');
      await oldPool.query('INSERT INTO kb_schema_versions SELECT unnest($1::int[])', [before1010.map((m) => m.version)]);
      // Rows as version 1008 wrote them: each with a tsvector of its lexemes (its postings' terms).
      for (const table of ['kb_passages', 'kb_qa']) await oldPool.query(`ALTER TABLE ${table} ALTER COLUMN tsv SET DEFAULT ''`);
      const upgraded = new PostgresKnowledgeIndex(oldPool);
      const many = Array.from({ length: 300 }, (_, i) => passage(`Part ${i % 3}`, `Backups ${i % 2 ? 'encrypted' : 'kept'} daily, ${'audit '.repeat(i % 5)}`));
      await upgraded.replaceFile(FILE, [...PASSAGES, ...many], QA);
      await upgraded.replaceFile({ ...FILE, file_id: 2 }, many.slice(0, 100), []);
      for (const [table, kind] of [
        ['kb_passages', 'passages'],
        ['kb_qa', 'qa'],
      ] as const) {
        for (const [id, tf] of await tfOfRows(oldPool, kind)) {
          await oldPool.query(`UPDATE ${table} SET tsv = array_to_tsvector($1::text[]) WHERE id = $2`, [Object.keys(tf), id]);
        }
      }
      const queries: IndexQuery[] = [
        { kind: 'passages', scope: { org_id: 1 }, terms: ['encrypted', 'backups', 'audit'], match: 'all', limit: 30, pool: 40 },
        { kind: 'passages', scope: { org_id: 1, file_id: 2 }, terms: ['backups', 'kept'], match: 'all', limit: 10, pool: 40 },
        { kind: 'passages', scope: { org_id: 1 }, terms: ['encryption', 'keys'], match: 'all', limit: 10, pool: 40 },
        { kind: 'qa', scope: { org_id: 1 }, terms: ['MFA', 'access'], match: 'all', limit: 10, pool: 40 },
      ];
      // What the search found through the GIN index: the newest `pool` rows holding every lexeme, of
      // which (all unranked alike) the first `limit` by id.
      const ginFound = [];
      for (const q of queries) {
        const lexemes = [...new Set(q.terms.flatMap((t) => indexTokens(t)))];
        const table = q.kind === 'passages' ? 'kb_passages' : 'kb_qa';
        const { rows } = await oldPool.query<{ id: string }>(
          `SELECT id FROM (SELECT id FROM ${table} WHERE tsv @@ array_to_string($1::text[], ' & ')::tsquery AND org_id = 1
             AND ($2::bigint IS NULL OR file_id = $2) ORDER BY id DESC LIMIT $3) newest ORDER BY id LIMIT $4`,
          [lexemes, q.scope.file_id ?? null, q.pool, q.limit],
        );
        ginFound.push(rows.map((r) => Number(r.id)));
      }
      expect(ginFound.map((ids) => ids.length)).toEqual([30, 10, 1, 1]);
      const ranked = await upgraded.search({ kind: 'passages', scope: { org_id: 1 }, terms: ['encryption', 'audit'], limit: 10, pool: 50 });
      await upgraded.migrate();
      const left = await oldPool.query(
        "SELECT column_name AS name FROM information_schema.columns WHERE table_name IN ('kb_passages', 'kb_qa') AND column_name = 'tsv' UNION ALL SELECT indexname FROM pg_indexes WHERE indexname IN ('kb_passages_tsv', 'kb_qa_tsv')",
      );
      expect(left.rows).toEqual([]);
      for (const [i, q] of queries.entries()) expect((await upgraded.search(q)).hits.map((h) => h.id)).toEqual(ginFound[i]);
      expect(await upgraded.search({ kind: 'passages', scope: { org_id: 1 }, terms: ['encryption', 'audit'], limit: 10, pool: 50 })).toEqual(ranked);
      // Written after the upgrade, without a tsvector, and found alike.
      await upgraded.replaceFile({ ...FILE, file_id: 3 }, [passage('Later', 'Backups encrypted with audit trail.')], []);
      const newest = await upgraded.search({ ...queries[0]!, kind: 'passages', limit: 40 });
      expect(newest.hits.at(-1)!.content).toBe('Backups encrypted with audit trail.');
    } finally {
      await oldPool.end();
      await old.drop();
    }
  });

  it("splits a large file's postings into several rows per lexeme, and ranks as with one", async () => {
    const many = Array.from({ length: 2500 }, (_, i) => passage('Split', `Encryption backups number ${i} ${'audit '.repeat(i % 7)}`));
    const split = new PostgresKnowledgeIndex(pool, { postingsRows: 1000 });
    const query: IndexQuery = { kind: 'passages', scope: { org_id: 1, file_id: 5 }, terms: ['encryption', 'audit'], limit: 10, pool: 50 };
    await index.replaceFile({ ...FILE, file_id: 5 }, many, []);
    const whole = await index.search(query);
    await split.replaceFile({ ...FILE, file_id: 5 }, many, []);
    const { rows } = await pool.query("SELECT count(*)::int AS n FROM kb_postings WHERE file_id = 5 AND term = 'encrypt'");
    // Rows are written in batches of 1,000, the postings gathered once 1,000 rows or more wait: 3 rows.
    expect(rows[0].n).toBe(3);
    expect(await split.search(query)).toEqual({ ...whole, hits: whole.hits.map((h) => ({ ...h, id: expect.any(Number) })) });
    await index.deleteFile(1, 5);
  });

  it("finds the newest rows holding every term across many small files, each file's postings a chunk of its own", async () => {
    // 50 files of org 2, each holding both lexemes (so each file's batch is a chunk they share), but only
    // every third one in a single row: only those are found, the newest first.
    for (let i = 0; i < 50; i++) {
      const rows = i % 3 === 0 ? [passage('Both', 'Backups are encrypted.')] : [passage('One', 'Backups daily.'), passage('Other', 'Encrypted disks.')];
      await index.replaceFile({ ...FILE, org_id: 2, file_id: 100 + i, filename: `small-${i}.md` }, rows, []);
    }
    const tf = await tfOfRows(pool, 'passages');
    const { rows: org2 } = await pool.query<{ id: string }>('SELECT id FROM kb_passages WHERE org_id = 2');
    const holding = org2
      .map((r) => Number(r.id))
      .filter((id) => tf.get(id)?.backup !== undefined && tf.get(id)?.encrypt !== undefined)
      .sort((a, b) => b - a);
    expect(holding.length).toBe(17);
    for (const pooled of [10, 40]) {
      const found = await index.search({ kind: 'passages', scope: { org_id: 2 }, terms: ['backups', 'encrypted'], match: 'all', limit: 50, pool: pooled });
      expect(found.pool_size).toBe(Math.min(pooled, 17));
      expect(found.hits.map((h) => h.id).sort((a, b) => b - a)).toEqual(holding.slice(0, pooled));
    }
    for (let i = 0; i < 50; i++) await index.deleteFile(2, 100 + i);
  });

  it('analyses a table that has grown, in the background of the write', async () => {
    const upkept = new PostgresKnowledgeIndex(pool, { firstAnalyzeRows: 3 });
    const analysed = async () =>
      (await pool.query<{ n: number }>("SELECT (analyze_count + autoanalyze_count)::int AS n FROM pg_stat_user_tables WHERE relname = 'kb_passages'")).rows[0]!
        .n;
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
    // ANALYZE ran (a failure would be its lastError).
    expect(await analysed()).toBe(before + 1);
    await upkept.deleteFile(1, 2);
    await upkept.deleteFile(1, 3);
  });

  it('answers a search in two statements at most: statistics and postings, then filters and contents', async () => {
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
      const result = await counted.search({
        kind: 'passages',
        scope: { org_id: 1, offering_ids: [7] },
        terms: ['encryption', 'data'],
        match,
        limit: 5,
        pool: 20,
      });
      expect(result.hits.length).toBeGreaterThan(0);
      // The statistics and the postings, scored (or intersected, for 'all') in the process, then the
      // pool's filters and contents.
      expect(statements.length).toBe(2);
    }
    // A scope that hides every pooled row still reports the pool, so the caller can widen it.
    await pool.query('UPDATE kb_files SET use_as_source = FALSE');
    statements.length = 0;
    const hidden = await counted.search({ kind: 'passages', scope: { org_id: 1 }, terms: ['encryption'], limit: 5, pool: 20 });
    expect(hidden).toEqual({ hits: [], pool_size: 3 });
    expect(statements.length).toBe(2);
    await pool.query('UPDATE kb_files SET use_as_source = TRUE');
  });

  it("gives entries written before version 1007 their question keys (the library's definition) and fills the keys in conflict", async () => {
    const file = (file_id: number, filename: string): IndexedFile => ({ ...FILE, org_id: 2, file_id, filename });
    await index.replaceFile(file(1, 'a.xlsx'), [], [qa('Do you  encrypt data\nat rest?', 'Yes'), qa('Is MFA enforced?', 'Yes')]);
    await index.replaceFile(file(2, 'b.xlsx'), [], [qa('do you encrypt data at rest?', 'No'), qa('Is MFA enforced?', 'Yes')]);
    const keys = async () => (await pool.query<{ qkey: string }>('SELECT qkey FROM kb_qa WHERE org_id = 2 ORDER BY id')).rows.map((r) => r.qkey);
    const conflicts = async () => (await pool.query<{ qkey: string }>('SELECT qkey FROM library_conflicts WHERE org_id = 2')).rows.map((r) => r.qkey);
    const written = await keys();
    expect(written).toEqual([
      libraryQuestionKey({ text: 'do you encrypt data at rest?' }),
      libraryQuestionKey({ text: 'Is MFA enforced?' }),
      written[0],
      written[1],
    ]);
    expect(await conflicts()).toEqual([written[0]]);
    // As an earlier version left them: no key, no table of conflicts.
    await pool.query("UPDATE kb_qa SET qkey = ''; DROP TABLE library_conflicts; DELETE FROM kb_schema_versions WHERE version >= 1007");
    await index.migrate();
    expect(await keys()).toEqual(written);
    expect(await conflicts()).toEqual([written[0]]);
  });

  it("adds each entry's section (1009) to a database at 1008: entries written before keep NULL, new ones their section", async () => {
    await index.replaceFile({ ...FILE, org_id: 4, file_id: 1, filename: 'a.xlsx' }, [], [qa('Is MFA enforced?', 'Yes')]);
    await pool.query('ALTER TABLE kb_qa DROP COLUMN section; DELETE FROM kb_schema_versions WHERE version >= 1009');
    await index.migrate();
    expect((await pool.query('SELECT question, section FROM kb_qa WHERE org_id = 4')).rows).toEqual([{ question: 'Is MFA enforced?', section: null }]);
    await index.replaceFile({ ...FILE, org_id: 4, file_id: 2, filename: 'b.xlsx' }, [], [{ ...qa('Is SSO offered?', 'Yes'), section: 'Access > Identity' }]);
    expect((await pool.query('SELECT section FROM kb_qa WHERE org_id = 4 AND file_id = 2')).rows).toEqual([{ section: 'Access > Identity' }]);
    expect((await pool.query('SELECT version FROM kb_schema_versions WHERE version >= 1009 ORDER BY version')).rows).toEqual([
      { version: 1009 },
      { version: 1010 },
    ]);
  });

  it('adds owners, review intervals, settlements per offering and file dates (1008) beside the decisions of a database at 1007', async () => {
    await index.replaceFile({ ...FILE, org_id: 3, file_id: 1, filename: 'a.xlsx' }, [], [qa('Is MFA enforced?', 'Yes')]);
    // As version 1007 left it: none of 1008's columns or table, one decision kept.
    await pool.query(`ALTER TABLE library_state DROP COLUMN owner, DROP COLUMN review_months;
      ALTER TABLE kb_files DROP COLUMN as_of, DROP COLUMN valid_until, DROP COLUMN valid_said;
      DROP TABLE library_settlements; DELETE FROM kb_schema_versions WHERE version >= 1008`);
    await pool.query(
      "INSERT INTO library_state (org_id, file_id, location, question, qkey, status) VALUES (3, 1, 'A!B2', 'Is MFA enforced?', 'text:is mfa enforced?|', 'canonical')",
    );
    await index.migrate();
    const state = await pool.query('SELECT status, owner, review_months FROM library_state WHERE org_id = 3');
    expect(state.rows).toEqual([{ status: 'canonical', owner: null, review_months: null }]);
    const columns = await pool.query(
      "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'kb_files' AND column_name IN ('as_of', 'valid_until', 'valid_said') ORDER BY column_name",
    );
    expect(columns.rows.map((r) => r.column_name)).toEqual(['as_of', 'valid_said', 'valid_until']);
    expect((await pool.query("SELECT to_regclass('library_settlements') IS NOT NULL AS present")).rows).toEqual([{ present: true }]);
    expect((await pool.query('SELECT MAX(version) AS v FROM kb_schema_versions')).rows).toEqual([{ v: 1010 }]);
  });
});
