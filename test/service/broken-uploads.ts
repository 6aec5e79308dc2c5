/**
 * Clients that break an upload off, on a raw socket: stall then close, close mid-part, reset, cut after the
 * headers, cut inside a boundary line, or trickle the body byte by byte. Shared by the broken-upload test
 * (seeded, bounded) and its soak in `npm run bench`.
 */
import { connect, type Socket } from 'node:net';

export const BREAK_KINDS = ['stall-then-close', 'close-mid-part', 'reset', 'cut-after-headers', 'cut-in-boundary'] as const;
export type BreakKind = (typeof BREAK_KINDS)[number];

/** A small deterministic generator (mulberry32), so a failing run can be replayed from its seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface RawUpload {
  head: Buffer;
  body: Buffer;
  /** Where each boundary line starts in `body`. */
  boundaryOffsets: number[];
  /** Where the file part's content starts and ends in `body`. */
  fileStart: number;
  fileEnd: number;
}

/** A multipart upload of one file of `fileBytes` bytes to `path`, as bytes on the wire. */
export function rawUpload(url: string, key: string, path: string, fileBytes: number, filename = 'notes.txt'): RawUpload {
  const { host } = new URL(url);
  const boundary = `----qfillbroken${Math.random().toString(16).slice(2)}`;
  const preamble = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${filename}"\r\nContent-Type: text/plain\r\n\r\n`);
  const content = Buffer.alloc(fileBytes, 'Our service encrypts data at rest with AES-256. ');
  const closing = Buffer.from(`\r\n--${boundary}--\r\n`);
  const body = Buffer.concat([preamble, content, closing]);
  const head = Buffer.from(
    `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nX-API-Key: ${key}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\n` +
      `Content-Length: ${body.byteLength}\r\n\r\n`,
  );
  return {
    head,
    body,
    boundaryOffsets: [0, preamble.byteLength + content.byteLength + 2],
    fileStart: preamble.byteLength,
    fileEnd: preamble.byteLength + content.byteLength,
  };
}

function open(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => resolve(socket));
    socket.once('error', reject);
  });
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

function write(socket: Socket, bytes: Buffer): Promise<void> {
  return new Promise((resolve) => {
    if (socket.destroyed) return resolve();
    socket.write(bytes, () => resolve());
  });
}

/**
 * Sends an upload and breaks it off as `kind` says, at a random place drawn from `random`. Resolves once
 * the socket is gone; never rejects (what the server says, if anything, does not matter here).
 */
export async function breakUpload(url: string, key: string, kind: BreakKind, random: () => number, fileBytes = 64 * 1024): Promise<void> {
  const upload = rawUpload(url, key, '/api/v2/repository/files/', fileBytes);
  let socket: Socket;
  try {
    socket = await open(url);
  } catch {
    return;
  }
  // The server may answer or close first; errors on our side are expected and ignored.
  socket.on('error', () => undefined);
  socket.on('data', () => undefined);
  const gone = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const at = (lo: number, hi: number) => lo + Math.floor(random() * Math.max(1, hi - lo));
  await write(socket, upload.head);
  switch (kind) {
    case 'cut-after-headers':
      if (random() < 0.5) await pause(at(0, 30));
      socket.destroy();
      break;
    case 'stall-then-close': {
      await write(socket, upload.body.subarray(0, at(0, upload.body.byteLength)));
      await pause(at(10, 200));
      socket.end();
      break;
    }
    case 'close-mid-part': {
      // In pieces, so the server is part-way through writing the file when the socket goes.
      const end = at(upload.fileStart, upload.fileEnd);
      for (let sent = 0; sent < end; ) {
        const next = Math.min(end, sent + at(1, 16 * 1024));
        await write(socket, upload.body.subarray(sent, next));
        sent = next;
        if (random() < 0.3) await pause(at(0, 5));
      }
      socket.destroy();
      break;
    }
    case 'reset': {
      await write(socket, upload.body.subarray(0, at(0, upload.body.byteLength)));
      if (random() < 0.5) await pause(at(0, 20));
      socket.resetAndDestroy();
      break;
    }
    case 'cut-in-boundary': {
      const start = upload.boundaryOffsets[Math.floor(random() * upload.boundaryOffsets.length)]!;
      await write(socket, upload.body.subarray(0, start + at(1, 20)));
      if (random() < 0.5) socket.end();
      else socket.destroy();
      break;
    }
  }
  // A socket ended with FIN may wait for the server's answer; never longer than a few seconds.
  const timer = setTimeout(() => socket.destroy(), 5000);
  await gone;
  clearTimeout(timer);
}

export interface SoakOptions {
  url: string;
  key: string;
  /** Broken-off uploads in all. */
  count: number;
  seed: number;
  /** Broken uploads sent at once; an ordinary request goes alongside each group. */
  concurrency?: number;
  /** Stops early, between groups, once this much time has passed. */
  maxMs?: number;
}

export interface SoakResult {
  broken: number;
  byKind: Record<BreakKind, number>;
  /** Ordinary requests sent alongside and how each was answered ("200", "429", or the network error). */
  ordinary: string[];
  ms: number;
}

const ORDINARY_TEXT = 'Access reviews happen quarterly. Backups are encrypted and tested monthly.';

