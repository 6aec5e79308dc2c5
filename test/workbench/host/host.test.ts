import { afterEach, describe, expect, it } from 'vitest';
import { ExcelHost, installExcelHost, type HostErrorCode } from '../../../src/workbench/host';

let uninstall: (() => void) | null = null;
afterEach(() => {
  uninstall?.();
  uninstall = null;
});

function setup(options: ConstructorParameters<typeof ExcelHost>[0] = {}): ExcelHost {
  const host = new ExcelHost(options);
  host.addSheet('Sheet1');
  host.addSheet('Other');
  uninstall = installExcelHost(host);
  return host;
}

async function expectCode(promise: Promise<unknown>, code: HostErrorCode): Promise<Error> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e as Error & { code?: string },
  );
  expect(error, `expected ${code}`).not.toBeNull();
  expect((error as { code?: string }).code).toBe(code);
  return error!;
}

describe('queueing, load and sync', () => {
  it('queues writes until sync and counts syncs and payload bytes', async () => {
    const host = setup();
    await Excel.run(async (context) => {
      const range = context.workbook.worksheets.getItem('Sheet1').getRange('A1:B1');
      range.values = [['a', 'b']];
      expect(host.getCell('Sheet1', 'A1').value).toBeNull();
      await context.sync();
      expect(host.getCell('Sheet1', 'A1').value).toBe('a');
    });
    expect(host.stats.syncs).toBe(1);
    expect(host.stats.payloadBytes[0]).toBeGreaterThan(10);
  });

  it('Excel.run sends what the batch left queued', async () => {
    const host = setup();
    await Excel.run(async (context) => {
      context.workbook.worksheets.getItem('Sheet1').getRange('A1').values = [['late']];
    });
    expect(host.getCell('Sheet1', 'A1').value).toBe('late');
    expect(host.stats.syncs).toBe(1);
  });

  it('throws PropertyNotLoaded when a property was not loaded and synced', async () => {
    setup();
    await Excel.run(async (context) => {
      const range = context.workbook.worksheets.getItem('Sheet1').getRange('A1');
      let error: unknown;
      try {
        void range.values;
      } catch (e) {
        error = e;
      }
      expect((error as { code: string }).code).toBe('PropertyNotLoaded');
      range.load('address');
      // Loaded but not yet synced: still not available.
      expect(() => range.address).toThrow(/not available/);
      await context.sync();
      expect(range.address).toBe('Sheet1!A1');
      expect(() => range.values).toThrow(expect.objectContaining({ code: 'PropertyNotLoaded' }));
    });
  });

  it('fails a load on a missing sheet at sync with ItemNotFound; OrNullObject gives a null object', async () => {
    setup();
    await expectCode(
      Excel.run(async (context) => {
        context.workbook.worksheets.getItem('Nope').getRange('A1').load('values');
        await context.sync();
      }),
      'ItemNotFound',
    );
    await Excel.run(async (context) => {
      const missing = context.workbook.worksheets.getItemOrNullObject('Nope');
      const present = context.workbook.worksheets.getItemOrNullObject('other');
      present.load('name');
      expect(() => missing.isNullObject).toThrow();
      await context.sync();
      expect(missing.isNullObject).toBe(true);
      expect(present.isNullObject).toBe(false);
      expect(present.name).toBe('Other');
    });
  });

  it('rejects a request over the payload limit whole: nothing of the batch is applied', async () => {
    const host = setup({ payloadLimitBytes: 2000 });
    await expectCode(
      Excel.run(async (context) => {
        const sheet = context.workbook.worksheets.getItem('Sheet1');
        sheet.getRange('A1').values = [['small, queued first']];
        sheet.getRange('A2').values = [['x'.repeat(3000)]];
        await context.sync();
      }),
      'RequestPayloadSizeLimitExceeded',
    );
    expect(host.getCell('Sheet1', 'A1').value).toBeNull();
    expect(host.getCell('Sheet1', 'A2').value).toBeNull();
    expect(host.stats.rejectedSyncs).toBe(1);
  });

  it('refuses a response over the limit: none of the loaded values arrive', async () => {
    const host = setup({ responseLimitBytes: 2000 });
    for (let r = 1; r <= 10; r++) host.setCell('Sheet1', `A${r}`, { value: 'z'.repeat(500) });
    let range: Excel.Range | null = null;
    const error = await expectCode(
      Excel.run(async (context) => {
        range = context.workbook.worksheets.getItem('Sheet1').getRange('A1:A10');
        range.load('values');
        await context.sync();
      }),
      'ResponsePayloadSizeLimitExceeded',
    );
    expect(error.message).toMatch(/^The response payload size has exceeded the limit\./);
    expect(() => range!.values).toThrow(expect.objectContaining({ code: 'PropertyNotLoaded' }));
    expect(host.stats.responseBytes.at(-1)).toBeGreaterThan(2000);
    await Excel.run(async (context) => {
      const small = context.workbook.worksheets.getItem('Sheet1').getRange('A1:A3');
      small.load('values');
      await context.sync();
      expect(small.values.flat()).toEqual(['z'.repeat(500), 'z'.repeat(500), 'z'.repeat(500)]);
    });
  });

  it('checks the size of a values array against the range', async () => {
    setup();
    await expectCode(
      Excel.run(async (context) => {
        context.workbook.worksheets.getItem('Sheet1').getRange('A1:B2').values = [['only one']];
        await context.sync();
      }),
      'InvalidArgument',
    );
  });
});

