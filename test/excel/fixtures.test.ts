/**
 * Real questionnaires (../shared/fixtures/questionnaires, see its README) loaded into the in-memory
 * host: a fill from synthetic answers writes only the answer cells, keeps every formula, dropdown and
 * merge, its report adds up, and Undo puts the workbook back exactly. The answer cells are located
 * from the README's column layout (the detector is tested elsewhere).
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { QuestionWithAnswers } from '../../src/api/schemas';
import { createExcelWorkbook, memoryStorage } from '../../src/excel';
import { reinstall } from './helpers';
import { loadXlsxIntoHost } from '../../src/workbench/host/load-xlsx';
import type { ExcelHost, WorkbookSnapshot } from '../../src/workbench/host';

const DIR = resolve(__dirname, '../../../shared/fixtures/questionnaires');

interface Layout {
  file: string;
  tab: string;
  slots: { column: string; role: string; header: string }[];
}

const LAYOUTS: Layout[] = [
  {
    file: 'caiq-v4.0.3-blank.xlsx',
    tab: 'CAIQv4.0.3',
    slots: [
      { column: 'C', role: 'answer', header: 'CSP CAIQ Answer' },
      { column: 'D', role: 'ownership', header: 'SSRM Control Ownership' },
      { column: 'E', role: 'implementation', header: 'CSP Implementation Description' },
      { column: 'F', role: 'customer', header: 'CSC Responsibilities' },
    ],
  },
  ...['hecvat-lite-3.04-canvas-catalog-completed.xlsx', 'hecvat-lite-3.04-canvas-studio-completed.xlsx'].map((file) => ({
    file,
    tab: 'HECVAT - Lite | Vendor Response',
    slots: [
      { column: 'C', role: 'answer', header: 'Vendor Answers' },
      { column: 'D', role: 'additional_information', header: 'Additional Information' },
    ],
  })),
  {
    file: 'k12cvat-lite-4.1-canvas-lms-completed.xlsx',
    tab: 'CoSN K-12CVAT',
    slots: [
      { column: 'C', role: 'answer', header: 'Vendor Answers' },
      { column: 'D', role: 'additional_information', header: 'Additional Information' },
    ],
  },
  {
    file: 'hecvat-full-2.11-portfolium-completed.xlsx',
    tab: 'HECVAT - Full',
    slots: [
      { column: 'C', role: 'answer', header: 'Vendor Answers' },
      { column: 'D', role: 'additional_information', header: 'Additional Information' },
    ],
  },
];

const ID = /^[A-Z&]{2,6}-\d{2}(\.\d+)?$/;
const HYPERLINK = '=HYPERLINK("https://example.com/policy","policy")';

function literalList(host: ExcelHost, tab: string, address: string): string[] | undefined {
  const v = host.sheet(tab).validations.find((x) => x.range.split(/\s+/).includes(address) && x.type === 'list');
  if (!v || v.source.startsWith('=')) return undefined;
  return v.source.split(',').map((s) => s.trim());
}

/** Synthetic answers for every id row of the answer tab. */
function questionsFor(host: ExcelHost, layout: Layout): QuestionWithAnswers[] {
  const sheet = host.snapshot().sheets.find((s) => s.name === layout.tab)!;
  const rows = Object.entries(sheet.cells)
    .filter(([address, cell]) => /^A\d+$/.test(address) && typeof cell.value === 'string' && ID.test(cell.value.trim()))
    .map(([address, cell]) => ({ row: Number(address.slice(1)), id: String(cell.value).trim() }));
  return rows.map(({ row, id }, i) => {
    const slots = layout.slots.map((s) => {
      const allowed = literalList(host, layout.tab, `${s.column}${row}`);
      return { role: s.role, header: s.header, coordinate: `${s.column}${row}`, ...(allowed ? { type: 'list', allowed_values: allowed } : {}) };
    });
    // Every tenth free-text answer looks like a formula: it must land as text.
    const valueFor = (slot: (typeof slots)[number]) =>
      slot.allowed_values
        ? slot.allowed_values[i % slot.allowed_values.length]!.toLowerCase() + '.'
        : i % 10 === 0
          ? `${HYPERLINK} for ${id}`
          : `Synthetic ${slot.role} for ${id}: see policy §${i}.`;
    return {
      id: i + 1,
      original_id: id,
      original_question_text: `Question ${id}`,
      tab_name: layout.tab,
      answer_slots: slots,
      answers: [
        {
          id: i + 1,
          text: slots[0]!.allowed_values ? valueFor(slots[0]!) : 'Yes',
          evaluation: { score: 50 + (i % 50), trust: (['high', 'medium', 'low'] as const)[i % 3], reason: 'synthetic' },
          slot_responses: slots.slice(1).map((slot) => ({ slot_key: slot.role, content: valueFor(slot) })),
          source_evidence: [
            {
              id: 1,
              type: 'passage',
              content: 'x',
              filename: 'security-overview.pdf',
              file_id: 1,
              page_number: 1 + (i % 9),
              tab_name: layout.tab,
              relevance_score: 0.8,
              rank: 1,
              created_at: '',
            },
          ],
        },
      ],
    } as QuestionWithAnswers;
  });
}

