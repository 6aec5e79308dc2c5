/**
 * A review correction of an answer given by an "x" (one column per choice): the session moves the
 * mark, through the real Excel adapter on the in-memory Excel host. The questions and slots are the
 * detector's own reading of a CAIQ v3-style workbook; only the answers are scripted.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createExcelWorkbook, memoryStorage } from '../../../src/excel';
import { createFillSession } from '../../../src/fill/session';
import { correctionTargets } from '../../../src/fill/session/targets';
import type { ExcelHost } from '../../../src/workbench/host/host';
import type { WorkbookSnapshot } from '../../../src/workbench/host/model';
import { installExcelHost } from '../../../src/workbench/host/install';
import { loadXlsxIntoHost } from '../../../src/workbench/host/load-xlsx';
import { answeredAsDetected, memoryLinks, readyApi } from '../../excel/helpers';
import { caiqV3Workbook } from '../../service/detect/helpers';

let uninstall: (() => void) | null = null;
afterEach(() => {
  uninstall?.();
  uninstall = null;
});

const CAIQ = 'CAIQ v3.0.1';
// Rows 3-6 hold AIS-01.1, AIS-01.2, AIS-02.1, AIS-03.1; Yes | No | Not Applicable in F | G | H, Notes in I.
const row = (r: number) => [`F${r}`, `G${r}`, `H${r}`];

/** The workbook open in the in-memory Excel, filled by the session as the task pane makes it. */
async function filled(marks: Record<string, string>, answers: Record<string, string>) {
  const bytes = await caiqV3Workbook(marks);
  const questions = await answeredAsDetected(bytes, answers);
  const host = await loadXlsxIntoHost(bytes, { fileName: 'vendor.xlsx', url: 'https://contoso.example/vendor.xlsx' });
  uninstall = installExcelHost(host);
  const before = host.snapshot();
  const links = memoryLinks();
  const session = createFillSession(
    { api: readyApi(questions), workbook: createExcelWorkbook({ storage: memoryStorage() }), links, details: true },
    { overwrite: false },
  );
  await session.fill();
  expect(session.state.outcome).toEqual({ kind: 'written' });
  const question = (originalId: string) => session.state.questions.find((q) => q.original_id === originalId)!;
  /** The review's one target for the marked answer: a choice between its columns. */
  const markTarget = (originalId: string) => correctionTargets(question(originalId)).find((t) => t.slot.type === 'mark')!;
  const choose = (originalId: string, text: string, overwrite = false) => session.correct(question(originalId), markTarget(originalId), text, overwrite);
  return { host, session, before, links, question, markTarget, choose };
}

const values = (host: ExcelHost, tab: string, addresses: string[]) => addresses.map((a) => host.getCell(tab, a).value ?? '');

/** The cells of the sheet that differ between two host snapshots; anything else that differs is named too. */
function changedCells(before: WorkbookSnapshot, after: WorkbookSnapshot): string[] {
  const sheet = (snap: WorkbookSnapshot) => snap.sheets.find((s) => s.name === CAIQ)!;
  const x = sheet(before).cells;
  const y = sheet(after).cells;
  const cells = [...new Set([...Object.keys(x), ...Object.keys(y)])].filter((k) => JSON.stringify(x[k]) !== JSON.stringify(y[k])).sort();
  const rest = (snap: WorkbookSnapshot) => JSON.stringify(snap.sheets.map((s) => ({ ...s, cells: null })));
  return rest(before) === rest(after) ? cells : [...cells, 'more than cells'];
}

