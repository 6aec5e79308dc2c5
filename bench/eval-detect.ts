/**
 * Questionnaire detection against the hand-checked answer keys in test/data/detect-key/:
 * for each real workbook in ../shared/fixtures/questionnaires/, questions found at the right cell,
 * answer cells right, false questions, ids right, and per slot role the share of coordinates that are
 * right; then the first few misses of each kind. Also times it.
 *
 *   npx tsx bench/eval-detect.ts          (npm run eval:detect)
 *
 * Exits 1 when the fixtures or keys are missing, 2 when a fixture falls short of its target: the
 * key's `targets` shares when it has them, else every question found, no false one, every coordinate right.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compareWithKey, meetsTargets, type AnswerKey } from '../src/service/detect/answer-key';
import { detectQuestionnaire } from '../src/service/detect/index';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const fixturesDir = resolve(process.env.FIXTURES_DIR ?? join(root, '..', 'shared', 'fixtures'), 'questionnaires');
const keyDir = join(root, 'test', 'data', 'detect-key');

if (!existsSync(fixturesDir)) {
  console.error(`Fixtures not found at ${fixturesDir}. They live beside the project in ../shared/fixtures (set FIXTURES_DIR to override).`);
  process.exit(1);
}
const workbooks = readdirSync(fixturesDir)
  .filter((f) => /\.(xlsx|csv)$/i.test(f))
  .sort();
if (workbooks.length === 0) {
  console.error(`No workbooks in ${fixturesDir}.`);
  process.exit(1);
}

const pct = (a: number, b: number) => (b === 0 ? '-' : `${((100 * a) / b).toFixed(1)}%`);
const rows: string[][] = [];
const details: string[] = [];
let shortfall = false;
let missingKey = false;

for (const file of workbooks) {
  const keyPath = join(keyDir, file.replace(/\.[^.]+$/, '.json'));
  if (!existsSync(keyPath)) {
    console.error(`No answer key for ${file} (expected ${keyPath}).`);
    missingKey = true;
    continue;
  }
  const key = JSON.parse(readFileSync(keyPath, 'utf8')) as AnswerKey;
  const bytes = new Uint8Array(readFileSync(join(fixturesDir, file)));
  const started = performance.now();
  const heapBefore = process.memoryUsage().heapUsed;
  const detected = await detectQuestionnaire(bytes, file);
  const ms = performance.now() - started;
  const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;
  const c = compareWithKey(key, detected);
  const roleCells = Object.entries(c.roles)
    .map(([role, s]) => `${role} ${pct(s.right, s.total)}`)
    .join(', ');
  const detectedCount = detected.questions.length;
  rows.push([
    file.replace(/\.xlsx$/, ''),
    String(c.expected),
    `${c.questionCellsRight} (${pct(c.questionCellsRight, c.expected)})`,
    `${c.answerCellsRight} (${pct(c.answerCellsRight, c.expected)})`,
    `${c.falsePositives.length} (${pct(c.falsePositives.length, detectedCount)})`,
    String(c.missed.length),
    pct(c.idsRight, c.expected),
    pct(c.fullyRight, c.expected),
    String(c.extraSlots.length),
    roleCells,
    `${ms.toFixed(0)} ms`,
    `${(bytes.length / 1024 / 1024).toFixed(1)} MB`,
    `${heapMb.toFixed(0)} MB`,
  ]);
  if (!meetsTargets(key, c)) shortfall = true;
  const few = <T>(list: T[], show: (t: T) => string) => list.slice(0, 8).map(show).join(', ') + (list.length > 8 ? `, ... (${list.length})` : '');
  if (c.missed.length) details.push(`${file}: missed ${few(c.missed, (m) => `${m.tab}!${m.row}${m.id ? ` (${m.id})` : ''}`)}`);
  if (c.wrongQuestionCells.length) details.push(`${file}: wrong question cell ${few(c.wrongQuestionCells, (w) => w)}`);
  if (c.falsePositives.length) details.push(`${file}: false ${few(c.falsePositives, (f) => `${f.tab}!${f.row}`)}`);
  if (c.extraSlots.length) details.push(`${file}: extra slots ${few(c.extraSlots, (x) => x)}`);
  if (detected.warnings.length && key.targets) details.push(`${file}: warnings: ${detected.warnings.join(' | ')}`);
  for (const [role, s] of Object.entries(c.roles)) if (s.wrong.length) details.push(`${file}: ${role} ${s.wrong.join('; ')}`);
}

const header = [
  'workbook',
  'expected',
  'found at the right cell',
  'answer cells right',
  'false',
  'missed',
  'ids right',
  'all slots right',
  'extra slots',
  'slot coordinates right (per role)',
  'time',
  'size',
  'heap',
];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join(' | ');
console.log(line(header));
console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
for (const r of rows) console.log(line(r));
if (details.length) console.log(`\n${details.join('\n')}`);
// A synthetic workbook of about 5 MB (random text resists compression): time and memory at upload size.
{
  const ExcelJS = (await import('exceljs')).default;
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Questions');
  ws.addRow(['ID', 'Question', 'Answer', 'Comments']);
  const words = () => Array.from({ length: 12 }, () => Math.random().toString(36).slice(2, 8)).join(' ');
  for (let i = 1; i <= 24000; i++) ws.addRow([`Q-${i}`, `Do you ${words()}?`, i % 3 ? 'Yes' : null, words() + words()]);
  const bytes = new Uint8Array(await wb.xlsx.writeBuffer());
  const heapBefore = process.memoryUsage().heapUsed;
  const started = performance.now();
  const d = await detectQuestionnaire(bytes, 'synthetic.xlsx');
  const ms = performance.now() - started;
  const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;
  console.log(
    `\nsynthetic ${(bytes.length / 1024 / 1024).toFixed(1)} MB workbook: ${d.questions.length} questions in ${ms.toFixed(0)} ms, ` +
      `heap +${heapMb.toFixed(0)} MB, rss ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MB`,
  );
}

if (missingKey) process.exit(1);
if (shortfall) process.exit(2);
