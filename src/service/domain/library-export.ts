/**
 * The answer library as one .xlsx sheet, one row an entry (id, question id, question, a column per answer
 * slot, offering, as of, status, approver, source, question key), for review offline. Uploaded to the
 * library like any Q&A sheet (with the same dedupe and supersede rules), it reads back as these entries
 * (../knowledge/extract/library-export.ts: the same questions, ids, slots and question keys; retired rows
 * are not learned again).
 */
import type { LibraryEntry } from '../../api/library';
import { LIBRARY_EXPORT_LEADING, LIBRARY_EXPORT_SECTION, LIBRARY_EXPORT_SHEET, LIBRARY_EXPORT_TRAILING, slotTitle } from '../knowledge/extract/library-export';
import { toA1 } from '../../xlsx/a1';
import { createWorkbook, type NewCell } from '../../xlsx/create';
import { EXCEL_MAX_CELL_CHARS } from '../../xlsx/cell-text';

export function libraryWorkbook(entries: LibraryEntry[], offeringNames: Map<number, string>): Uint8Array {
  // The slots in the order entries first use them, the answer first.
  const slotKeys: string[] = [];
  for (const e of entries) for (const s of e.slots) if (!slotKeys.includes(s.slot_key)) slotKeys.push(s.slot_key);
  slotKeys.sort((a, b) => Number(b.toLowerCase() === 'answer') - Number(a.toLowerCase() === 'answer'));
  const headers = [...LIBRARY_EXPORT_LEADING, ...slotKeys.map(slotTitle), ...LIBRARY_EXPORT_TRAILING, LIBRARY_EXPORT_SECTION];
  const cells: Record<string, NewCell | string | number> = {};
  headers.forEach((h, c) => (cells[toA1(1, c + 1)] = { value: h, bold: true }));
  const text = (v: string) => v.slice(0, EXCEL_MAX_CELL_CHARS);
  entries.forEach((e, i) => {
    const row = i + 2;
    const bySlot = new Map(e.slots.map((s) => [s.slot_key, s.content]));
    const source = e.source
      ? `${e.source.file_name}${e.source.tab_name ? ` · ${e.source.tab_name}` : ''}${e.source.location ? ` · ${e.source.location}` : ''}`
      : 'added by hand';
    const values: (string | number)[] = [
      e.id,
      e.original_id ?? '',
      e.question,
      ...slotKeys.map((k) => bySlot.get(k) ?? ''),
      e.offering_ids.map((id) => offeringNames.get(id) ?? `offering ${id}`).join(', '),
      e.as_of,
      e.review_due ? `${e.status} (review due)` : e.status,
      e.approved_by ?? '',
      source,
      e.question_key,
      e.section ?? '',
    ];
    values.forEach((v, c) => {
      if (v !== '') cells[toA1(row, c + 1)] = typeof v === 'number' ? v : text(v);
    });
  });
  return createWorkbook({
    sheets: [{ name: LIBRARY_EXPORT_SHEET, cells, frozenRows: 1, widths: { 3: 60, ...Object.fromEntries(slotKeys.map((_, i) => [4 + i, 40])) } }],
  });
}
