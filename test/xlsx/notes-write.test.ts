// Notes written into a package: the comments part, the VML drawing, the relationships, <legacyDrawing> and the
// content types, read back by our reader and by ExcelJS; a sheet's existing notes kept as they were written.
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { XlsxPackage } from '../../src/xlsx';
import { comparePackages } from '../../src/xlsx/compare';
import { noteTextXml, relativeTarget } from '../../src/xlsx/notes-write';
import { sheetContents } from '../../src/xlsx/sheet-contents';

async function book(withNote: boolean): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Questions');
  ws.getCell('A1').value = 'Question';
  ws.getCell('B1').value = 'Answer';
  ws.getCell('A2').value = 'Do you encrypt data at rest?';
  ws.getCell('A3').value = 'Do you run backups?';
  ws.getCell('B3').dataValidation = { type: 'list', allowBlank: true, formulae: ['"Yes,No"'] };
  // Answered cells: ExcelJS (a reader the tests use) sees notes only on cells it has; Excel and LibreOffice on any.
  ws.getCell('B2').value = 'Yes';
  ws.getCell('B3').value = 'No';
  if (withNote) ws.getCell('A2').note = 'Kept as written';
  wb.addWorksheet('Other').getCell('A1').value = 'untouched';
  return new Uint8Array((await wb.xlsx.writeBuffer()) as ArrayBuffer);
}

const notesOf = (bytes: Uint8Array, tab = 'Questions') => Object.fromEntries(sheetContents(XlsxPackage.open(bytes), tab).notes.map((n) => [n.address, n.text]));

/** ExcelJS's reading of the notes on the given cells (it walks only cells with values, so they are named). */
async function excelJsNotes(bytes: Uint8Array, tab = 'Questions', cells = ['A1', 'A2', 'B2', 'B3']): Promise<Record<string, string>> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as never);
  const out: Record<string, string> = {};
  for (const address of cells) {
    const note = wb.getWorksheet(tab)!.getCell(address).note as string | { texts?: { text: string }[] } | undefined;
    if (note) out[address] = typeof note === 'string' ? note : (note.texts ?? []).map((t) => t.text).join('');
  }
  return out;
}

