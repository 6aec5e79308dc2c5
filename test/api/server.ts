/**
 * A real HTTP server on loopback for client tests: records every request (method, path, query,
 * headers, raw body) and answers with scripted replies, in order, falling back to a default.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, beforeEach, expect } from 'vitest';
import { ApiError, type Sleep } from '../../src/api';

export interface Recorded {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export type Reply =
  | { status?: number; json?: unknown; text?: string; headers?: Record<string, string> }
  /** Never answer (until the client gives up or the server closes). */
  | 'hang'
  /** Destroy the connection as soon as the request (and the first body bytes, if any) arrive. */
  | 'reset'
  | ((req: Recorded) => Reply);

export class TestServer {
  readonly requests: Recorded[] = [];
  private readonly queue: Reply[] = [];
  private readonly sockets = new Set<Socket>();
  private waiters: Array<{ count: number; resolve: () => void }> = [];
  fallback: Reply = { status: 500, json: { error: 'no scripted reply' } };

  private constructor(
    private readonly server: http.Server,
    readonly origin: string,
  ) {}

  static async start(port = 0): Promise<TestServer> {
    const server = http.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    const { port: bound } = server.address() as AddressInfo;
    const ts = new TestServer(server, `http://127.0.0.1:${bound}`);
    server.on('connection', (s) => {
      ts.sockets.add(s);
      s.on('close', () => ts.sockets.delete(s));
    });
    server.on('request', (req, res) => ts.handle(req, res));
    return ts;
  }

  /** Base URL to give the client (without /api/v2/, which the client appends). */
  get url(): string {
    return this.origin;
  }

  get port(): number {
    return Number(new URL(this.origin).port);
  }

  script(...replies: Reply[]): this {
    this.queue.push(...replies);
    return this;
  }

  /** Resolves once `count` requests in total have arrived. */
  waitForRequests(count: number): Promise<void> {
    if (this.requests.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  last(): Recorded {
    const r = this.requests.at(-1);
    if (!r) throw new Error('the server has received no request');
    return r;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private record(rec: Recorded) {
    this.requests.push(rec);
    const ready = this.waiters.filter((w) => this.requests.length >= w.count);
    this.waiters = this.waiters.filter((w) => this.requests.length < w.count);
    ready.forEach((w) => w.resolve());
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? '/', this.origin);
    const rec: Recorded = { method: req.method ?? '', path: url.pathname, query: url.searchParams, headers: req.headers, body: Buffer.alloc(0) };
    let reply = this.queue.shift() ?? this.fallback;
    if (reply === 'reset') {
      // Cut the connection while the body is still arriving: the client cannot know what was processed.
      this.record(rec);
      const cut = () => req.socket.destroy();
      if (req.headers['content-length'] === '0' || req.method === 'GET') cut();
      else req.once('data', cut);
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      rec.body = Buffer.concat(chunks);
      this.record(rec);
      while (typeof reply === 'function') reply = reply(rec);
      if (reply === 'hang') return;
      if (reply === 'reset') return void req.socket.destroy();
      const headers: Record<string, string> = { ...(reply.headers ?? {}) };
      let body = '';
      if (reply.json !== undefined) {
        body = JSON.stringify(reply.json);
        headers['content-type'] ??= 'application/json';
      } else if (reply.text !== undefined) {
        body = reply.text;
      }
      res.writeHead(reply.status ?? 200, headers);
      res.end(body);
    });
  }
}

/** A fresh server for every test of the file, closed after it; `bind` receives each one. */
export function serverPerTest(bind: (server: TestServer) => void): void {
  let current: TestServer | undefined;
  beforeEach(async () => {
    current = await TestServer.start();
    bind(current);
  });
  afterEach(async () => {
    await current?.close();
  });
}

/** The ApiError a call rejects with; fails the test when it resolves or throws something else. */
export async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return e as ApiError;
  }
  throw new Error('expected the call to fail');
}

/** A sleep that returns at once, recording each delay asked for (and honouring an aborted signal). */
export function recordingSleep(): { delays: number[]; fn: Sleep } {
  const delays: number[] = [];
  const fn: Sleep = async (ms, signal) => {
    delays.push(ms);
    if (signal?.aborted) throw signal.reason;
  };
  return { delays, fn };
}

/** Parses a recorded multipart body with the platform's own multipart parser. */
export async function parseMultipart(rec: Recorded): Promise<FormData> {
  const type = rec.headers['content-type'];
  if (!type?.startsWith('multipart/form-data')) throw new Error(`not multipart: ${String(type)}`);
  return new Response(new Uint8Array(rec.body), { headers: { 'content-type': type } }).formData();
}

// ---- Valid v2 payloads ----------------------------------------------------------------------------

export const ts = '2024-05-01T10:00:00Z';

export function session(id: number, extra: Record<string, unknown> = {}) {
  return { id, title: `Chat ${id}`, created_at: ts, updated_at: ts, is_archived: false, message_count: 0, messages: [], ...extra };
}

export function repoFile(id: number, extra: Record<string, unknown> = {}) {
  return { id, original_filename: `doc-${id}.pdf`, status: 'ready', processing_percent: 100, file_format: 'pdf', ...extra };
}

export function questionnaire(id: number, extra: Record<string, unknown> = {}) {
  return {
    id,
    file: { id: 100 + id, original_filename: 'q.xlsx', file_format: 'excel', status: 'ready', created_at: ts },
    status: 'draft',
    ...extra,
  };
}

export function progress(status: 'idle' | 'generating' | 'complete', received: number, expected = 3) {
  return { status, answers_expected: expected, answers_received: received, percent: Math.round((100 * received) / expected) };
}

export const question = {
  id: 1,
  original_question_text: 'Do you encrypt data at rest?',
  tab_name: 'Security',
  answer_slots: [{ role: 'answer', header: 'Answer', coordinate: 'C5' }],
  answers: [{ id: 9, text: 'Yes, AES-256.' }],
};

export const structure = {
  tabs: [{ tab_name: 'Security', question_count: 1, needs_filling_count: 1 }],
  groups: [
    {
      tab_name: 'Security',
      question_count: 1,
      needs_filling_count: 1,
      answer_slots: [{ role: 'answer', header: 'Answer', coordinate: 'C5' }],
      display_order: 1,
      filter_counts: { approved: 0, not_approved: 1, needs_review: 0, low_trust: 0 },
    },
  ],
  total_question_count: 1,
  total_needs_filling_count: 1,
  quick_filter_counts: { trustLow: 0 },
  avg_score: 80,
};

export function page<T>(results: T[], next: string | null, count = results.length) {
  return { count, next, previous: null, results };
}
