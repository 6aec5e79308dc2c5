/** What every upload checks about a file before its bytes are stored. */
import { open, readFile } from 'node:fs/promises';
import { LIMITS, type FileFormat } from '../../api/schemas';
import type { BlobStore } from '../files/blobstore';
import type { UploadedFile } from '../http/multipart';
import type { NewFile, Principal } from '../storage/types';
import { contentMismatch } from './content-sniff';

export const REPOSITORY_FORMATS: Record<string, FileFormat> = {
  txt: 'txt',
  md: 'txt',
  markdown: 'txt',
  html: 'html',
  htm: 'html',
  pdf: 'pdf',
  docx: 'docx',
  xlsx: 'excel',
  // Macro-enabled workbooks are workbooks too; their macros are never run or changed.
  xlsm: 'excel',
  csv: 'excel',
};

export const QUESTIONNAIRE_FORMATS: Record<string, FileFormat> = {
  xlsx: 'excel',
  xlsm: 'excel',
  csv: 'excel',
};

/**
 * The name without any directory a client may have sent along, in NFC (macOS sends decomposed
 * accents; search compares composed ones), without control characters and without bidirectional
 * controls (`invoice\u202Etxt.exe.md` would show as "invoicedm.exe.txt").
 */
export function baseName(filename: string): string {
  const parts = filename
    .normalize('NFC')
    .replace(/[\u0000-\u001f\u007f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')
    .split(/[\\/]/);
  return (parts[parts.length - 1] ?? '').trim() || 'upload';
}

export function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return dot > 0 ? filename.slice(dot + 1).toLowerCase() : '';
}

export type FileCheck = { ok: true; name: string; ext: string; format: FileFormat } | { ok: false; name: string; reason: string };

export async function checkUpload(file: UploadedFile, formats: Record<string, FileFormat>): Promise<FileCheck> {
  const name = baseName(file.filename);
  if (name.length > LIMITS.filenameLength) {
    return { ok: false, name: name.slice(0, 60) + '…', reason: `file name longer than ${LIMITS.filenameLength} characters` };
  }
  const ext = extensionOf(name);
  const format = formats[ext];
  if (!format) {
    const supported = Object.keys(formats).join(', ');
    return { ok: false, name, reason: `unsupported file type${ext ? ` .${ext}` : ' (no extension)'}; supported: ${supported}` };
  }
  if (file.size === 0) return { ok: false, name, reason: 'empty file' };
  const mismatch = contentMismatch(ext, await sniffedBytes(file, ext));
  if (mismatch) return { ok: false, name, reason: mismatch };
  return { ok: true, name, ext, format };
}

/**
 * What content sniffing needs of a received file: the head of a text or PDF file; a whole package
 * (its central directory names and sizes the parts), at most one file of the size limit at a time.
 */
async function sniffedBytes(file: UploadedFile, ext: string): Promise<Uint8Array> {
  if (ZIP_EXTENSIONS.has(ext)) return new Uint8Array(await readFile(file.path));
  const handle = await open(file.path, 'r');
  try {
    const head = new Uint8Array(Math.min(file.size, SNIFF_BYTES));
    await handle.read(head, 0, head.byteLength, 0);
    return head;
  } finally {
    await handle.close();
  }
}

const ZIP_EXTENSIONS = new Set(['docx', 'xlsx', 'xlsm']);
/** sniffContent looks at the first 8 KiB. */
const SNIFF_BYTES = 8192;

/** An upload that passed `checkUpload`, with its received file. */
export interface AcceptedUpload {
  name: string;
  ext: string;
  format: FileFormat;
  file: UploadedFile;
}

/**
 * Stores an accepted upload's bytes and returns the file record fields every upload fills the same way;
 * the caller adds what depends on the purpose. Call it outside the store transaction: writing the blob is async.
 */
export async function storeUploadBytes(
  blobs: BlobStore,
  p: Principal,
  purpose: NewFile['purpose'],
  upload: AcceptedUpload,
): Promise<Omit<NewFile, 'document_type'>> {
  const blob = await blobs.adopt(upload.file, upload.ext);
  return {
    org_id: p.org.id,
    user_id: p.user.id,
    purpose,
    original_filename: upload.name,
    stored_name: blob.name,
    size: blob.size,
    sha256: blob.sha256,
    file_format: upload.format,
  };
}