describe('notes written into a package', () => {
  it('gives a sheet without notes its first ones: new parts added, the sheet changed only by <legacyDrawing>', async () => {
    const original = await book(false);
    const pkg = XlsxPackage.open(original);
    const result = pkg.applyWrites([], {
      notes: [
        { tab: 'Questions', address: 'B2', text: 'Source: security-overview.pdf, p. 3', author: 'Questionnaire Filler' },
        { tab: 'Questions', address: 'B3', text: 'Source: backup policy\nsecond line', author: 'Questionnaire Filler' },
      ],
    });
    expect(result.addedParts.sort()).toEqual(['xl/comments1.xml', 'xl/drawings/vmlDrawing1.vml', 'xl/worksheets/_rels/sheet1.xml.rels'].sort());
    expect(notesOf(result.bytes)).toEqual({ B2: 'Source: security-overview.pdf, p. 3', B3: 'Source: backup policy\nsecond line' });
    expect(await excelJsNotes(result.bytes)).toEqual({ B2: 'Source: security-overview.pdf, p. 3', B3: 'Source: backup policy\nsecond line' });

    const diff = comparePackages(original, result.bytes);
    expect(diff.removedParts).toEqual([]);
    expect(diff.changedParts.sort()).toEqual(['[Content_Types].xml', 'xl/worksheets/sheet1.xml']);
    expect(diff.cellChanges).toEqual([]);
    const before = pkg.xmlText('xl/worksheets/sheet1.xml');
    const after = XlsxPackage.open(result.bytes).xmlText('xl/worksheets/sheet1.xml');
    expect(after.replace(/<legacyDrawing [^>]*\/>/, '')).toBe(before);
    // The content types name the new parts, and nothing else in them changed.
    const types = XlsxPackage.open(result.bytes).xmlText('[Content_Types].xml');
    expect(types).toContain('<Override PartName="/xl/comments1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.comments+xml"/>');
    expect(types).toMatch(/<Default Extension="vml" ContentType="application\/vnd\.openxmlformats-officedocument\.vmlDrawing"\/>/);
    // The VML gives each note a hidden box on its cell (row and column counted from 0).
    const vml = XlsxPackage.open(result.bytes).xmlText('xl/drawings/vmlDrawing1.vml');
    expect(vml.match(/ObjectType="Note"/g)).toHaveLength(2);
    expect(vml).toContain('<x:Row>1</x:Row><x:Column>1</x:Column>');
  });

  it("keeps a sheet's existing notes as written, changes one, adds one and removes one", async () => {
    const original = await book(true);
    const pkg = XlsxPackage.open(original);
    const commentsPath = pkg.partNames().find((p) => /comments\d*\.xml$/.test(p))!;
    const existing = /<comment [\s\S]*?<\/comment>/.exec(pkg.xmlText(commentsPath))![0];
    const added = pkg.applyWrites([], { notes: [{ tab: 'Questions', address: 'B3', text: 'New note', author: 'Analyst' }] });
    expect(added.addedParts).toEqual([]);
    expect(notesOf(added.bytes)).toEqual({ A2: 'Kept as written', B3: 'New note' });
    expect(await excelJsNotes(added.bytes)).toEqual({ A2: 'Kept as written', B3: 'New note' });
    expect(XlsxPackage.open(added.bytes).xmlText(commentsPath)).toContain(existing);

    const changed = XlsxPackage.open(added.bytes).applyWrites([], {
      notes: [
        { tab: 'Questions', address: 'A2', text: 'Changed', author: 'Analyst' },
        { tab: 'Questions', address: 'B3', text: null, author: 'Analyst' },
      ],
    });
    expect(notesOf(changed.bytes)).toEqual({ A2: 'Changed' });
    expect(await excelJsNotes(changed.bytes)).toEqual({ A2: 'Changed' });
    const vml = XlsxPackage.open(changed.bytes)
      .partNames()
      .filter((p) => p.endsWith('.vml'))
      .map((p) => XlsxPackage.open(changed.bytes).xmlText(p))
      .join('');
    expect(vml.match(/ObjectType="Note"/g)).toHaveLength(1);
  });

  it('carries any text: markup characters, control characters, a literal _x0041_', async () => {
    const text = 'a < b & "c" > d\ttab\u0001bell _x0041_ end';
    const out = XlsxPackage.open(await book(false)).applyWrites([], { notes: [{ tab: 'Questions', address: 'C9', text, author: 'A & B' }] });
    expect(notesOf(out.bytes)).toEqual({ C9: text });
    expect(noteTextXml('<&>')).toBe('&lt;&amp;&gt;');
  });

  it('writes notes on two sheets with distinct parts and shape ids', async () => {
    const out = XlsxPackage.open(await book(true)).applyWrites([], {
      notes: [
        { tab: 'Questions', address: 'B2', text: 'one', author: 'x' },
        { tab: 'Other', address: 'A1', text: 'two', author: 'x' },
      ],
    });
    expect(notesOf(out.bytes)).toEqual({ A2: 'Kept as written', B2: 'one' });
    expect(notesOf(out.bytes, 'Other')).toEqual({ A1: 'two' });
    const pkg = XlsxPackage.open(out.bytes);
    const ids = pkg
      .partNames()
      .filter((p) => p.endsWith('.vml'))
      .flatMap((p) => [...pkg.xmlText(p).matchAll(/id="(_x0000_s\d+)"/g)].map((m) => m[1]));
    expect(new Set(ids).size).toBe(ids.length);
    expect(await excelJsNotes(out.bytes, 'Other')).toEqual({ A1: 'two' });
  });

  it('names relationship targets relative to the sheet', () => {
    expect(relativeTarget('xl/worksheets/sheet1.xml', 'xl/comments1.xml')).toBe('../comments1.xml');
    expect(relativeTarget('xl/worksheets/sheet1.xml', 'xl/drawings/vmlDrawing1.vml')).toBe('../drawings/vmlDrawing1.vml');
    expect(relativeTarget('xl/worksheets/sheet1.xml', 'xl/worksheets/x.xml')).toBe('x.xml');
  });
});
