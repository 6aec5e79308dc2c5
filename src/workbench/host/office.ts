/**
 * The `Office` global of the in-memory host: requirement sets, document url, partition key,
 * getFileAsync (Compressed, sliced) serving the workbook as it is now, selection events and
 * document settings (counted, so tests can prove nothing is written there during a fill).
 */
import type { ExcelHost } from './host';

export const FILE_TYPE = { Compressed: 'compressed', Pdf: 'pdf', Text: 'text' } as const;
export const ASYNC_STATUS = { Succeeded: 'succeeded', Failed: 'failed' } as const;
const MAX_SLICE = 4 * 1024 * 1024;

interface AsyncResult<T> {
  status: 'succeeded' | 'failed';
  value: T;
  error?: { code: number; name: string; message: string };
  asyncContext?: unknown;
}

type Callback<T> = (result: AsyncResult<T>) => void;

function later(ms: number, f: () => void): void {
  setTimeout(f, ms);
}

function failed<T>(code: number, name: string, message: string): AsyncResult<T> {
  return { status: 'failed', value: undefined as T, error: { code, name, message } };
}

export function createOfficeNamespace(host: ExcelHost): Record<string, unknown> {
  const document = {
    get url() {
      return host.url;
    },
    mode: 'readWrite',
    getFileAsync(fileType: string, optionsOrCallback?: { sliceSize?: number } | Callback<unknown>, maybeCallback?: Callback<unknown>) {
      const callback = (typeof optionsOrCallback === 'function' ? optionsOrCallback : maybeCallback) as Callback<unknown>;
      const options = typeof optionsOrCallback === 'object' && optionsOrCallback ? optionsOrCallback : {};
      const sliceSize = options.sliceSize ?? MAX_SLICE;
      later(0, async () => {
        if (fileType !== FILE_TYPE.Compressed)
          return callback(failed(5001, 'Internal Error', `The host serves only Office.FileType.Compressed, not ${fileType}.`));
        if (host.fileFaults.failOpen) return callback(failed(5001, 'Internal Error', host.fileFaults.failOpen));
        if (host.openFile) return callback(failed(11000, 'File Error', 'Only one file can be open at a time: close the previous file first.'));
        if (!host.fileBytes && !host.currentFile) return callback(failed(5001, 'Internal Error', 'The host has no file bytes to serve.'));
        if (!(sliceSize > 0) || sliceSize > MAX_SLICE) return callback(failed(11001, 'Invalid slice size', `sliceSize must be between 1 and ${MAX_SLICE}.`));
        let bytes: Uint8Array;
        try {
          bytes = host.currentFile ? await host.currentFile() : host.fileBytes!;
        } catch (e) {
          return callback(failed(5001, 'Internal Error', `The workbook could not be written: ${e instanceof Error ? e.message : String(e)}`));
        }
        if (host.openFile) return callback(failed(11000, 'File Error', 'Only one file can be open at a time: close the previous file first.'));
        let closed = false;
        const file = {
          size: bytes.length,
          sliceCount: Math.max(1, Math.ceil(bytes.length / sliceSize)),
          getSliceAsync(index: number, cb: Callback<{ data: number[]; index: number; size: number }>) {
            const delay = host.fileFaults.sliceDelayMs?.(index) ?? 0;
            later(delay, () => {
              if (closed) return cb(failed(11002, 'File Error', 'The file has been closed.'));
              if (index < 0 || index >= file.sliceCount) return cb(failed(11003, 'Invalid slice index', `No slice ${index}.`));
              if (host.fileFaults.failSlice === index) return cb(failed(5001, 'Internal Error', `Reading slice ${index} failed.`));
              const chunk = bytes.subarray(index * sliceSize, Math.min(bytes.length, (index + 1) * sliceSize));
              // Office hands slices over as plain arrays of byte values.
              cb({ status: 'succeeded', value: { data: Array.from(chunk), index, size: chunk.length } });
            });
          },
          closeAsync(cb?: Callback<void>) {
            later(0, () => {
              if (!closed) {
                closed = true;
                host.stats.filesClosed += 1;
                if (host.openFile === file) host.openFile = null;
              }
              cb?.({ status: 'succeeded', value: undefined });
            });
          },
        };
        host.openFile = file;
        host.stats.filesOpened += 1;
        callback({ status: 'succeeded', value: file });
      });
    },
    addHandlerAsync(eventType: string, handler: (args: unknown) => void, callback?: Callback<void>) {
      if (eventType === 'documentSelectionChanged') host.documentSelectionHandlers.add(handler);
      later(0, () => callback?.({ status: 'succeeded', value: undefined }));
    },
    removeHandlerAsync(eventType: string, options?: { handler?: (args: unknown) => void } | Callback<void>, callback?: Callback<void>) {
      const handler = typeof options === 'object' && options ? options.handler : undefined;
      if (eventType === 'documentSelectionChanged') {
        if (handler) host.documentSelectionHandlers.delete(handler);
        else host.documentSelectionHandlers.clear();
      }
      const cb = typeof options === 'function' ? options : callback;
      later(0, () => cb?.({ status: 'succeeded', value: undefined }));
    },
    settings: {
      get: (name: string) => host.settings.get(name) ?? null,
      set: (name: string, value: unknown) => {
        host.stats.settingsWrites += 1;
        host.settings.set(name, value);
      },
      remove: (name: string) => {
        host.stats.settingsWrites += 1;
        host.settings.delete(name);
      },
      saveAsync: (callback?: Callback<void>) => later(0, () => callback?.({ status: 'succeeded', value: undefined })),
    },
  };

  return {
    context: {
      get partitionKey() {
        return host.partitionKey;
      },
      host: 'Excel',
      platform: 'OfficeOnline',
      requirements: { isSetSupported: (name: string, version?: string) => host.isSetSupported(name, version) },
      document,
      diagnostics: { host: 'Excel', platform: 'OfficeOnline', version: `in-memory (ExcelApi ${host.excelApiVersion})` },
    },
    FileType: FILE_TYPE,
    AsyncResultStatus: ASYNC_STATUS,
    EventType: { DocumentSelectionChanged: 'documentSelectionChanged' },
    HostType: { Excel: 'Excel' },
    PlatformType: { OfficeOnline: 'OfficeOnline' },
    onReady: (callback?: (info: { host: string; platform: string }) => void) => {
      const info = { host: 'Excel', platform: 'OfficeOnline' };
      callback?.(info);
      return Promise.resolve(info);
    },
  };
}
