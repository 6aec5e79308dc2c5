/**
 * Turning arguments into URLs and bodies: base URL normalisation, path ids, query strings,
 * form-encoded and multipart bodies. Every rejection is an `invalid_argument` ApiError naming the
 * offending value, raised before any request is made.
 */
import type { z } from 'zod/mini';
import { describeIssue } from './schemas';
import { invalidArgument } from './errors';

export type UploadFile = { name: string; data: Blob | Uint8Array; type?: string };

const API_PREFIX = 'api/v2/';

/**
 * 'https://h', 'https://h/', 'https://h/api/v2' and 'https://h/api/v2/' all become 'https://h/api/v2/';
 * 'https://h/tenant' becomes 'https://h/tenant/api/v2/'. A relative base ('/' or '') resolves against
 * the page's address in a browser, so the task pane can talk to its own origin.
 */
export function normaliseBaseUrl(raw: string): string {
  const text = typeof raw === 'string' ? raw.trim() : '';
  if (!text) throw invalidArgument('The base URL is empty; enter the address of the service, e.g. https://example.com.');
  let url: URL;
  try {
    const page = (globalThis as { location?: { href?: string } }).location?.href;
    url = page ? new URL(text, page) : new URL(text);
  } catch {
    throw invalidArgument(`The base URL ${JSON.stringify(raw)} is not a valid address; use e.g. https://example.com.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw invalidArgument(`The base URL ${JSON.stringify(raw)} must start with https:// or http://.`);
  }
  if (url.username || url.password) {
    throw invalidArgument('The base URL must not contain a user name or password; put the key in the API key setting.');
  }
  let path = url.pathname.replace(/\/+$/, '') + '/';
  if (!path.endsWith('/' + API_PREFIX)) path += API_PREFIX;
  return `${url.origin}${path}`;
}

/** Questionnaire and repository-file ids: a non-negative integer or a string of digits only. */
export function digitsId(id: unknown, what: string): string {
  if (typeof id === 'number' && Number.isSafeInteger(id) && id >= 0) return String(id);
  if (typeof id === 'string' && /^\d+$/.test(id)) return id;
  throw invalidArgument(`The ${what} id must be a non-negative integer or a string of digits; got ${show(id)}.`);
}

/** Chat session ids: a positive integer. */
export function sessionId(id: unknown): string {
  if (typeof id === 'number' && Number.isSafeInteger(id) && id > 0) return String(id);
  throw invalidArgument(`The chat session id must be a positive integer; got ${show(id)}.`);
}

function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value == null) return String(value);
  return typeof value;
}

/** Validates caller input against a contract schema; returns the parsed (trimmed, coerced) value. */
export function checkInput<S extends z.ZodMiniType>(schema: S, value: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(value ?? {});
  if (!parsed.success) throw invalidArgument(`Invalid ${what}: ${describeIssue(parsed.error)}.`);
  return parsed.data;
}

type Scalar = string | number | boolean;
type FieldValue = Scalar | readonly Scalar[] | null | undefined;

/** Each defined field as [name, text] pairs: arrays repeat the name, booleans are 'true'/'false'. */
export function fieldPairs(fields: Record<string, FieldValue>): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) pairs.push([name, String(item)]);
  }
  return pairs;
}

export function withQuery(url: string, query: Record<string, FieldValue>): string {
  const search = new URLSearchParams(fieldPairs(query)).toString();
  return search ? `${url}?${search}` : url;
}

export function formBody(fields: Record<string, FieldValue>): URLSearchParams {
  return new URLSearchParams(fieldPairs(fields));
}

// Servers that sniff the declared type should see the real one even when the caller gave bytes only.
const TYPES: Record<string, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  xlsm: 'application/vnd.ms-excel.sheet.macroEnabled.12',
  xls: 'application/vnd.ms-excel',
  csv: 'text/csv',
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  doc: 'application/msword',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  txt: 'text/plain',
  md: 'text/markdown',
  html: 'text/html',
  htm: 'text/html',
  xml: 'application/xml',
  json: 'application/json',
};

function fileBlob(file: UploadFile, index: number): Blob {
  if (!file || typeof file !== 'object') throw invalidArgument(`Upload file #${index + 1} is not an object.`);
  if (typeof file.name !== 'string' || !file.name.trim()) {
    throw invalidArgument(`Upload file #${index + 1} has no name; give each file its file name.`);
  }
  const ext = file.name.toLowerCase().match(/\.([a-z0-9]+)$/)?.[1] ?? '';
  const data = file.data;
  if (data instanceof Blob) {
    const type = file.type ?? (data.type || TYPES[ext] || 'application/octet-stream');
    return type === data.type ? data : new Blob([data], { type });
  }
  if (data instanceof Uint8Array) {
    // Blob needs an ArrayBuffer-backed view; a view on shared memory is copied.
    const bytes = data.buffer instanceof ArrayBuffer ? (data as Uint8Array<ArrayBuffer>) : new Uint8Array(data);
    return new Blob([bytes], { type: file.type ?? TYPES[ext] ?? 'application/octet-stream' });
  }
  throw invalidArgument(`Upload file ${JSON.stringify(file.name)} has no data; pass a Blob or a Uint8Array.`);
}

/** Fields first, then files: a streaming server then knows the options before the bytes arrive. */
export function multipartBody(files: readonly UploadFile[], fields: Record<string, FieldValue>): FormData {
  if (!Array.isArray(files) || files.length === 0) throw invalidArgument('Choose at least one file to upload.');
  const blobs = files.map(fileBlob);
  const form = new FormData();
  for (const [name, value] of fieldPairs(fields)) form.append(name, value);
  blobs.forEach((blob, i) => form.append('files', blob, files[i]!.name.trim()));
  return form;
}
