// Writes docs/operations.md's configuration table from the declaration of the settings
// (src/service/config/settings.ts); `--check` only says whether it is up to date (exit code 1 when not).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { withConfigTable } from '../src/service/config/table';

const doc = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'operations.md');
const current = readFileSync(doc, 'utf8');
const generated = withConfigTable(current);
if (process.argv.includes('--check')) {
  if (generated !== current) {
    console.error('docs/operations.md: the configuration table differs from the declaration; run npx tsx scripts/config-table.ts');
    process.exit(1);
  }
  console.log('docs/operations.md: the configuration table is up to date');
} else if (generated !== current) {
  writeFileSync(doc, generated);
  console.log('docs/operations.md: configuration table written');
} else {
  console.log('docs/operations.md: the configuration table is up to date');
}
