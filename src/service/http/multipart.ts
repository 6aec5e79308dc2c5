/**
 * Multipart uploads with bounded memory and fair turns: each file part is streamed to a waiting file on
 * disk as it arrives (`BlobStore.receive`), a request may carry at most `maxRequestMb` in total, uploads
 * take turns by key and organisation (./upload-gate.ts), and a body that stalls or trickles is closed.
 * Files a request received but did not store are removed when its response closes (sent, failed, or the
 * client went away). Text fields are collected by name (`name[]` as `name`); ./form.ts turns them into
 * what the upload schemas check.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { BlobStore, IncomingBlob } from '../files/blobstore';
import { badRequest, HttpError, UPLOAD_LIMITS } from './errors';
import { DEFAULT_UPLOAD_SHARES, UploadGate, type UploadShares } from './upload-gate';

export interface UploadedFile extends IncomingBlob {
  filename: string;
  mimetype: string;
}

export interface MultipartBody {
  files: UploadedFile[];
  fields: Map<string, string[]>;
}

export interface UploadLimits extends UploadShares {
  /** All parts of one request together. */
  maxRequestMb: number;
  /** A body that sends nothing for this long is closed. */
  idleMs: number;
  /** Once `rateGraceMs` have passed, a body arriving slower than this on average is closed. */
  minBytesPerSecond: number;
  rateGraceMs: number;
}

export const DEFAULT_UPLOAD_LIMITS: UploadLimits = {
  ...DEFAULT_UPLOAD_SHARES,
  maxRequestMb: 512,
  idleMs: 20_000,
  minBytesPerSecond: 1024,
  rateGraceMs: 30_000,
};

const FILE_FIELDS = new Set(['files', 'files[]', 'file']);
const MB = 1024 * 1024;

interface UploadState {
  blobs: BlobStore;
  maxRequestBytes: number;
  received: number;
  /** Reading stopped before the end of the body (an error part-way). */
  unread: boolean;
  /** The response has closed: a file received after that is removed at once. */
  ended: boolean;
  /** Aborts a file still being received when the response closes or the body is too slow. */
  receiving: AbortController;
  /** Why the body was closed for its pace, when it was. */
  tooSlow: HttpError | null;
  /** Received files: removed when the request ends unless stored (moved) by then. */
  waiting: Set<string>;
  /** Stops watching the body's pace (it has been read, or the request ended). */
  stopWatching(): void;
}

const states = new WeakMap<FastifyRequest, UploadState>();

/** Registers @fastify/multipart and the hooks that bound what uploads may hold. Returns the gate (for metrics). */
export async function registerUploads(app: FastifyInstance, blobs: BlobStore, limits: Partial<UploadLimits> = {}): Promise<UploadGate> {
  const settings = { ...DEFAULT_UPLOAD_LIMITS, ...limits };
  const maxRequestBytes = settings.maxRequestMb * MB;
  await app.register(multipart, {
    limits: {
      fileSize: UPLOAD_LIMITS.fileSizeMb * MB,
      files: UPLOAD_LIMITS.files,
      fields: UPLOAD_LIMITS.fields,
      fieldSize: MB,
      parts: UPLOAD_LIMITS.files + UPLOAD_LIMITS.fields,
    },
  });

  const gate = new UploadGate(settings);
  // After authentication (onRequest): a refused key never takes an upload slot.
  app.addHook('preHandler', async (request, reply) => {
    if (!request.isMultipart()) return;
    const declared = Number(request.headers['content-length']);
    // Refused before its body is read: the connection closes after the answer instead of reading it all.
    if (Number.isFinite(declared) && declared > maxRequestBytes) throw tooLarge(settings.maxRequestMb, { connection: 'close' });
    const principal = request.principal;
    if (!principal) return;
    // The client may go while its key is checked or while it waits its turn: its response has closed then.
    const gone = new AbortController();
    const onClose = () => gone.abort();
    reply.raw.once('close', onClose);
    if (reply.raw.closed || request.raw.destroyed) return;
    let release: () => void;
    try {
      release = await gate.acquire(principal.org.id, principal.key_id, gone.signal);
    } catch (error) {
      // A small body is read and dropped so the client sees the 429 instead of a broken pipe; a large one is not worth reading.
      if (error instanceof HttpError && !(Number.isFinite(declared) && declared <= MB)) error.headers.connection = 'close';
      throw error;
    } finally {
      reply.raw.off('close', onClose);
    }
    if (gone.signal.aborted) return release();
    const state: UploadState = {
      blobs,
      maxRequestBytes,
      received: 0,
      unread: false,
      ended: false,
      receiving: new AbortController(),
      tooSlow: null,
      waiting: new Set(),
      stopWatching: () => undefined,
    };
    const socket = request.raw.socket;
    const bytesAtStart = socket?.bytesRead ?? 0;
    // Bytes off the wire, part headers included: a body trickling through its part headers is still a body.
    const bytesRead = () => (socket?.bytesRead ?? 0) - bytesAtStart;
    state.stopWatching = watchPace(bytesRead, settings, (error) => {
      request.log.warn({ url: request.url, org: principal.org.name, received: state.received }, error.message);
      state.tooSlow = error;
      state.unread = true;
      state.receiving.abort(error);
      // A body stalled between parts has no file being received to abort: the connection goes.
      setTimeout(() => {
        if (!state.ended) request.raw.socket?.destroy();
      }, 2000).unref();
    });
    states.set(request, state);
    // The response closes exactly once, whether it was sent, failed or the client went away: the one place
    // a slot is given back and what the request received but did not store is removed.
    reply.raw.once('close', () => {
      release();
      state.ended = true;
      state.stopWatching();
      // A part still arriving may never end or fail on its own once the connection is gone (seen with resets).
      state.receiving.abort(new Error('the request ended before the upload was received'));
      states.delete(request);
      for (const path of state.waiting) void blobs.discard(path);
    });
  });
  // A request refused part-way still has body on its way: close the connection rather than read it all.
  app.addHook('onSend', async (request, reply) => {
    if (states.get(request)?.unread) reply.header('connection', 'close');
  });
  return gate;
}

