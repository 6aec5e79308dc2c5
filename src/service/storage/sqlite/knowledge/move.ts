/**
 * Data folders from before the knowledge index had a file of its own kept its tables in the store's
 * database. Opening such a folder copies them into the index's file once, then drops them from the store.
 */
import type { Database } from 'better-sqlite3';
import { underWriteLock } from '../database';
import { migrateKnowledgeIndex } from './schema';

/** The index's tables with their own columns, in the order they are copied. */
const TABLES = ['kb_files', 'kb_file_offerings', 'kb_passages', 'kb_qa', 'kb_counts', 'kb_org_names', 'kb_vector_lists'];
/** Full-text tables: their rows are copied through their columns (FTS5 builds its own structures). */
const FTS_TABLES: [string, string][] = [
  ['kb_passages_fts', 'rowid, org, file, header, body'],
  ['kb_qa_fts', 'rowid, org, file, question, answer'],
];
/** Views before the tables they read. */
const DROP_ORDER = ['kb_passages_vocab', 'kb_qa_vocab', 'kb_passages_fts', 'kb_qa_fts', ...TABLES, 'kb_schema_version'];

/**
 * Moves the index's tables from `store` (the database file at `storePath`) into `index`, whose tables
 * exist and are current. Nothing happens for a store without them. Safe to run again after a crash
 * anywhere in it: rows are copied only into an empty index, in one transaction, and dropped after.
 */
export function moveIndexOutOfStore(store: Database, storePath: string, index: Database): void {
  const hasIndex = () => store.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'kb_schema_version'").get() !== undefined;
  if (!hasIndex()) return;
  // The same columns on both sides: the store's tables are brought to the index's version first.
  underWriteLock(store, () => migrateKnowledgeIndex(store));
  index.prepare('ATTACH DATABASE ? AS store').run(storePath);
  try {
    index
      .transaction(() => {
        const holdsRows = TABLES.some((table) => index.prepare(`SELECT 1 FROM main.${table} LIMIT 1`).get() !== undefined);
        if (holdsRows) return;
        for (const table of TABLES) {
          const columns = (index.prepare(`PRAGMA main.table_info(${table})`).all() as { name: string }[]).map((c) => c.name).join(', ');
          index.exec(`INSERT INTO main.${table} (${columns}) SELECT ${columns} FROM store.${table}`);
        }
        for (const [table, columns] of FTS_TABLES) index.exec(`INSERT INTO main.${table} (${columns}) SELECT ${columns} FROM store.${table}`);
      })
      .immediate();
  } finally {
    index.exec('DETACH DATABASE store');
  }
  underWriteLock(store, () => {
    for (const name of DROP_ORDER) {
      const row = store.prepare('SELECT type FROM sqlite_master WHERE name = ?').get(name) as { type: string } | undefined;
      if (row) store.exec(`DROP ${row.type === 'view' ? 'VIEW' : 'TABLE'} ${name}`);
    }
  });
}
