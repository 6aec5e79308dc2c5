/**
 * Copies a data folder's knowledge index (the `kb_` tables, full-text tables included) into another
 * SQLite index file: what `qfill migrate` does for the index while PostgreSQL deployments keep it in the
 * shared folder's `knowledge.sqlite`. A table is copied when the target's is empty, so running it again
 * copies nothing twice; a target table already holding other rows is reported, not mixed.
 */
import type { Db } from './database';

export interface IndexTableCount {
  table: string;
  source: number;
  copied: number;
}

const SHADOW = /_(data|idx|content|docsize|config)$/;

export function copyKnowledgeIndex(source: string, target: Db): IndexTableCount[] {
  target.prepare('ATTACH DATABASE ? AS src').run(source);
  try {
    const tables = target
      .prepare(
        `SELECT name, sql FROM src.sqlite_master WHERE type = 'table' AND name LIKE 'kb\\_%' ESCAPE '\\'
         AND name <> 'kb_schema_version' ORDER BY name`,
      )
      .all() as { name: string; sql: string }[];
    const counts: IndexTableCount[] = [];
    target.transaction(() => {
      for (const { name, sql } of tables) {
        if (SHADOW.test(name) || /fts5vocab/i.test(sql)) continue;
        const exists = target.prepare("SELECT 1 FROM main.sqlite_master WHERE type = 'table' AND name = ?").get(name);
        if (!exists) continue;
        const n = (target.prepare(`SELECT COUNT(*) AS n FROM src."${name}"`).get() as { n: number }).n;
        const there = (target.prepare(`SELECT COUNT(*) AS n FROM main."${name}"`).get() as { n: number }).n;
        let copied = 0;
        if (there === 0 && n > 0) {
          const targetColumns = new Set((target.prepare(`SELECT name FROM pragma_table_info(?, 'main')`).all(name) as { name: string }[]).map((c) => c.name));
          const columns = (target.prepare(`SELECT name FROM pragma_table_info(?, 'src')`).all(name) as { name: string }[])
            .map((c) => c.name)
            .filter((c) => targetColumns.has(c));
          const list = columns.map((c) => `"${c}"`).join(', ');
          // Full-text tables keep their rowids (the passages' ids); ordinary tables carry theirs as columns.
          const virtual = /^CREATE VIRTUAL TABLE/i.test(sql);
          const cols = virtual ? `rowid, ${list}` : list;
          copied = target.prepare(`INSERT INTO main."${name}" (${cols}) SELECT ${cols} FROM src."${name}"`).run().changes;
        }
        counts.push({ table: name, source: n, copied });
      }
    })();
    return counts;
  } finally {
    target.prepare('DETACH DATABASE src').run();
  }
}
