/**
 * Every error leaves the service as `{"error": "..."}` (section 7) with a status from the spec's table:
 * 400, 403, 404, 429, and 500 only for our own bugs. Framework and plugin errors are translated here.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Socket } from 'node:net';
import type { z } from 'zod/mini';
import { describeIssue } from '../../api/schemas';
import { isStorageBusy } from '../storage/errors';

export class HttpError extends Error {
  constructor(
    readonly statusCode: 400 | 403 | 404 | 429,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const forbidden = (message: string) => new HttpError(403, message);
export const notFound = (message: string) => new HttpError(404, message);

/**
 * The first problem of a request as its 400 names it: "field: message", "field: unknown field", or
 * "<whole>: message" when the value as a whole is wrong (a JSON array where an object belongs).
 */
export function requestIssueMessage(error: z.core.$ZodError, whole = 'body'): string {
  const issue = error.issues[0] as { code?: string; keys?: string[]; path: PropertyKey[] } | undefined;
  // Name unknown fields ourselves: the wording must not depend on which zod locale is loaded.
  if (issue?.code === 'unrecognized_keys' && issue.keys?.length) {
    const where = issue.path.length > 0 ? `${issue.path.map(String).join('.')}.` : '';
    return `${where}${issue.keys[0]}: unknown field`;
  }
  const where = issue && issue.path.length === 0 ? `${whole}: ` : '';
  return where + describeIssue(error);
}

/** Messages for errors raised by Fastify and its plugins before our handlers run. */
function translate(error: FastifyError): { status: number; message: string } | null {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { status: 400, message: 'body: malformed JSON' };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, message: 'body: empty JSON body' };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 400, message: 'body: request body too large' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return {
        status: 400,
        message: `body: unsupported content type; send application/json${error.message.includes('multipart') ? '' : ' or the documented form'}`,
      };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: 400, message: 'body: Content-Length does not match the body' };
    case 'FST_REQ_FILE_TOO_LARGE':
      return { status: 400, message: `files: a file is larger than the ${UPLOAD_LIMITS.fileSizeMb} MB limit` };
    case 'FST_FILES_LIMIT':
      return { status: 400, message: `files: at most ${UPLOAD_LIMITS.files} files per request` };
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return { status: 400, message: `body: too many form fields (at most ${UPLOAD_LIMITS.fields})` };
    case 'FST_PROTO_VIOLATION':
      return { status: 400, message: 'body: forbidden field name' };
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return { status: 400, message: 'body: expected multipart/form-data with a "files" field' };
    case 'FST_MP_PREMATURE_CLOSE':
      return { status: 400, message: 'body: the upload ended before it was complete' };
    case 'FST_ERR_VALIDATION':
      return { status: 400, message: error.message };
    default:
      return null;
  }
}

export const UPLOAD_LIMITS = {
  fileSizeMb: 50,
  files: 50,
  fields: 100,
};

export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).headers(error.headers).send({ error: error.message });
    }
    const code = (error as { code?: unknown }).code;
    if (isStorageBusy(error)) {
      // Another process held the database longer than busy_timeout: a retry will do, and our clients
      // already retry 429 after Retry-After.
      return reply.code(429).header('retry-after', '1').send({ error: 'the service is busy (its database is locked by another process); retry in a second' });
    }
    if (code === 'QFILL_STORAGE_UNAVAILABLE') {
      // The database is down or restarting: nothing was stored, and the same request will work once it is back.
      return reply
        .code(503)
        .header('retry-after', '5')
        .send({ error: `service temporarily unavailable: ${error.message}` });
    }
    const translated = translate(error as FastifyError);
    if (translated) return reply.code(translated.status).send({ error: translated.message });
    const status = (error as FastifyError).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      // Any other client error from the framework: keep it a 4xx the spec knows.
      const mapped = status === 403 || status === 404 || status === 429 ? status : 400;
      return reply.code(mapped).send({ error: error.message || 'invalid request' });
    }
    request.log.error({ err: error, method: request.method, url: request.url }, 'unhandled error');
    return reply.code(500).send({ error: `internal error; see the service log (request ${request.id})` });
  });

  app.setNotFoundHandler(notFoundHandler);
}

/** 404 for a path no route serves, naming it. */
export function notFoundHandler(request: FastifyRequest, reply: FastifyReply): void {
  const path = request.url.split('?')[0];
  reply.code(404).send({ error: `not found: ${request.method} ${path}` });
}

/** What to tell a client whose request Node's HTTP parser rejected before Fastify saw it. */
export function clientErrorMessage(code: string | undefined): string {
  if (code === 'HPE_HEADER_OVERFLOW') return 'headers: the request headers are too large';
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 'request: the request was not completed in time';
  if (code === 'HPE_INVALID_URL' || code === 'HPE_INVALID_METHOD') {
    return 'request: malformed request line; percent-encode characters outside ASCII in the URL (for example ?tab=G%C3%A9n%C3%A9ral)';
  }
  return `request: malformed HTTP request${code ? ` (${code})` : ''}`;
}

/**
 * Replaces Fastify's `clientErrorHandler`, whose body is `{"error","message","statusCode"}`: even a
 * request the HTTP parser rejects (a raw non-ASCII URL, oversized headers) gets `{"error": "..."}`.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const body = JSON.stringify({ error: clientErrorMessage(error.code) });
    socket.write(
      `HTTP/1.1 400 Bad Request\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
