/**
 * The service under attack: a `qfill serve` process receives, one after another, the hostile
 * files that used to stall it, while a second client keeps asking `GET /api/v2/chat/sessions/`; then
 * 4 clients each upload 10 × 40 MB at once while the server's peak RSS is read from /proc (VmHWM).
 * The service runs in its own process, so the bench's own work never counts against it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { openAsBlob } from 'node:fs';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { strFromU8, strToU8, unzipSync, Zip, ZipDeflate, zipSync } from 'fflate';
import { createKey } from '../src/service/admin';
import ExcelJS from 'exceljs';
import { expandingDocx, largeCsvQuestionnaire, nestedGraphicsPdf, paddedPdf, repeatedPagePdf, spacedHeadingMarkdown } from '../test/service/hostile-inputs';
import { latencyStats } from './stats';

export interface AttackRow {
  measure: string;
  n: number | null;
  p50_ms: number | null;
  p95_ms: number | null;
  max_ms: number | null;
  outcome: string;
  budget: string;
  verdict: string;
}

export const ATTACK_COLUMNS: [keyof AttackRow, string][] = [
  ['measure', 'measure'],
  ['n', 'GETs'],
  ['p50_ms', 'p50 ms'],
  ['p95_ms', 'p95 ms'],
  ['max_ms', 'max ms'],
  ['outcome', 'what the attacker got'],
  ['budget', 'budget'],
  ['verdict', 'within budget'],
];

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MB = 1024 * 1024;
/** A shorter reading budget than the default 60 s keeps the bench short; the mechanism is the same. */
const READ_TIMEOUT_S = 15;