/** Broken-off uploads of every kind at seeded random offsets, interleaved with ordinary requests. */
export async function soakBrokenUploads(opts: SoakOptions): Promise<SoakResult> {
  const random = seededRandom(opts.seed);
  const concurrency = opts.concurrency ?? 6;
  const byKind = Object.fromEntries(BREAK_KINDS.map((k) => [k, 0])) as Record<BreakKind, number>;
  const ordinary: string[] = [];
  const started = Date.now();
  let broken = 0;
  let turn = 0;
  while (broken < opts.count && Date.now() - started < (opts.maxMs ?? Infinity)) {
    const group = Math.min(concurrency, opts.count - broken);
    const kinds = Array.from({ length: group }, () => BREAK_KINDS[Math.floor(random() * BREAK_KINDS.length)]!);
    const sizes = kinds.map(() => 1024 + Math.floor(random() * 256 * 1024));
    const ordinaryRequest = turn++ % 2 === 0 ? ordinaryUpload(opts.url, opts.key, turn) : ordinaryRead(opts.url, opts.key);
    const [answer] = await Promise.all([ordinaryRequest, ...kinds.map((kind, i) => breakUpload(opts.url, opts.key, kind, random, sizes[i]))]);
    ordinary.push(answer);
    for (const kind of kinds) byKind[kind]++;
    broken += group;
  }
  return { broken, byKind, ordinary, ms: Date.now() - started };
}

async function ordinaryUpload(url: string, key: string, n: number): Promise<string> {
  const form = new FormData();
  form.append('files', new Blob([`${ORDINARY_TEXT}\n\nNote ${n}.`], { type: 'text/plain' }), `note-${n}.txt`);
  return answered(fetch(`${url}/api/v2/repository/files/`, { method: 'POST', headers: { 'x-api-key': key }, body: form }));
}

function ordinaryRead(url: string, key: string): Promise<string> {
  return answered(fetch(`${url}/api/v2/repository/files/?page_size=5`, { headers: { 'x-api-key': key } }));
}

async function answered(response: Promise<Response>): Promise<string> {
  try {
    const res = await response;
    await res.arrayBuffer();
    return String(res.status);
  } catch (error) {
    return `network error: ${error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error)}`;
  }
}

/**
 * Holds `n` uploads open after their first bytes (each has passed the upload gate unless it was answered
 * at once). Returns whether each was refused, and a function that sends the rest and resolves with each status.
 */
export async function holdUploads(url: string, key: string, n: number): Promise<{ refused: boolean[]; finish(): Promise<number[]> }> {
  const held = await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const upload = rawUpload(url, key, '/api/v2/repository/files/', 2048, `held-${i}.txt`);
      const socket = await open(url);
      let reply = '';
      socket.on('data', (d) => (reply += d.toString('latin1')));
      socket.on('error', () => undefined);
      await write(socket, upload.head);
      await write(socket, upload.body.subarray(0, upload.fileStart + 100));
      return { socket, upload, reply: () => reply };
    }),
  );
  // Long enough for every request to reach the gate on loopback; a refusal is sent at once.
  await pause(1000);
  const refused = held.map((h) => /^HTTP\/1\.1 429/.test(h.reply()));
  return {
    refused,
    finish: () =>
      Promise.all(
        held.map(async (h) => {
          await write(h.socket, h.upload.body.subarray(h.upload.fileStart + 100));
          for (let waited = 0; waited < 30_000 && !/\r\n\r\n/.test(h.reply()) && !h.socket.destroyed; waited += 20) await pause(20);
          h.socket.destroy();
          return Number(/^HTTP\/1\.1 (\d{3})/.exec(h.reply())?.[1] ?? 0);
        }),
      ),
  };
}

export interface Trickle {
  /** What the server has answered so far. */
  reply(): string;
  /** Resolves when the server has closed the connection (or `ms` passed: false). */
  closedWithin(ms: number): Promise<boolean>;
  stop(): void;
}

/** An upload whose body arrives `bytes` at a time every `everyMs`, stalling for good after `stallAfter` bytes (if given). */
export async function trickleUpload(url: string, key: string, opts: { everyMs: number; bytes?: number; stallAfter?: number; name?: string }): Promise<Trickle> {
  const upload = rawUpload(url, key, '/api/v2/repository/files/', 64 * 1024, opts.name ?? 'trickle.txt');
  const socket = await open(url);
  let reply = '';
  let closed = false;
  socket.on('data', (d) => (reply += d.toString('latin1')));
  socket.on('error', () => undefined);
  socket.on('close', () => (closed = true));
  await write(socket, upload.head);
  let sent = 0;
  const step = opts.bytes ?? 1;
  const timer = setInterval(() => {
    if (closed || sent >= upload.body.byteLength || (opts.stallAfter !== undefined && sent >= opts.stallAfter)) return;
    const next = Math.min(upload.body.byteLength, sent + step);
    socket.write(upload.body.subarray(sent, next));
    sent = next;
  }, opts.everyMs);
  return {
    reply: () => reply,
    async closedWithin(ms) {
      for (let waited = 0; waited < ms && !closed; waited += 50) await pause(50);
      return closed;
    },
    stop() {
      clearInterval(timer);
      socket.destroy();
    },
  };
}
