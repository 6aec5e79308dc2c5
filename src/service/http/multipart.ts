/**
 * Multipart uploads with bounded memory: each file part is streamed to a waiting file on disk as it
 * arrives (`BlobStore.receive`), a request may carry at most `maxRequestMb` in total, and at most
 * `maxInFlight` uploads are received at once (more get 429 with Retry-After). Files a request received
 * but did not store are removed when its response is sent or the client goes away. Text fields are
 * collected by name (`name[]` as `name`); ./form.ts turns them into what the upload schemas check.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { BlobStore, IncomingBlob } from '../files/blobstore';
import { badRequest, HttpError, UPLOAD_LIMITS } from './errors';

export interface UploadedFile extends IncomingBlob {
  filename: string;
  mimetype: string;
}

export interface MultipartBody {
  files: UploadedFile[];
  fields: Map<string, string[]>;
}

export interface UploadLimits {
  /** All parts of one request together. */
  maxRequestMb: number;
  /** Upload requests being received at once, across the process. */
  maxInFlight: number;
}

export const DEFAULT_UPLOAD_LIMITS: UploadLimits = { maxRequestMb: 512, maxInFlight: 8 };

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
  /** Aborts a file still being received when the response closes. */
  receiving: AbortController;
  /** Received files: removed when the request ends unless stored (moved) by then. */
  waiting: Set<string>;
}

const states = new WeakMap<FastifyRequest, UploadState>();

/** Registers @fastify/multipart and the hooks that bound what uploads may hold. */
export async function registerUploads(app: FastifyInstance, blobs: BlobStore, limits: Partial<UploadLimits> = {}): Promise<void> {
  const { maxRequestMb, maxInFlight } = { ...DEFAULT_UPLOAD_LIMITS, ...limits };
  const maxRequestBytes = maxRequestMb * MB;
  await app.register(multipart, {
    limits: {
      fileSize: UPLOAD_LIMITS.fileSizeMb * MB,
      files: UPLOAD_LIMITS.files,
      fields: UPLOAD_LIMITS.fields,
      fieldSize: MB,
      parts: UPLOAD_LIMITS.files + UPLOAD_LIMITS.fields,
    },
  });

  let inFlight = 0;
  // After authentication (onRequest): a refused key never takes an upload slot.
  app.addHook('preHandler', async (request, reply) => {
    if (!request.isMultipart()) return;
    const declared = Number(request.headers['content-length']);
    // Refused before its body is read: the connection closes after the answer instead of reading it all.
    if (Number.isFinite(declared) && declared > maxRequestBytes) throw tooLarge(maxRequestMb, { connection: 'close' });
    // The client may have gone while its key was checked: its response has closed already and would never
    // close again to give the slot back.
    if (reply.raw.closed || request.raw.destroyed) return;
    if (inFlight >= maxInFlight) {
      throw new HttpError(429, `too many uploads in progress (at most ${maxInFlight} at once); retry in a few seconds`, {
        'retry-after': '5',
        connection: 'close',
      });
    }
    inFlight++;
    const state: UploadState = {
      blobs,
      maxRequestBytes,
      received: 0,
      unread: false,
      ended: false,
      receiving: new AbortController(),
      waiting: new Set(),
    };
    states.set(request, state);
    // The response closes exactly once, whether it was sent, failed or the client went away: the one place
    // a slot is given back and what the request received but did not store is removed.
    reply.raw.once('close', () => {
      inFlight--;
      state.ended = true;
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
}

const tooLarge = (maxMb: number, headers: Record<string, string> = {}) =>
  new HttpError(400, `body: the upload is larger than ${maxMb} MB; send fewer or smaller files per request`, headers);

export async function readMultipart(request: FastifyRequest): Promise<MultipartBody> {
  if (!request.isMultipart()) throw badRequest('body: expected multipart/form-data with one or more "files"');
  const state = states.get(request);
  if (!state) throw new Error('readMultipart: uploads are not registered on this app (registerUploads)');
  try {
    return await collectParts(request, state);
  } catch (error) {
    state.unread = true;
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
  for await (const part of request.parts()) {
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