describe('what a written value becomes', () => {
  it('follows Excel: = makes a formula, @ format keeps text, apostrophe keeps text, numbers convert', async () => {
    const host = setup();
    host.setCell('Sheet1', 'B1', { numberFormat: '@' });
    await Excel.run(async (context) => {
      const sheet = context.workbook.worksheets.getItem('Sheet1');
      sheet.getRange('A1').values = [['=HYPERLINK("http://x","y")']];
      sheet.getRange('B1').values = [['=HYPERLINK("http://x","y")']];
      sheet.getRange('C1').values = [['\'=HYPERLINK("http://x","y")']];
      sheet.getRange('D1:H1').values = [['42', '10%', 'TRUE', '00123', '-abc']];
      await context.sync();
      const back = sheet.getRange('A1:C1');
      back.load('values, formulas, valueTypes');
      await context.sync();
      expect(back.formulas[0]).toEqual(['=HYPERLINK("http://x","y")', '=HYPERLINK("http://x","y")', '=HYPERLINK("http://x","y")']);
      // The host does not calculate: a new formula has no cached value yet.
      expect(back.values[0]).toEqual(['', '=HYPERLINK("http://x","y")', '=HYPERLINK("http://x","y")']);
    });
    expect(host.getCell('Sheet1', 'A1').formula).toBe('=HYPERLINK("http://x","y")');
    expect(host.getCell('Sheet1', 'B1')).toMatchObject({ formula: null, value: '=HYPERLINK("http://x","y")' });
    expect(host.getCell('Sheet1', 'C1')).toMatchObject({ formula: null, value: '=HYPERLINK("http://x","y")', quotePrefix: true });
    expect(['D1', 'E1', 'F1', 'G1'].map((a) => host.getCell('Sheet1', a).value)).toEqual([42, 0.1, true, 123]);
    expect(host.getCell('Sheet1', 'H1').formula).toBe('=-abc');
  });

  it('leaves a cell unchanged for null in a values array', async () => {
    const host = setup();
    host.setCell('Sheet1', 'A1', { value: 'keep' });
    await Excel.run(async (context) => {
      context.workbook.worksheets.getItem('Sheet1').getRange('A1:B1').values = [[null, 'new']] as never;
      await context.sync();
    });
    expect(host.getCell('Sheet1', 'A1').value).toBe('keep');
    expect(host.getCell('Sheet1', 'B1').value).toBe('new');
  });
});