describe('correcting an answer given by an "x" from the review', () => {
  it('offers the marked answer as one choice between its columns, pre-filled with the chosen one', async () => {
    const { markTarget, question } = await filled({}, { 'AIS-01.2': 'not applicable' });
    expect(markTarget('AIS-01.2')).toMatchObject({ cell: { tab: CAIQ, address: 'F4:H4' }, value: 'Not Applicable' });
    expect(markTarget('AIS-01.2').slot).toMatchObject({ header: 'Yes / No / Not Applicable', allowed_values: ['Yes', 'No', 'Not Applicable'] });
    // The Notes column stays a cell of its own; the other columns are no targets of their own.
    expect(correctionTargets(question('AIS-01.2')).map((t) => t.cell.address)).toEqual(['F4:H4', 'I4']);
  });

  it('moves the mark the fill wrote: the old column cleared, the new one marked, nothing else touched', async () => {
    const { host, choose, markTarget } = await filled({}, { 'AIS-01.2': 'Yes', 'AIS-02.1': 'No' });
    expect(values(host, CAIQ, row(4))).toEqual(['x', '', '']);
    const afterFill = host.snapshot();

    expect(await choose('AIS-01.2', 'No')).toEqual({ written: true });
    expect(values(host, CAIQ, row(4))).toEqual(['', 'x', '']);
    expect(changedCells(afterFill, host.snapshot())).toEqual(['F4', 'G4']);
    // The review shows the correction as the answer.
    expect(markTarget('AIS-01.2').value).toBe('No');

    // Choosing what the cells already say writes nothing.
    const now = host.snapshot();
    expect(await choose('AIS-01.2', 'no')).toEqual({ written: true });
    expect(host.snapshot()).toEqual(now);
  });

  it('asks before moving a mark the fill did not write, and then moves it', async () => {
    const { host, choose } = await filled({ 'AIS-01.1': 'Yes' }, {});
    const refused = await choose('AIS-01.1', 'Not Applicable');
    expect(refused).toEqual({ written: false, reason: `${CAIQ}!F3 already holds a value that the fill did not write; choose to replace it if you mean to.` });
    // Never half-changed: the new column is not marked either.
    expect(values(host, CAIQ, row(3))).toEqual(['x', '', '']);

    expect(await choose('AIS-01.1', 'Not Applicable', true)).toEqual({ written: true });
    expect(values(host, CAIQ, row(3))).toEqual(['', '', 'x']);
    expect(host.getCell(CAIQ, 'I3').value).toBe('SDLC based on OWASP SAMM');
  });

  it('refuses a choice that is none of the columns, and a group with a formula in it, writing nothing', async () => {
    const { host, choose } = await filled({}, { 'AIS-01.2': 'Yes', 'AIS-03.1': 'Yes' });
    const before = host.snapshot();
    expect(await choose('AIS-01.2', 'Maybe')).toEqual({ written: false, reason: '"Maybe" is not one of Yes, No, Not Applicable.' });
    host.setCell(CAIQ, 'H6', { formula: '=1', value: 1 });
    const withFormula = host.snapshot();
    expect(await choose('AIS-03.1', 'No')).toEqual({ written: false, reason: `${CAIQ}!H6 holds a formula; it is never overwritten.` });
    expect(host.snapshot()).toEqual(withFormula);
    expect(values(host, CAIQ, ['F6', 'G6'])).toEqual(['x', '']);
    expect(changedCells(before, withFormula)).toEqual(['H6']);
  });

  it('an empty choice clears the answer’s mark', async () => {
    const { host, choose } = await filled({}, { 'AIS-02.1': 'No' });
    expect(await choose('AIS-02.1', '')).toEqual({ written: true });
    expect(values(host, CAIQ, row(5))).toEqual(['', '', '']);
  });

  it('is undone by Undo fill with the fill, after saying the corrected cells would be put back', async () => {
    const { host, session, before, links, choose } = await filled({ 'AIS-01.1': 'Yes' }, { 'AIS-01.2': 'Yes' });
    expect(await choose('AIS-01.2', 'No')).toEqual({ written: true });
    expect(await choose('AIS-01.1', 'No', true)).toEqual({ written: true });
    expect(links.link?.corrected).toEqual([`${CAIQ}!F4`, `${CAIQ}!G4`, `${CAIQ}!F3`, `${CAIQ}!G3`]);

    await session.requestUndo();
    expect(session.state.phase).toBe('confirm-undo');
    expect(session.state.laterEdits?.map((e) => e.address).sort()).toEqual(['F3', 'F4', 'G3', 'G4']);
    await session.undo(false);
    expect(session.state.outcome).toMatchObject({ kind: 'undone', kept: 0 });
    expect(host.snapshot()).toEqual(before);
  });
});
