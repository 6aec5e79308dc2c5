/**
 * `qfill fill` reads only a regular questionnaire within the size limit (a FIFO, /dev/zero or a folder
 * end at once with exit 2 and one line), and never writes --report through a symbolic link or over a
 * file that is not an earlier report unless --force. All refused before anything is uploaded.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..');
let dir: string;

function fill(...args: string[]) {
  // No service: every case here must end before one would be needed.
  const r = spawnSync(process.execPath, ['bin/qfill.js', 'fill', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, QFILL_BASE_URL: 'http://127.0.0.1:9', QFILL_API_KEY: 'qf_x' },
  });
  return { code: r.status, stderr: r.stderr, lines: r.stderr.trim().split('\n') };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'qfill-fill-files-'));
  writeFileSync(join(dir, 'q.xlsx'), 'not a workbook');
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('qfill fill input', () => {
  it('a FIFO is refused at once, without waiting for a writer', () => {
    const fifo = join(dir, 'pipe.xlsx');
    const made = spawnSync('mkfifo', [fifo]);
    if (made.status !== 0) throw new Error(`mkfifo is needed for this test: ${made.stderr}`);
    const r = fill(fifo, '--out', join(dir, 'o.xlsx'));
    expect(r.code).toBe(2);
    expect(r.lines).toEqual([`qfill fill: ${fifo} is a named pipe (FIFO), not an .xlsx file.`]);
  });

  it('/dev/zero is refused without reading it', () => {
    const r = fill('/dev/zero', '--out', join(dir, 'o.xlsx'));
    expect(r.code).toBe(2);
    expect(r.lines).toEqual(['qfill fill: /dev/zero is a device, not an .xlsx file.']);
  });

  it('a folder is refused', () => {
    const r = fill(dir, '--out', join(dir, 'o.xlsx'));
    expect(r.code).toBe(2);
    expect(r.lines).toEqual([`qfill fill: ${dir} is a folder, not an .xlsx file.`]);
  });

  it('a file over the 50 MB limit is refused without being read', () => {
    const big = join(dir, 'big.xlsx');
    writeFileSync(big, '');
    truncateSync(big, 50 * 1024 * 1024 + 1); // sparse: no 50 MB written
    const r = fill(big, '--out', join(dir, 'o.xlsx'));
    expect(r.code).toBe(2);
    expect(r.lines).toEqual([`qfill fill: ${big} is larger than the 50 MB limit for a questionnaire.`]);
  });
});

describe('qfill fill --report', () => {
  const input = () => join(dir, 'q.xlsx');

  it('never writes through a symbolic link, even with --force', () => {
    const target = join(dir, 'precious.txt');
    writeFileSync(target, 'keep me');
    const link = join(dir, 'report-link.json');
    symlinkSync(target, link);
    for (const extra of [[], ['--force']]) {
      const r = fill(input(), '--out', join(dir, 'o.xlsx'), '--report', link, ...extra);
      expect(r.code).toBe(2);
      expect(r.lines).toEqual([`qfill fill: --report ${link} is a symbolic link; the report is never written through a link. Name another file.`]);
    }
    expect(readFileSync(target, 'utf8')).toBe('keep me');
  });

  it('an existing file that is not a report needs --force', () => {
    const other = join(dir, 'notes.json');
    writeFileSync(other, '{"mine": true}');
    const r = fill(input(), '--out', join(dir, 'o.xlsx'), '--report', other);
    expect(r.code).toBe(2);
    expect(r.lines).toEqual([`qfill fill: --report ${other} already exists and is not a qfill report; pass --force to replace it.`]);
    // With --force the report check passes and the fill goes on to the next check (the workbook itself).
    const forced = fill(input(), '--out', join(dir, 'o.xlsx'), '--report', other, '--force');
    expect(forced.code).toBe(2);
    expect(forced.stderr).not.toContain('--report');
    expect(readFileSync(other, 'utf8')).toBe('{"mine": true}');
    expect(existsSync(join(dir, 'o.xlsx'))).toBe(false);
  });

  it('an earlier report may be replaced without --force', () => {
    const earlier = join(dir, 'report.json');
    writeFileSync(earlier, JSON.stringify({ input: 'a', output: 'b', service: 'c', questionnaire_id: 1, changed_parts: [] }));
    const r = fill(input(), '--out', join(dir, 'o.xlsx'), '--report', earlier);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain('--report');
  });
});
