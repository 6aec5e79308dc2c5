/**
 * The open workbook as .xlsx bytes: `getFileAsync(Compressed)` in slices of up to 4 MB, put back
 * together by slice index, and the file ALWAYS closed (Office allows one open file at a time, so a
 * file left open breaks every later read until the pane reloads).
 */
import type { ReadProgress } from './types';

export const DEFAULT_MAX_FILE_BYTES = 50 * 1024 * 1024;
/** Office's largest slice. */
export const MAX_SLICE_BYTES = 4 * 1024 * 1024;

export interface ReadFileOptions {
  /** Refuse larger workbooks with a clear message. Default 50 MB. */
  maxBytes?: number;
  sliceSize?: number;
  onProgress?: (p: ReadProgress) => void;
  /** Slices requested at once. Default 1: some Office builds mishandle concurrent getSliceAsync. */
  concurrency?: number;
}

export class ReadFileError extends Error {
  override name = 'ReadFileError';
}

interface OfficeFile {
  size: number;
  sliceCount: number;
  getSliceAsync(index: number, callback: (r: Office.AsyncResult<Office.Slice>) => void): void;
  closeAsync(callback?: (r: Office.AsyncResult<void>) => void): void;
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function describe(error: Office.Error | undefined): string {
  if (!error) return 'unknown error';
  return `${error.message || error.name} (code ${error.code})`;
}

function toBytes(data: unknown): Uint8Array {
  if (data instanceof Uint8Array) return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (Array.isArray(data)) return Uint8Array.from(data as number[]);
  throw new ReadFileError('Excel returned a slice of the workbook in an unexpected form.');
}

function openFile(sliceSize: number): Promise<OfficeFile> {
  return new Promise((resolve, reject) => {
    Office.context.document.getFileAsync(Office.FileType.Compressed, { sliceSize }, (result) => {
      if (result.status === Office.AsyncResultStatus.Succeeded) resolve(result.value as unknown as OfficeFile);
      else reject(new ReadFileError(`Excel could not hand over the workbook: ${describe(result.error)}.`));
    });
  });
}

function getSlice(file: OfficeFile, index: number): Promise<{ index: number; bytes: Uint8Array }> {
  return new Promise((resolve, reject) => {
    file.getSliceAsync(index, (result) => {
      if (result.status !== Office.AsyncResultStatus.Succeeded) {
        reject(new ReadFileError(`Reading part ${index + 1} of ${file.sliceCount} of the workbook failed: ${describe(result.error)}.`));
        return;
      }
      try {
        const slice = result.value;
        resolve({ index: typeof slice.index === 'number' ? slice.index : index, bytes: toBytes(slice.data) });
      } catch (e) {
        reject(e);
      }
    });
  });
}

function closeFile(file: OfficeFile): Promise<void> {
  return new Promise((resolve) => {
    try {
      file.closeAsync(() => resolve());
    } catch {
      resolve();
    }
  });
}

/** The workbook's file name from its URL, or `workbook.xlsx` for an unsaved one. */
export function fileNameFromUrl(url: string | null | undefined): string {
  if (!url) return 'workbook.xlsx';
  const last = url.split(/[\\/]/).filter(Boolean).pop() ?? '';
  let name = last.split(/[?#]/)[0] ?? '';
  try {
    name = decodeURIComponent(name);
  } catch {
    // keep the raw name
  }
  if (!name) return 'workbook.xlsx';
  return /\.xls[xmb]?$/i.test(name) ? name : `${name}.xlsx`;
}

export async function readOpenWorkbook(options: ReadFileOptions = {}): Promise<{ bytes: Uint8Array; fileName: string }> {
  if (typeof Office === 'undefined' || !Office.context?.document?.getFileAsync) {
    throw new ReadFileError('This Excel cannot hand over the workbook file (getFileAsync is not available).');
  }
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_FILE_BYTES;
  const sliceSize = Math.min(options.sliceSize ?? MAX_SLICE_BYTES, MAX_SLICE_BYTES);
  const concurrency = Math.max(1, options.concurrency ?? 1);
  const file = await openFile(sliceSize);
  try {
    if (file.size > maxBytes) {
      throw new ReadFileError(`The workbook is ${megabytes(file.size)}; the limit is ${megabytes(maxBytes)}. Remove unused sheets or images and try again.`);
    }
    const parts: (Uint8Array | undefined)[] = new Array(file.sliceCount);
    let loaded = 0;
    options.onProgress?.({ loaded, total: file.size });
    let next = 0;
    const worker = async () => {
      while (next < file.sliceCount) {
        const wanted = next++;
        const { index, bytes } = await getSlice(file, wanted);
        if (index < 0 || index >= file.sliceCount || parts[index]) {
          throw new ReadFileError(`Excel returned part ${index + 1} of the workbook twice or out of range.`);
        }
        parts[index] = bytes;
        loaded += bytes.length;
        options.onProgress?.({ loaded, total: file.size });
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, file.sliceCount) }, worker));
    if (loaded !== file.size) throw new ReadFileError(`The workbook arrived incomplete: ${loaded} of ${file.size} bytes.`);
    const out = new Uint8Array(file.size);
    let offset = 0;
    for (const part of parts) {
      out.set(part!, offset);
      offset += part!.length;
    }
    return { bytes: out, fileName: fileNameFromUrl(Office.context.document.url) };
  } finally {
    await closeFile(file);
  }
}
