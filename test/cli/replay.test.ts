/**
 * `qfill replay` through bin/qfill.js, as a user runs it, against the real local service on loopback: two
 * past questionnaires in the library, each filled from the other; the table, the question answered
 * otherwise with both answers, the gaps; --json; a kept run read with a member's key; clear errors.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReplayRun } from '../../src/api/replay';
import { USAGE } from '../../src/cli/main';
import { createKey } from '../../src/service/admin';
import { type LocalService, addToLibrary, startLocalService } from '../xlsx/service-helpers';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let service: LocalService;

async function workbook(rows: [string, string, string][]): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Questions');
  ws.addRow(['Question ID', 'Question', 'Answer', 'Comments']);
  for (const row of rows) ws.addRow([...row, '']);
  return new Uint8Array(await wb.xlsx.writeBuffer());
}

beforeAll(async () => {
  service = await startLocalService();
  await addToLibrary(service, [
    {
      name: 'alpha.xlsx',
      data: await workbook([
        ['PT-01', 'Do you perform annual penetration tests of the platform?', 'No'],
        ['EN-01', 'Do you encrypt customer data at rest with AES-256?', 'Yes'],
      ]),
    },
  ]);
  await addToLibrary(service, [
    {
      name: 'beta.xlsx',
      data: await workbook([
        ['PT-01', 'Do you perform annual penetration tests of the platform?', 'Yes'],
        ['EN-01', 'Do you encrypt customer data at rest with AES-256?', 'Yes'],
      ]),
    },
  ]);
}, 120_000);

afterAll(async () => {
  await service?.close();
});

/** Runs bin/qfill.js without blocking this process, which serves the requests. */
function qfill(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('QFILL_')));
    const child = spawn(process.execPath, ['bin/qfill.js', 'replay', ...args], { cwd: ROOT, env: { ...clean, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

describe('qfill replay', () => {
  it('starts a run, waits and prints agreement and coverage per questionnaire and overall, what it answered otherwise, the gaps', async () => {
    const r = await qfill(['--base', service.base, '--key', service.key]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/Replaying the answer library on .* \(run \d+\)/);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^Replay run \d+: done, started by analyst at /);
    expect(lines.find((l) => l.startsWith('alpha.xlsx'))).toMatch(/^alpha\.xlsx\s+2\s+2\s+50\.0% \(1\/2\)\s+100\.0%\s+0$/);
    expect(lines.find((l) => l.startsWith('Overall'))).toMatch(/^Overall\s+4\s+4\s+50\.0% \(2\/4\)\s+100\.0%\s+0$/);
    expect(r.stdout).toContain('Answered otherwise: 2');
    expect(r.stdout).toMatch(/alpha\.xlsx PT-01: Do you perform annual penetration tests of the platform\?\n {4}questionnaire: No\n {4}library: {7}Yes/);
    expect(r.stdout).toContain('Gaps: 0 questions of recent questionnaires nothing in the library answers');
  }, 120_000);

  it('--json prints the run as the service gives it; --limit shows the first N; a member reads a kept run with --run', async () => {
    const json = await qfill(['--json', '--max', '1'], { QFILL_BASE_URL: service.base, QFILL_API_KEY: service.key });
    expect(json.code, json.stderr).toBe(0);
    const run = ReplayRun.parse(JSON.parse(json.stdout));
    expect(run.questionnaires.map((q) => q.file_name)).toEqual(['beta.xlsx']);
    expect(run.wrong).toEqual([expect.objectContaining({ original_id: 'PT-01', expected: 'Yes', got: 'No' })]);

    const member = await createKey(service.dataDir, { org: 'acme', user: 'mo', role: 'member' });
    const kept = await qfill(['--base', service.base, '--key', member, '--run', String(run.id), '--limit', '1']);
    expect(kept.code, kept.stderr).toBe(0);
    expect(kept.stdout).toContain(`Replay run ${run.id}: done`);
    expect(kept.stdout).toContain('Answered otherwise: 1');
  }, 120_000);

  it('says what is wrong and exits non-zero: a member starting a run, an unknown run, no service, a bad option', async () => {
    const member = await createKey(service.dataDir, { org: 'acme', user: 'mia', role: 'member' });
    const forbidden = await qfill(['--base', service.base, '--key', member]);
    expect(forbidden.code).toBe(1);
    expect(forbidden.stderr).toMatch(
      /^qfill replay: Only an admin or repository manager can start a replay of the answer library\. \(403, POST \/answers\/library\/replay\/\)/,
    );

    const unknown = await qfill(['--base', service.base, '--key', service.key, '--run', '999999']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Replay run 999999 not found. (404');

    const none = await qfill([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('No service to ask: pass --base URL or set QFILL_BASE_URL');

    const bad = await qfill(['--base', service.base, '--key', service.key, '--max', '0']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--max must be a whole number of at least 1');

    const help = await qfill(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: qfill replay');
    expect(USAGE).toMatch(/^ {2}replay \[--base URL\] \[--key KEY\]/m);
  }, 120_000);
});
