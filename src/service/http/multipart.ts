/**
 * Reads a multipart upload into memory (bounded by UPLOAD_LIMITS) and turns its text fields into a
 * plain object the zod upload schemas can check: repeated fields and `name[]` become arrays, JSON
 * arrays/objects are parsed, booleans read from the usual spellings.
 */
import type { FastifyRequest } from 'fastify';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './depth';
import { badRequest, HttpError } from './errors';

export interface UploadedFile {
  filename: string;
  mimetype: string;
  bytes: Buffer;
}

export interface MultipartBody {
  files: UploadedFile[];
  fields: Map<string, string[]>;
}

const FILE_FIELDS = new Set(['files', 'files[]', 'file']);

export async function readMultipart(request: FastifyRequest): Promise<MultipartBody> {
  if (!request.isMultipart()) throw badRequest('body: expected multipart/form-data with one or more "files"');
  try {
    return await collectParts(request);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (error instanceof HttpError || (typeof code === 'string' && code.startsWith('FST_'))) throw error;
    // busboy's own errors (no boundary, truncated part headers) are a malformed request, not our fault.
    throw badRequest(`body: malformed multipart body (${error instanceof Error ? error.message : String(error)})`);
  }
}

async function collectParts(request: FastifyRequest): Promise<MultipartBody> {
  const files: UploadedFile[] = [];
  const fields = new Map<string, string[]>();
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      if (!FILE_FIELDS.has(part.fieldname)) {
        await part.toBuffer();
        throw badRequest(`${part.fieldname}: unexpected file field; send files in the "files" field`);
      }
      const bytes = await part.toBuffer();
      files.push({ filename: part.filename || 'upload', mimetype: part.mimetype, bytes });
    } else if (FILE_FIELDS.has(part.fieldname)) {
      throw badRequest(`${part.fieldname}: expected a file but got a text field (a part without a filename); with curl use -F files=@path`);
    } else {
      const name = part.fieldname.endsWith('[]') ? part.fieldname.slice(0, -2) : part.fieldname;
      const list = fields.get(name) ?? [];
      list.push(typeof part.value === 'string' ? part.value : String(part.value));
      fields.set(name, list);
    }
  }
  return { files, fields };
}

export interface FieldKinds {
  arrays?: string[];
  /** Arrays of integers may also come as `1,2,3`. */
  intArrays?: string[];
  booleans?: string[];
  objects?: string[];
}

const TRUE = new Set(['true', '1', 'yes', 'on']);
const FALSE = new Set(['false', '0', 'no', 'off']);

export function formFieldsToObject(fields: Map<string, string[]>, kinds: FieldKinds): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const arrays = new Set([...(kinds.arrays ?? []), ...(kinds.intArrays ?? [])]);
  const intArrays = new Set(kinds.intArrays ?? []);
  for (const [name, values] of fields) {
    if (arrays.has(name)) {
      const items: unknown[] = [];
      for (const v of values) {
        const trimmed = v.trim();
        if (trimmed.startsWith('[')) {
          try {
            const parsed: unknown = JSON.parse(trimmed);
            if (Array.isArray(parsed)) {
              items.push(...parsed);
              continue;
            }
          } catch {
            throw badRequest(`${name}: not a valid JSON array`);
          }
        }
        if (intArrays.has(name)) items.push(...trimmed.split(',').map((s) => s.trim()).filter((s) => s !== ''));
        else items.push(v);
      }
      out[name] = items;
    } else if (kinds.booleans?.includes(name)) {
      const v = values.length === 1 ? values[0]!.trim().toLowerCase() : null;
      out[name] = v !== null && TRUE.has(v) ? true : v !== null && FALSE.has(v) ? false : values.length === 1 ? values[0] : values;
    } else if (kinds.objects?.includes(name)) {
      if (values.length !== 1) throw badRequest(`${name}: given more than once`);
      let parsed: unknown;
      try {
        parsed = JSON.parse(values[0]!);
      } catch {
        throw badRequest(`${name}: not valid JSON`);
      }
      if (nestsDeeperThan(parsed, MAX_JSON_DEPTH)) throw badRequest(`${name}: nested deeper than ${MAX_JSON_DEPTH} levels`);
      out[name] = parsed;
    } else {
      out[name] = values.length === 1 ? values[0] : values;
    }
  }
  return out;
}
