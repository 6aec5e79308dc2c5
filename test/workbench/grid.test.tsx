// @vitest-environment happy-dom
// The workbench grid as an analyst uses it: type into a cell, paste a block, delete, undo their own typing;
// the add-in reads the edits through the Excel API, and the fill's undo keeps them. Fills stay readable.
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { createExcelWorkbook, memoryStorage } from '../../src/excel';
import { contrastRatio, MIN_TEXT_CONTRAST } from '../../src/taskpane/contrast';
import { Grid } from '../../src/workbench/grid';
import { ExcelHost, installExcelHost } from '../../src/workbench/host';
import { WORKBENCH_CSS } from '../../src/workbench/styles';
import { parseClipboard, UserEdits } from '../../src/workbench/user-edits';
import { q } from '../excel/helpers';

let uninstall: (() => void) | null = null;
afterEach(() => {
  cleanup();
  uninstall?.();
  uninstall = null;
});

function setup(): ExcelHost {
  const host = new ExcelHost({ url: 'workbench://grid.xlsx' });
  host.addSheet('Questions');
  host.setCell('Questions', 'A1', { value: 'Question', fill: '#000000' });
  host.setCell('Questions', 'B1', { value: 'Answer', fill: '#1F3864' });
  host.setCell('Questions', 'A2', { value: 'Do you encrypt data at rest?' });
  host.setCell('Questions', 'B5', { formula: '=B2', value: '' });
  uninstall = installExcelHost(host);
  render(<Grid host={host} />);
  return host;
}

const cell = (address: string) => document.querySelector(`[data-cell="${address}"]`) as HTMLElement;
const grid = () => screen.getByLabelText(/^Cells of Questions/);

function typeInto(address: string, text: string, key = 'Enter') {
  fireEvent.click(cell(address));
  fireEvent.keyDown(grid(), { key: text[0]! });
  const editor = screen.getByTestId('cell-editor') as HTMLTextAreaElement;
  expect(editor.value).toBe(text[0]);
  fireEvent.input(editor, { target: { value: text } });
  editor.value = text;
  fireEvent.keyDown(editor, { key });
}

async function addinReads(address: string): Promise<unknown> {
  return Excel.run(async (context) => {
    const range = context.workbook.worksheets.getItem('Questions').getRange(address);
    range.load('values');
    await context.sync();
    return range.values[0]![0];
  });
}

describe('the workbench grid, editable', () => {
  it('types into a cell as Excel does: the cell shows it, Enter moves down, the add-in reads it', async () => {
    const host = setup();
    typeInto('B2', 'Yes');
    expect(host.getCell('Questions', 'B2').value).toBe('Yes');
    expect(cell('B2').textContent).toBe('Yes');
    expect(host.selection()).toEqual({ sheet: 'Questions', address: 'B3' });
    expect(await addinReads('B2')).toBe('Yes');
    // Excel's parsing: a number is a number, an apostrophe keeps text.
    typeInto('B3', '42');
    expect(host.getCell('Questions', 'B3').value).toBe(42);
    typeInto('C2', "'00123", 'Tab');
    expect(host.getCell('Questions', 'C2')).toMatchObject({ value: '00123', quotePrefix: true });
    expect(host.selection().address).toBe('D2');
  });

  it('edits what a cell holds with F2, and Escape leaves it unchanged', () => {
    const host = setup();
    fireEvent.click(cell('A2'));
    fireEvent.keyDown(grid(), { key: 'F2' });
    const editor = screen.getByTestId('cell-editor') as HTMLTextAreaElement;
    expect(editor.value).toBe('Do you encrypt data at rest?');
    editor.value = 'changed';
    fireEvent.keyDown(editor, { key: 'Escape' });
    expect(host.getCell('Questions', 'A2').value).toBe('Do you encrypt data at rest?');
  });

  it("pastes a block, deletes the selection and undoes the analyst's own edits, newest first", () => {
    const host = setup();
    fireEvent.click(cell('B2'));
    const clipboardData = { getData: (type: string) => (type === 'text/plain' ? 'Yes\tEncrypted with AES-256\r\nNo\t"Two\nlines"\r\n' : '') };
    fireEvent.paste(grid(), { clipboardData });
    expect(host.getCell('Questions', 'B2').value).toBe('Yes');
    expect(host.getCell('Questions', 'C2').value).toBe('Encrypted with AES-256');
    expect(host.getCell('Questions', 'B3').value).toBe('No');
    expect(host.getCell('Questions', 'C3').value).toBe('Two\nlines');
    expect(host.selection().address).toBe('B2:C3');

    fireEvent.click(cell('C2'));
    fireEvent.keyDown(grid(), { key: 'Delete' });
    expect(host.getCell('Questions', 'C2').value).toBeNull();

    fireEvent.keyDown(grid(), { key: 'z', ctrlKey: true });
    expect(host.getCell('Questions', 'C2').value).toBe('Encrypted with AES-256');
    fireEvent.keyDown(grid(), { key: 'z', ctrlKey: true });
    expect(host.getCell('Questions', 'B2').value).toBeNull();
    expect(host.getCell('Questions', 'C3').value).toBeNull();
  });

  it('refuses a locked cell on a protected sheet and says why', () => {
    const host = setup();
    host.protect('Questions');
    typeInto('B2', 'Yes');
    expect(host.getCell('Questions', 'B2').value).toBeNull();
    expect(screen.getByRole('alert').textContent).toMatch(/protected sheet/);
  });

  it('moves with the arrow keys', () => {
    const host = setup();
    fireEvent.click(cell('B2'));
    fireEvent.keyDown(grid(), { key: 'ArrowRight' });
    fireEvent.keyDown(grid(), { key: 'ArrowDown' });
    expect(host.selection().address).toBe('C3');
    fireEvent.keyDown(grid(), { key: 'ArrowUp' });
    fireEvent.keyDown(grid(), { key: 'ArrowUp' });
    fireEvent.keyDown(grid(), { key: 'ArrowUp' });
    expect(host.selection().address).toBe('C1');
  });

  it('shows template headers readable on their fill (never black on black)', () => {
    setup();
    for (const address of ['A1', 'B1']) {
      const style = cell(address).style;
      const hex = (c: string) => {
        const m = /rgb\((\d+),\s*(\d+),\s*(\d+)\)/.exec(c);
        return m ? `#${[m[1], m[2], m[3]].map((v) => Number(v).toString(16).padStart(2, '0')).join('')}` : c;
      };
      expect(contrastRatio(hex(style.color), hex(style.background || style.backgroundColor))).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
    }
  });
});

