import { describe, expect, it } from 'vitest';
import { fileNameFromUrl, readOpenWorkbook } from '../../src/excel/read-file';
import { setupHost } from './helpers';

const bytes = (n: number) => Uint8Array.from({ length: n }, (_, i) => (i * 7) % 256);

describe('readOpenWorkbook', () => {
  it('reassembles slices by index even when they arrive out of order, reports progress, closes the file', async () => {
    const host = setupHost(['S'], { url: 'https://contoso.sharepoint.com/sites/x/Security%20Review.xlsx' });
    host.fileBytes = bytes(10_000);
    // Later slices answer first.
    host.fileFaults = { sliceDelayMs: (i) => (10 - i) * 3 };
    const progress: number[] = [];
    const result = await readOpenWorkbook({ sliceSize: 1024, concurrency: 4, onProgress: (p) => progress.push(p.loaded) });
    expect(result.bytes).toEqual(host.fileBytes);
    expect(result.fileName).toBe('Security Review.xlsx');
    expect(progress[0]).toBe(0);
    expect(progress[progress.length - 1]).toBe(10_000);
    expect(host.stats).toMatchObject({ filesOpened: 1, filesClosed: 1 });
  });

  it('closes the file when a slice fails and says which part failed', async () => {
    const host = setupHost(['S']);
    host.fileBytes = bytes(5000);
    host.fileFaults = { failSlice: 2 };
    await expect(readOpenWorkbook({ sliceSize: 1000 })).rejects.toThrow(/part 3 of 5/);
    expect(host.stats).toMatchObject({ filesOpened: 1, filesClosed: 1 });
    // The file was released: the next read works.
    host.fileFaults = {};
    await expect(readOpenWorkbook({ sliceSize: 1000 })).resolves.toMatchObject({ bytes: host.fileBytes });
  });

  it('refuses a workbook over the size limit with a clear message, and closes it', async () => {
    const host = setupHost(['S']);
    host.fileBytes = bytes(3 * 1024 * 1024);
    await expect(readOpenWorkbook({ maxBytes: 2 * 1024 * 1024 })).rejects.toThrow(/3\.0 MB; the limit is 2\.0 MB/);
    expect(host.stats.filesClosed).toBe(1);
  });

  it('surfaces getFileAsync errors clearly', async () => {
    const host = setupHost(['S']);
    host.fileBytes = bytes(10);
    host.fileFaults = { failOpen: 'The document is busy' };
    await expect(readOpenWorkbook()).rejects.toThrow(/Excel could not hand over the workbook: The document is busy/);
  });

  it('names the file from the document URL', () => {
    expect(fileNameFromUrl(null)).toBe('workbook.xlsx');
    expect(fileNameFromUrl('https://x/y/CAIQ%20v4.xlsx?web=1')).toBe('CAIQ v4.xlsx');
    expect(fileNameFromUrl('C:\\Users\\me\\Book1')).toBe('Book1.xlsx');
  });
});
