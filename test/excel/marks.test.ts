/**
 * The task pane's fill session writing answers given by an "x" and replacing a blank template's
 * pre-filled defaults, through the real Excel adapter on the in-memory Excel host (Office.js
 * semantics). The questions and slots are the detector's own reading of the workbook; only the
 * answers are scripted, so that what is written is known.
 */
import ExcelJS from 'exceljs';
import { afterEach, describe, expect, it } from 'vitest';
import type { QuestionWithAnswers } from '../../src/api/schemas';
import { createExcelWorkbook, memoryStorage, TRUST_FILLS } from '../../src/excel';
import { createFillSession, type FillOptions } from '../../src/fill/session';
import type { ExcelHost } from '../../src/workbench/host/host';
import { installExcelHost } from '../../src/workbench/host/install';
import { loadXlsxIntoHost } from '../../src/workbench/host/load-xlsx';
import { caiqV3Workbook, toBytes } from '../service/detect/helpers';
import { answeredAsDetected, memoryLinks, readyApi } from './helpers';

let uninstall: (() => void) | null = null;
afterEach(() => {
  uninstall?.();
  uninstall = null;
});

/** The workbook open in the in-memory Excel, and the fill session as the task pane makes it. */
async function openInPane(bytes: Uint8Array, questions: QuestionWithAnswers[], options: Partial<FillOptions>) {
  const host = await loadXlsxIntoHost(bytes, { fileName: 'vendor.xlsx', url: 'https://contoso.example/vendor.xlsx' });
  uninstall?.();
  uninstall = installExcelHost(host);
  const workbook = createExcelWorkbook({ storage: memoryStorage() });
  const session = createFillSession({ api: readyApi(questions), workbook, links: memoryLinks(), details: true, confirmOverwrite: true }, options);
  return { host, session };
}

const values = (host: ExcelHost, tab: string, addresses: string[]) => addresses.map((a) => host.getCell(tab, a).value ?? '');
const CAIQ = 'CAIQ v3.0.1';
// Rows 3-6 hold AIS-01.1, AIS-01.2, AIS-02.1, AIS-03.1; Yes | No | Not Applicable in F | G | H, Notes in I.
const row = (r: number) => [`F${r}`, `G${r}`, `H${r}`];

describe('answers given by an "x", written by the task pane', () => {
  it('marks the chosen column, and clears another mark only after the analyst agreed; Undo fill puts it back', async () => {
    const bytes = await caiqV3Workbook({ 'AIS-01.1': 'Yes' });
    const questions = await answeredAsDetected(bytes, { 'AIS-01.1': 'No', 'AIS-01.2': 'Yes', 'AIS-02.1': 'not applicable', 'AIS-03.1': 'Maybe' });
    const { host, session } = await openInPane(bytes, questions, { overwrite: true });
    const before = host.snapshot();

    await session.fill();
    // Clearing the vendor's "x" under Yes is the one value the fill would replace; the empty No column loses nothing.
    expect(session.state.phase).toBe('confirm-overwrite');
    expect(session.state.replacements).toEqual([{ tab: CAIQ, address: 'F3', questionId: 1, originalId: 'AIS-01.1', current: 'x', next: '' }]);
    expect(host.snapshot()).toEqual(before);

    await session.confirmOverwrite('replace');
    expect(session.state.outcome).toEqual({ kind: 'written' });
    expect(values(host, CAIQ, row(3))).toEqual(['', 'x', '']);
    expect(values(host, CAIQ, row(4))).toEqual(['x', '', '']);
    expect(values(host, CAIQ, row(5))).toEqual(['', '', 'x']);
    // "Maybe" is none of the choices: left for review, nothing marked.
    expect(values(host, CAIQ, row(6))).toEqual(['', '', '']);
    expect(session.state.report?.plan.skipped.filter((s) => s.reason === 'not_allowed').map((s) => s.address)).toEqual(row(6));
    expect(host.getCell(CAIQ, 'I3').value).toBe('SDLC based on OWASP SAMM');
    // A cleared column gets no trust colour and no note; a mark gets both.
    expect(host.getCell(CAIQ, 'F3').fill).toBeNull();
    expect(host.getCell(CAIQ, 'G3').fill).toBe(TRUST_FILLS.high);

    await session.undo(false);
    expect(session.state.outcome).toMatchObject({ kind: 'undone', kept: 0 });
    expect(host.snapshot()).toEqual(before);
  });

  it('keeps a marked answer as it is when the analyst keeps existing values, and still marks the unanswered ones', async () => {
    const bytes = await caiqV3Workbook({ 'AIS-01.1': 'Yes' });
    const questions = await answeredAsDetected(bytes, { 'AIS-01.1': 'No', 'AIS-01.2': 'No' });
    const { host, session } = await openInPane(bytes, questions, { overwrite: true });
    await session.fill();
    await session.confirmOverwrite('keep');
    // Never two marks in one answer: the whole group is left alone.
    expect(values(host, CAIQ, row(3))).toEqual(['x', '', '']);
    expect(values(host, CAIQ, row(4))).toEqual(['', 'x', '']);
    expect(session.state.report?.plan.skipped.filter((s) => s.reason === 'occupied').map((s) => s.address)).toEqual(row(3));
  });

  it('without overwrite asks nothing and changes no marked answer', async () => {
    const bytes = await caiqV3Workbook({ 'AIS-01.1': 'Yes' });
    const questions = await answeredAsDetected(bytes, { 'AIS-01.1': 'No', 'AIS-01.2': 'Yes' });
    const { host, session } = await openInPane(bytes, questions, { overwrite: false });
    await session.fill();
    expect(session.state.outcome).toEqual({ kind: 'written' });
    expect(values(host, CAIQ, row(3))).toEqual(['x', '', '']);
    expect(values(host, CAIQ, row(4))).toEqual(['x', '', '']);
  });

  it('re-marking the column already marked replaces nothing', async () => {
    const bytes = await caiqV3Workbook({ 'AIS-01.1': 'Yes' });
    const questions = await answeredAsDetected(bytes, { 'AIS-01.1': 'Yes' });
    const { host, session } = await openInPane(bytes, questions, { overwrite: true });
    await session.fill();
    expect(session.state.phase).toBe('settled');
    expect(session.state.outcome).toEqual({ kind: 'written' });
    expect(values(host, CAIQ, row(3))).toEqual(['x', '', '']);
  });
});