export interface Server {
  base: string;
  pid: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

export async function startServer(
  dataDir: string,
  extraArgs: string[] = [],
  env: Record<string, string> = { QFILL_READ_TIMEOUT_SECONDS: String(READ_TIMEOUT_S) },
): Promise<Server> {
  const child = spawn(process.execPath, ['bin/qfill.js', 'serve', '--http', '--port', '0', '--no-static', '--data', dataDir, ...extraArgs], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const base = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    child.stdout!.on('data', (d) => {
      stdout += d;
      const m = /Listening on (http:\/\/\S+)/.exec(stdout);
      if (m) resolve(m[1]!);
    });
    void exited.then(() => reject(new Error(`qfill serve exited: ${stderr}`)));
  });
  return {
    base,
    pid: child.pid!,
    child,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Peak and current resident memory of a process, from /proc (Linux). */
export function memoryOf(pid: number): { peakMb: number; rssMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
  return { peakMb: Math.round(kb('VmHWM') / 1024), rssMb: Math.round(kb('VmRSS') / 1024) };
}

/** A second client asking for its chat sessions back to back, recording each latency. */
function poller(base: string, key: string) {
  let latencies: number[] = [];
  let running = true;
  let inFlight: Promise<void> = Promise.resolve();
  const once = async () => {
    const t = performance.now();
    const res = await fetch(`${base}/api/v2/chat/sessions/`, { headers: { 'X-API-Key': key } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`GET /chat/sessions/ answered ${res.status}`);
    latencies.push(performance.now() - t);
  };
  const loop = (async () => {
    while (running) {
      inFlight = once();
      await inFlight;
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  return {
    /** The latencies since the last call, including the request under way (a stall counts where it happened). */
    async take(): Promise<number[]> {
      await inFlight;
      const out = latencies;
      latencies = [];
      return out;
    },
    async stop() {
      running = false;
      await loop;
    },
  };
}

/** A workbook with a hostile fragment spliced into one of its parts. */
async function splicedWorkbook(part: string, splice: (xml: string) => string): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Security');
  ws.addRow(['ID', 'Question', 'Answer']);
  ws.addRow(['SEC-1', 'Is customer data encrypted at rest?', '']);
  ws.addRow(['SEC-2', 'Do you enforce multi-factor authentication?', '']);
  const files = unzipSync(new Uint8Array((await wb.xlsx.writeBuffer()) as ArrayBuffer));
  const name = Object.keys(files).find((n) => n.endsWith(part));
  if (!name) throw new Error(`the generated workbook has no ${part}`);
  files[name] = strToU8(splice(strFromU8(files[name]!)));
  return zipSync(files, { level: 9 });
}

/** A .docx whose word/document.xml inflates to `bytes`, compressed as it is generated (never whole in memory). */
function hugeDocx(bytes: number): Uint8Array {
  const small = unzipSync(expandingDocx(1024));
  const out: Uint8Array[] = [];
  const zip = new Zip((error, chunk) => {
    if (error) throw error;
    out.push(chunk);
  });
  for (const [name, data] of Object.entries(small)) {
    if (name === 'word/document.xml') continue;
    const entry = new ZipDeflate(name, { level: 9 });
    zip.add(entry);
    entry.push(data, true);
  }
  const entry = new ZipDeflate('word/document.xml', { level: 9 });
  zip.add(entry);
  const paragraph = strToU8('<w:p><w:r><w:t>Customer data is encrypted at rest with AES-256.</w:t></w:r></w:p>'.repeat(16_384));
  entry.push(
    strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>',
    ),
  );
  for (let written = 0; written < bytes; written += paragraph.byteLength) entry.push(paragraph);
  entry.push(strToU8('</w:body></w:document>'), true);
  zip.end();
  const total = out.reduce((n, c) => n + c.byteLength, 0);
  const bytesOut = new Uint8Array(total);
  let at = 0;
  for (const c of out) bytesOut.set(c, at), (at += c.byteLength);
  return bytesOut;
}

type Send = (base: string, keys: { admin: string; reader: string }) => Promise<string>;

interface Vector {
  name: string;
  /** Builds the input (before any timing: the bench's own work must not stall the poller) and returns its sender. */
  run(): Promise<Send>;
}

async function waitForFile(base: string, key: string, id: number): Promise<{ status: string; error?: string | null }> {
  for (;;) {
    const res = await fetch(`${base}/api/v2/repository/files/${id}/`, { headers: { 'X-API-Key': key } });
    const body = (await res.json()) as { status: string; error?: string | null };
    if (body.status === 'ready' || body.status === 'failed') return body;
    await new Promise((r) => setTimeout(r, 100));
  }
}

function form(name: string, bytes: Uint8Array): FormData {
  const data = new FormData();
  data.append('files', new Blob([bytes as BlobPart]), name);
  return data;
}

const short = (text: string, n = 90) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);

function repository(name: string, make: () => Uint8Array | Promise<Uint8Array>): Vector['run'] {
  return async () => {
    const bytes = await make();
    return async (base, keys) => {
      const t = performance.now();
      const res = await fetch(`${base}/api/v2/repository/files/`, { method: 'POST', headers: { 'X-API-Key': keys.admin }, body: form(name, bytes) });
      const body = (await res.json()) as { file_ids?: number[]; error?: string };
      if (!body.file_ids?.length) return `${res.status} ${short(body.error ?? JSON.stringify(body))}`;
      const done = await waitForFile(base, keys.admin, body.file_ids[0]!);
      const s = ((performance.now() - t) / 1000).toFixed(1);
      return `${done.status} after ${s} s${done.error ? `: ${short(done.error)}` : ''}`;
    };
  };
}

function questionnaire(name: string, make: () => Uint8Array | Promise<Uint8Array>): Vector['run'] {
  return async () => {
    const bytes = await make();
    return async (base, keys) => {
      const t = performance.now();
      const res = await fetch(`${base}/api/v2/filler/questionnaires/`, { method: 'POST', headers: { 'X-API-Key': keys.admin }, body: form(name, bytes) });
      const body = (await res.json()) as { error?: string };
      const s = ((performance.now() - t) / 1000).toFixed(1);
      return `${res.status} after ${s} s${body.error ? `: ${short(body.error)}` : ''}`;
    };
  };
}

const VECTORS: Vector[] = [
  {
    name: 'xlsx, 50,000 unclosed `<dataValidation>` (questionnaire)',
    run: questionnaire('validations.xlsx', () =>
      splicedWorkbook('sheet1.xml', (xml) =>
        xml.replace('</sheetData>', `</sheetData><dataValidations count="1">${'<dataValidation type="list" sqref="C2">'.repeat(50_000)}</dataValidations>`),
      ),
    ),
  },
  {
    name: 'xlsx, 50,000 unclosed `<si>` in sharedStrings (questionnaire)',
    run: questionnaire('strings.xlsx', () => splicedWorkbook('sharedStrings.xml', (xml) => xml.replace('</sst>', `${'<si>'.repeat(50_000)}</sst>`))),
  },
  {
    name: 'xlsx, 20,000 `<col min="1" max="16384"/>` (questionnaire)',
    run: questionnaire('columns.xlsx', () =>
      splicedWorkbook('sheet1.xml', (xml) => xml.replace('<sheetData', `<cols>${'<col min="1" max="16384" width="9"/>'.repeat(20_000)}</cols><sheetData`)),
    ),
  },
  { name: '.md: `# a` + 4,000 spaces + `b` (repository)', run: repository('heading.md', () => spacedHeadingMarkdown(4000)) },
  { name: 'PDF, 40,000 nested `q`/`Q` (repository)', run: repository('nested.pdf', () => nestedGraphicsPdf(40_000)) },
  { name: 'PDF, 8,000 references to one page (repository)', run: repository('pages.pdf', () => repeatedPagePdf(8000)) },
  {
    name: 'form `offering_ids[0..39999]` to `/chat/ask/` (read-only key)',
    run: async () => async (base, keys) => {
      const body = `question=${encodeURIComponent('Is data encrypted?')}&${Array.from({ length: 40_000 }, (_, i) => `offering_ids%5B${i}%5D=1`).join('&')}`;
      const t = performance.now();
      const res = await fetch(`${base}/api/v2/chat/ask/`, {
        method: 'POST',
        headers: { 'X-API-Key': keys.reader, 'Content-Type': 'application/x-www-form-urlencoded' },
        body,
      });
      const json = (await res.json()) as { error?: string };
      return `${res.status} after ${((performance.now() - t) / 1000).toFixed(1)} s${json.error ? `: ${short(json.error)}` : ''} (${Math.round(body.length / 1024)} KB)`;
    },
  },
  { name: '.docx whose document.xml inflates to 386 MB (repository)', run: repository('huge.docx', () => hugeDocx(386 * MB)) },
  { name: 'CSV questionnaire of 49 MB', run: questionnaire('big.csv', () => largeCsvQuestionnaire(49 * MB)) },
];

export async function runAttackBench(log: (line: string) => void = () => {}): Promise<AttackRow[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'qfill-attack-'));
  const admin = await createKey(dataDir, { org: 'acme', user: 'alice', role: 'admin' });
  const reader = await createKey(dataDir, { org: 'acme', user: 'bob', role: 'member', readOnly: true });
  const watcher = await createKey(dataDir, { org: 'other', user: 'carol', role: 'member' });
  const senders: Send[] = [];
  for (const vector of VECTORS) senders.push(await vector.run());
  let server = await startServer(dataDir);
  const rows: AttackRow[] = [];
  try {
    const poll = poller(server.base, watcher);
    const all: number[] = [];
    for (const [i, vector] of VECTORS.entries()) {
      await poll.take();
      const outcome = await senders[i]!(server.base, { admin, reader });
      const latencies = await poll.take();
      all.push(...latencies);
      log(`${vector.name}: ${outcome}`);
      rows.push({ measure: vector.name, ...latencyStats(latencies), outcome, budget: '', verdict: '' });
    }
    await poll.stop();
    const overall = latencyStats(all);
    rows.push({
      measure: '`GET /chat/sessions/` from a second client while all of the above are sent one after another',
      ...overall,
      outcome: `reading budget ${READ_TIMEOUT_S} s (default 60 s)`,
      budget: 'p95 < 200 ms',
      verdict: overall.p95_ms !== null && overall.p95_ms < 200 ? 'yes' : 'no',
    });
    // A fresh process, so its peak memory is the flood's alone.
    await server.stop();
    server = await startServer(dataDir);
    rows.push(await uploadFlood(server, admin, dataDir, log));
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}

/** 4 clients each upload 10 × 40 MB in one request, at once; then the 40 files are read. */
async function uploadFlood(server: Server, key: string, dataDir: string, log: (line: string) => void): Promise<AttackRow> {
  const file = path.join(dataDir, 'padded.pdf');
  writeFileSync(file, paddedPdf(40 * MB));
  const blob = await openAsBlob(file);
  const before = memoryOf(server.pid);
  let peak = before.peakMb;
  // The resident size sampled while receiving, then while reading (VmHWM gives the overall peak).
  let phase: 'upload' | 'read' = 'upload';
  const phasePeak = { upload: 0, read: 0 };
  const sampler = setInterval(() => {
    try {
      const m = memoryOf(server.pid);
      peak = Math.max(peak, m.peakMb);
      phasePeak[phase] = Math.max(phasePeak[phase], m.rssMb);
    } catch {
      // exited
    }
  }, 100);
  const t = performance.now();
  try {
    const results = await Promise.all(
      Array.from({ length: 4 }, async (_, client) => {
        const data = new FormData();
        for (let i = 0; i < 10; i++) data.append('files', blob, `scan-${client}-${i}.pdf`);
        const res = await fetch(`${server.base}/api/v2/repository/files/`, { method: 'POST', headers: { 'X-API-Key': key }, body: data });
        const body = (await res.json()) as { file_ids?: number[]; error?: string };
        if (!body.file_ids) throw new Error(`upload flood: ${res.status} ${body.error}`);
        return body.file_ids;
      }),
    );
    const uploaded = ((performance.now() - t) / 1000).toFixed(1);
    phase = 'read';
    const ids = results.flat();
    const states = await Promise.all(ids.map((id) => waitForFile(server.base, key, id)));
    const ready = states.filter((s) => s.status === 'ready').length;
    const total = ((performance.now() - t) / 1000).toFixed(1);
    peak = Math.max(peak, memoryOf(server.pid).peakMb);
    log(
      `upload flood: ${ids.length} files, ${ready} ready, uploaded in ${uploaded} s, read in ${total} s, peak RSS ${peak} MB (before ${before.rssMb} MB; sampled ${phasePeak.upload} MB receiving, ${phasePeak.read} MB reading)`,
    );
    return {
      measure: 'peak RSS of the service while 4 clients each upload 10 × 40 MB (one-page PDFs padded to 40 MB) and the 40 files are read',
      n: null,
      p50_ms: null,
      p95_ms: null,
      max_ms: null,
      outcome: `${peak} MB peak (${before.rssMb} MB idle; ${phasePeak.upload} MB receiving, ${phasePeak.read} MB reading); ${ready}/${ids.length} ready; uploads took ${uploaded} s, ${total} s in all`,
      budget: '< 600 MB',
      verdict: peak < 600 ? 'yes' : 'no',
    };
  } finally {
    clearInterval(sampler);
  }
}