describe('grid edits and the fill', () => {
  it("are read by the add-in, and the fill's undo keeps them", async () => {
    const host = new ExcelHost({ url: 'workbench://grid.xlsx' });
    host.addSheet('S');
    uninstall = installExcelHost(host);
    const wb = createExcelWorkbook({ storage: memoryStorage() });
    const plan = await wb.plan([q('S', 'C2', 'Filled 2'), q('S', 'C3', 'Filled 3')], { overwrite: true });
    await wb.apply(plan, { highlight: true, sourceNotes: true });
    new UserEdits(host).type('S', 'C2', 'Corrected by the analyst');
    expect(await wb.readValues!([{ tab: 'S', address: 'C2' }])).toEqual(['Corrected by the analyst']);
    await wb.undo({ keep: [{ tab: 'S', address: 'C2' }] });
    expect(host.getCell('S', 'C2').value).toBe('Corrected by the analyst');
    expect(host.getCell('S', 'C3').value).toBeNull();
  });

  it('an undo of typing leaves a cell the fill wrote since', () => {
    const host = new ExcelHost();
    host.addSheet('S');
    const edits = new UserEdits(host);
    edits.type('S', 'C2', 'typed');
    host.setCell('S', 'C2', { value: 'written by the add-in since' });
    expect(edits.undo()).toEqual([]);
    expect(host.getCell('S', 'C2').value).toBe('written by the add-in since');
  });
});

describe('clipboard text', () => {
  it('reads rows, tabs, quoted fields with line breaks and doubled quotes', () => {
    expect(parseClipboard('a\tb\r\nc\td\r\n')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(parseClipboard('"x\ny"\t"say ""hi"""\n')).toEqual([['x\ny', 'say "hi"']]);
    expect(parseClipboard('one')).toEqual([['one']]);
    expect(parseClipboard('"unclosed\tz')).toEqual([['"unclosed', 'z']]);
  });
});

describe('workbench colours', () => {
  it('keeps its own text readable, light and dark', () => {
    const lightAt = WORKBENCH_CSS.indexOf('.wb-root {');
    const light = Object.fromEntries(
      [...WORKBENCH_CSS.slice(lightAt, WORKBENCH_CSS.indexOf('}', lightAt)).matchAll(/--wb-([\w-]+):\s*(#[0-9a-f]{6})/g)].map((m) => [m[1]!, m[2]!]),
    );
    const darkAt = WORKBENCH_CSS.indexOf('[data-theme="dark"] {');
    const dark = {
      ...light,
      ...Object.fromEntries(
        [...WORKBENCH_CSS.slice(darkAt, WORKBENCH_CSS.indexOf('}', darkAt)).matchAll(/--wb-([\w-]+):\s*(#[0-9a-f]{6})/g)].map((m) => [m[1]!, m[2]!]),
      ),
    };
    for (const p of [light, dark]) {
      for (const [fg, bg] of [
        ['fg', 'bg'],
        ['head-fg', 'head-bg'],
        ['formula', 'bg'],
        ['error-fg', 'error-bg'],
        ['bar-fg', 'bar'],
        ['fg', 'namebox-bg'],
      ]) {
        expect(contrastRatio(p[fg]!, p[bg]!), `${fg} on ${bg}`).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
      }
    }
  });
});