describe('protection, merges, requirement sets', () => {
  it('denies a block write over a locked cell of a protected sheet even where the entry is null (microsoft-graph-docs #4546)', async () => {
    const host = setup();
    host.setCell('Sheet1', 'A1', { locked: false });
    host.setCell('Sheet1', 'C1', { locked: false });
    host.setCell('Sheet1', 'B1', { value: 'locked text' });
    host.protect('Sheet1');
    await expectCode(
      Excel.run(async (context) => {
        context.workbook.worksheets.getItem('Sheet1').getRange('A1:C1').values = [['a', null, 'c']] as never;
        await context.sync();
      }),
      'AccessDenied',
    );
    expect(host.getCell('Sheet1', 'A1').value).toBeNull();
    expect(host.getCell('Sheet1', 'B1').value).toBe('locked text');
  });

  it('denies writes to locked cells and formatting on a protected sheet, allows unlocked cells', async () => {
    const host = setup();
    host.setCell('Sheet1', 'B2', { locked: false });
    host.protect('Sheet1');
    const denied = await expectCode(
      Excel.run(async (context) => {
        context.workbook.worksheets.getItem('Sheet1').getRange('A2').values = [['no']];
        await context.sync();
      }),
      'AccessDenied',
    );
    // Excel's own words; the host's detail is in debugInfo only.
    expect(denied.message).toBe('You cannot perform the requested operation.');
    expect((denied as unknown as { debugInfo: { details: string } }).debugInfo.details).toMatch(/Sheet1!A2 is locked/);
    await Excel.run(async (context) => {
      const sheet = context.workbook.worksheets.getItem('Sheet1');
      sheet.getRange('B2').values = [['yes']];
      sheet.protection.load('protected');
      await context.sync();
      expect(sheet.protection.protected).toBe(true);
    });
    expect(host.getCell('Sheet1', 'B2').value).toBe('yes');
    await expectCode(
      Excel.run(async (context) => {
        context.workbook.worksheets.getItem('Sheet1').getRange('B2').format.fill.color = '#FF0000';
        await context.sync();
      }),
      'AccessDenied',
    );
  });

  it('refuses to write into the inside of a merged area and lists merged areas', async () => {
    const host = setup();
    host.merge('Sheet1', 'C5:E5');
    await expectCode(
      Excel.run(async (context) => {
        context.workbook.worksheets.getItem('Sheet1').getRange('D5').values = [['x']];
        await context.sync();
      }),
      'InvalidOperation',
    );
    await Excel.run(async (context) => {
      const sheet = context.workbook.worksheets.getItem('Sheet1');
      sheet.getRange('C5').values = [['anchor']];
      const areas = sheet.getRange('A1:F9').getMergedAreasOrNullObject();
      areas.load('address');
      const none = sheet.getRange('A1').getMergedAreasOrNullObject();
      none.load('address');
      await context.sync();
      expect(areas.address).toBe('Sheet1!C5:E5');
      expect(none.isNullObject).toBe(true);
    });
    // Like Excel (office-js #3611): a merge whose top-left cell is outside the range is not listed.
    await Excel.run(async (context) => {
      const inside = context.workbook.worksheets.getItem('Sheet1').getRange('D5:F9').getMergedAreasOrNullObject();
      inside.load('address');
      await context.sync();
      expect(inside.isNullObject).toBe(true);
    });
    expect(host.getCell('Sheet1', 'C5').value).toBe('anchor');
  });

  it('answers isSetSupported from the configured version and fails newer APIs with ApiNotFound', async () => {
    const host = setup({ excelApiVersion: '1.10' });
    expect(Office.context.requirements.isSetSupported('ExcelApi', '1.10')).toBe(true);
    expect(Office.context.requirements.isSetSupported('ExcelApi', '1.18')).toBe(false);
    expect(Office.context.requirements.isSetSupported('ExcelApi', '1.9')).toBe(true);
    await expectCode(
      Excel.run(async (context) => {
        context.workbook.worksheets.getItem('Sheet1').notes.add('A1', 'note');
        await context.sync();
      }),
      'ApiNotFound',
    );
    await Excel.run(async (context) => {
      context.workbook.comments.add('Sheet1!A1', 'comment');
      await context.sync();
    });
    expect(host.snapshot().sheets[0]!.comments).toEqual({ A1: 'comment' });
  });

  it('counts suspended calculation and honours mergeUndoGroup on 1.20', async () => {
    const host = setup({ excelApiVersion: '1.20' });
    let merged = false;
    await Excel.run({ mergeUndoGroup: true } as Excel.RunOptions, async (context) => {
      merged = (context as unknown as { mergeUndoGroup: boolean }).mergeUndoGroup;
      context.application.suspendApiCalculationUntilNextSync();
      await context.sync();
    });
    expect(merged).toBe(true);
    expect(host.stats.calculationSuspensions).toBe(1);
  });
});

