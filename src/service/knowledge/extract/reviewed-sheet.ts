/**
 * A reviewed Q&A sheet (src/fill/qa-sheet.ts: the answer cells of a filled workbook as the analyst left
 * them) into answer-library entries, one per question, each slot under its role, with the question's
 * tab, id and cell. Recognised by its header row alone; anything else is no reviewed sheet (null).
 */
import { QA_SHEET_COLUMNS } from '../../../fill/qa-sheet';
import { detectDelimiter, splitRecords, decodeText } from '../../detect/csv';
import { isGuidanceText } from '../guidance-text';
import type { QaPair } from '../types';

export function qaFromReviewedSheet(bytes: Uint8Array): QaPair[] | null {
  const text = decodeText(bytes);
  const records = splitRecords(text, detectDelimiter(text));
  const header = records[0]?.map((h) => h.trim());
  if (!header || header.length < QA_SHEET_COLUMNS.length || QA_SHEET_COLUMNS.some((c, i) => header[i] !== c)) return null;
  const questions = new Map<string, string[][]>();
  for (const record of records.slice(1)) {
    const row = record.map((f) => f.trim());
    const [tab = '', questionCell = '', , question = ''] = row;
    if (question === '') continue;
    const key = `${tab}\u0000${questionCell}\u0000${question}`;
    questions.set(key, [...(questions.get(key) ?? []), row]);
  }
  const pairs: QaPair[] = [];
  for (const rows of questions.values()) {
    // A question's first row is its answer cell: without a vendor answer there, it is no entry.
    const [tab = '', questionCell = '', id = '', question = '', , , , answer = ''] = rows[0]!;
    if (answer === '' || isGuidanceText(answer)) continue;
    const slots: QaPair['slots'] = [];
    for (const [, , , , role = '', slotHeader = '', , content = ''] of rows) {
      if (role === '' || content === '' || isGuidanceText(content) || slots.some((s) => s.slot_key === role)) continue;
      slots.push({ slot_key: role, header: slotHeader, content });
    }
    pairs.push({ question, answer, slots, original_id: id || null, tab_name: tab, location: questionCell });
  }
  return pairs;
}