/** Calls `tooSlow` once if the body stops, or arrives slower than the minimum rate after the grace period. */
function watchPace(bytesRead: () => number, limits: UploadLimits, tooSlow: (error: HttpError) => void): () => void {
  const started = Date.now();
  let lastReceived = 0;
  let lastProgress = started;
  const timer = setInterval(
    () => {
      const now = Date.now();
      const received = bytesRead();
      if (received > lastReceived) {
        lastReceived = received;
        lastProgress = now;
      }
      const elapsed = now - started;
      let reason: string | null = null;
      if (now - lastProgress >= limits.idleMs) reason = `nothing arrived for ${Math.round((now - lastProgress) / 1000)} s`;
      else if (elapsed >= limits.rateGraceMs && (received * 1000) / elapsed < limits.minBytesPerSecond) {
        reason = `${received} bytes arrived in ${Math.round(elapsed / 1000)} s (at least ${limits.minBytesPerSecond} bytes a second are needed)`;
      }
      if (!reason) return;
      clearInterval(timer);
      tooSlow(new HttpError(400, `body: the upload was closed because ${reason}; send it again on a working connection`, { connection: 'close' }));
    },
    Math.max(50, Math.min(1000, limits.idleMs / 4)),
  );
  timer.unref();
  return () => clearInterval(timer);
}

const tooLarge = (maxMb: number, headers: Record<string, string> = {}) =>
  new HttpError(400, `body: the upload is larger than ${maxMb} MB; send fewer or smaller files per request`, headers);

export async function readMultipart(request: FastifyRequest): Promise<MultipartBody> {
  if (!request.isMultipart()) throw badRequest('body: expected multipart/form-data with one or more "files"');
  const state = states.get(request);
  if (!state) throw new Error('readMultipart: uploads are not registered on this app (registerUploads)');
  try {
    const body = await collectParts(request, state);
    state.stopWatching();
    return body;
  } catch (error) {
    state.unread = true;
    state.stopWatching();
    if (state.tooSlow) throw state.tooSlow;
    const code = (error as { code?: unknown }).code;
    if (error instanceof HttpError || (typeof code === 'string' && code.startsWith('FST_'))) throw error;
    // busboy's own errors (no boundary, truncated part headers) are a malformed request, not our fault.
    throw badRequest(`body: malformed multipart body (${error instanceof Error ? error.message : String(error)})`);
  }
}

async function collectParts(request: FastifyRequest, state: UploadState): Promise<MultipartBody> {
  const files: UploadedFile[] = [];
  const fields = new Map<string, string[]>();
  const count = (bytes: number) => {
    state.received += bytes;
    if (state.received > state.maxRequestBytes) throw tooLarge(state.maxRequestBytes / MB);
  };
  // The next part is awaited against the request's abort too: a body stalled between parts has no file
  // being received that could notice.
  const parts = request.parts()[Symbol.asyncIterator]();
  const signal = state.receiving.signal;
  const stopped = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
  stopped.catch(() => undefined);
  for (;;) {
    const next = await Promise.race([parts.next(), stopped]);
    if (next.done) break;
    const part = next.value;
    if (part.type === 'file') {
      if (!FILE_FIELDS.has(part.fieldname)) {
        part.file.resume();
        throw badRequest(`${part.fieldname}: unexpected file field; send files in the "files" field`);
      }
      const incoming = await state.blobs.receive(part.file, count, state.receiving.signal);
      if (state.ended) {
        await state.blobs.discard(incoming.path);
        throw badRequest('body: the client went away before the upload was received');
      }
      state.waiting.add(incoming.path);
      files.push({ ...incoming, filename: part.filename || 'upload', mimetype: part.mimetype });
    } else if (FILE_FIELDS.has(part.fieldname)) {
      throw badRequest(`${part.fieldname}: expected a file but got a text field (a part without a filename); with curl use -F files=@path`);
    } else {
      const value = typeof part.value === 'string' ? part.value : String(part.value);
      count(Buffer.byteLength(value));
      const name = part.fieldname.endsWith('[]') ? part.fieldname.slice(0, -2) : part.fieldname;
      const list = fields.get(name) ?? [];
      list.push(value);
      fields.set(name, list);
    }
  }
  return { files, fields };
}