function changedCells(before: WorkbookSnapshot, after: WorkbookSnapshot): string[] {
  const out: string[] = [];
  after.sheets.forEach((sheet, i) => {
    const old = before.sheets[i]!;
    const addresses = new Set([...Object.keys(sheet.cells), ...Object.keys(old.cells)]);
    for (const a of addresses) if (JSON.stringify(sheet.cells[a]) !== JSON.stringify(old.cells[a])) out.push(`${sheet.name}!${a}`);
  });
  return out.sort();
}

function formulas(snapshot: WorkbookSnapshot): Record<string, string> {
  const out: Record<string, string> = {};
  for (const s of snapshot.sheets) for (const [a, c] of Object.entries(s.cells)) if (c.formula) out[`${s.name}!${a}`] = c.formula;
  return out;
}

describe('fill and undo on the real questionnaires', () => {
  it('has the fixtures folder', () => {
    if (!existsSync(DIR)) throw new Error(`Fixtures missing: ${DIR} does not exist. These tests need ../shared/fixtures/questionnaires (see its README).`);
  });

  it.each(LAYOUTS)('$file', async (layout) => {
    const path = resolve(DIR, layout.file);
    if (!existsSync(path)) throw new Error(`Fixture missing: ${path}`);
    const host = await loadXlsxIntoHost(readFileSync(path), { url: `file:///${layout.file}` });
    reinstall(host);
    const before = host.snapshot();
    const questions = questionsFor(host, layout);
    expect(questions.length).toBeGreaterThan(50);

    const wb = createExcelWorkbook({ storage: memoryStorage() });
    const plan = await wb.plan(questions, { overwrite: true });
    const slotCount = questions.reduce((n, q) => n + q.answer_slots!.length, 0);
    const r = plan.report;
    expect(r.written + r.skipped).toBe(slotCount);
    expect(r.tabs.reduce((n, t) => n + t.written + t.skipped, 0)).toBe(slotCount);
    expect(Object.values(r.byReason).reduce((n, v) => n + (v ?? 0), 0)).toBe(r.skipped);
    expect(r.written).toBeGreaterThan(50);

    const applied = await wb.apply(plan, { highlight: true, sourceNotes: true });
    expect(applied.failed).toEqual([]);
    expect(applied.written).toBe(plan.writes.length);
    const after = host.snapshot();

    // Only the planned answer cells changed; every formula, dropdown and merge is kept.
    const planned = new Set(plan.writes.map((w) => `${w.tab}!${w.address}`));
    const changed = changedCells(before, after);
    expect(changed.filter((c) => !planned.has(c))).toEqual([]);
    expect(formulas(after)).toEqual(formulas(before));
    after.sheets.forEach((s, i) => {
      expect(s.validations).toEqual(before.sheets[i]!.validations);
      expect(s.merges).toEqual(before.sheets[i]!.merges);
      for (const address of Object.keys(s.notes)) {
        if (before.sheets[i]!.notes[address] === undefined) expect(planned.has(`${s.name}!${address}`)).toBe(true);
      }
    });
    for (const w of plan.writes) expect(host.getCell(w.tab, w.address).value).toBe(w.value);
    // An answer starting with =HYPERLINK( lands as text, never as a formula.
    const formulaLike = plan.writes.filter((w) => w.value.startsWith('=HYPERLINK('));
    expect(formulaLike.length).toBeGreaterThan(0);
    for (const w of formulaLike) expect(host.getCell(w.tab, w.address)).toMatchObject({ value: w.value, formula: null });
    // Dropdown answers were fitted to the list ("yes." -> "Yes").
    for (const w of plan.writes) {
      const allowed = literalList(host, w.tab, w.address);
      if (allowed) expect(allowed).toContain(w.value);
    }

    const undone = await wb.undo();
    expect(undone?.failed).toBeUndefined();
    const restored = host.snapshot();
    const differing = changedCells(before, restored).map((c) => {
      const [tab, address] = [c.slice(0, c.lastIndexOf('!')), c.slice(c.lastIndexOf('!') + 1)];
      const i = before.sheets.findIndex((s) => s.name === tab);
      return { cell: c, before: before.sheets[i]!.cells[address], after: restored.sheets[i]!.cells[address] };
    });
    expect(differing).toEqual([]);
    expect(restored).toEqual(before);
  });
});