/** An ASVS-like checklist whose blank template pre-fills "N/A" in every Status cell. */
async function checklistWithDefaults(): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Checklist');
  ws.addRow(['ID', 'Requirement', 'Status', 'Comment']);
  ws.addRow(['8.1', 'The app detects, and responds to, the presence of a rooted device.', 'N/A', null]);
  ws.addRow(['8.2', 'The app prevents debugging and detects a debugger being attached.', 'N/A', null]);
  ws.addRow(['8.3', 'The app detects tampering with executable files and critical data.', 'N/A', null]);
  (ws as unknown as { dataValidations: { add(range: string, rule: ExcelJS.DataValidation): void } }).dataValidations.add('C2:C4', {
    type: 'list',
    allowBlank: true,
    formulae: ['"Pass,Fail,N/A"'],
  });
  return toBytes(wb);
}

describe('a blank template’s pre-filled defaults, filled by the task pane', () => {
  it('replaces them without asking, but asks before replacing what the vendor wrote since', async () => {
    const bytes = await checklistWithDefaults();
    const questions = await answeredAsDetected(bytes, { '8.1': 'Pass', '8.2': 'Fail', '8.3': 'Pass' });
    // The service reads the defaults as template content: no value, the placeholder as `template_default`.
    expect(questions[0]!.answer_slots![0]).toMatchObject({ header: 'Status', value: null, template_default: 'N/A' });
    const { host, session } = await openInPane(bytes, questions, { overwrite: true });
    // The vendor answered 8.3 in the sheet after the upload: that is an answer, not the template's.
    host.setCell('Checklist', 'C4', { value: 'Fail' });

    await session.fill();
    expect(session.state.phase).toBe('confirm-overwrite');
    expect(session.state.replacements?.map((r) => [r.address, r.current, r.next])).toEqual([['C4', 'Fail', 'Pass']]);
    await session.confirmOverwrite('keep');
    expect(values(host, 'Checklist', ['C2', 'C3', 'C4'])).toEqual(['Pass', 'Fail', 'Fail']);
  });

  it('without overwrite still replaces the defaults: they are empty cells of the template', async () => {
    const bytes = await checklistWithDefaults();
    const questions = await answeredAsDetected(bytes, { '8.1': 'Pass', '8.2': 'Fail' });
    const { host, session } = await openInPane(bytes, questions, { overwrite: false });
    const before = host.snapshot();
    await session.fill();
    expect(session.state.outcome).toEqual({ kind: 'written' });
    expect(values(host, 'Checklist', ['C2', 'C3', 'C4'])).toEqual(['Pass', 'Fail', 'N/A']);
    await session.undo(false);
    expect(host.snapshot()).toEqual(before);
  });
});