describe('notes, comments, selection, file', () => {
  it('adds, reads and deletes notes (1.18)', async () => {
    const host = setup();
    await Excel.run(async (context) => {
      const sheet = context.workbook.worksheets.getItem('Sheet1');
      sheet.notes.add('B3', 'Sources: a.pdf p.1');
      await context.sync();
      const note = sheet.notes.getItem('B3');
      note.load('content');
      const missing = sheet.notes.getItemOrNullObject('B4');
      await context.sync();
      expect(note.content).toBe('Sources: a.pdf p.1');
      expect(missing.isNullObject).toBe(true);
      note.delete();
      await context.sync();
    });
    expect(host.sheet('Sheet1').notes.size).toBe(0);
  });

  it('selects, activates and raises selection events after the request', async () => {
    const host = setup();
    const seen: unknown[] = [];
    await Excel.run(async (context) => {
      context.workbook.onSelectionChanged.add(async (e) => void seen.push((e as unknown as { type: string }).type));
      await context.sync();
    });
    await Excel.run(async (context) => {
      context.workbook.worksheets.getItem('Other').getRange('D4').select();
      await context.sync();
      expect(seen).toEqual([]);
      const r = context.workbook.getSelectedRange();
      r.load('address');
      await context.sync();
      expect(r.address).toBe('Other!D4');
    });
    await new Promise((r) => setTimeout(r, 5));
    expect(seen).toEqual(['WorkbookSelectionChanged']);
    host.userSelect('Sheet1', 'A9');
    await new Promise((r) => setTimeout(r, 5));
    expect(seen).toHaveLength(2);
    expect(host.selection()).toEqual({ sheet: 'Sheet1', address: 'A9' });
  });

  it('serves file bytes in slices, one open file at a time', async () => {
    const host = setup({ url: 'https://x/y/Book.xlsx', partitionKey: 'p1' });
    host.fileBytes = Uint8Array.from({ length: 10 }, (_, i) => i);
    expect(Office.context.document.url).toBe('https://x/y/Book.xlsx');
    expect(Office.context.partitionKey).toBe('p1');
    const file = await new Promise<Office.File>((resolve) =>
      Office.context.document.getFileAsync(Office.FileType.Compressed, { sliceSize: 4 }, (r) => resolve(r.value)),
    );
    expect(file.sliceCount).toBe(3);
    const second = await new Promise<Office.AsyncResult<Office.File>>((resolve) => Office.context.document.getFileAsync(Office.FileType.Compressed, resolve));
    expect(second.status).toBe('failed');
    const slice = await new Promise<Office.Slice>((resolve) => file.getSliceAsync(2, (r) => resolve(r.value)));
    expect(slice.data).toEqual([8, 9]);
    await new Promise((resolve) => file.closeAsync(resolve));
    expect(host.stats).toMatchObject({ filesOpened: 1, filesClosed: 1 });
  });
});
