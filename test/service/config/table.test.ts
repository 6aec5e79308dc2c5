/** docs/operations.md's configuration table is the one the declaration generates. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SETTING_NAMES } from '../../../src/service/config/settings';
import { configTable, withConfigTable } from '../../../src/service/config/table';

const DOC = join(import.meta.dirname, '..', '..', '..', 'docs', 'operations.md');

describe('the configuration table', () => {
  it('in docs/operations.md is what the declaration generates (npx tsx scripts/config-table.ts rewrites it)', () => {
    const doc = readFileSync(DOC, 'utf8');
    expect(withConfigTable(doc)).toBe(doc);
  });

  it('has one row per setting, and a hand edit between the markers is caught', () => {
    const table = configTable();
    for (const name of SETTING_NAMES) expect(table).toContain(`| \`${name}\` |`);
    const doc = readFileSync(DOC, 'utf8');
    const edited = doc.replace('| `QFILL_LLM_CONCURRENCY` | `4` |', '| `QFILL_LLM_CONCURRENCY` | `5` |');
    expect(edited).not.toBe(doc);
    expect(withConfigTable(edited)).not.toBe(edited);
  });
});
