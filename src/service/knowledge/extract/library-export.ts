/**
 * The answer library's own export (../../domain/library-export.ts) read back as answers: one entry a row,
 * its question, question id and answer slots as exported, under the question key it was exported with
 * (so an entry comes back as the same question, section subject included). The export's other columns
 * (entry id, offering, as of, status, approver, source) describe the entry and are no answer; a row
 * exported as retired is not learned again. Its status and approver come back as the row's `decision`
 * (canonical, or approved by someone), which ../../domain/library-import.ts applies once it is learned.
 */
import { getCell, type SheetGrid } from '../../detect/grid';
import { formatCell } from '../../../xlsx/ranges';
import type { LibraryDecision, QaPair } from '../types';

export const LIBRARY_EXPORT_SHEET = 'Answer library';
/** The columns before the answer slots, and after them. */
export const LIBRARY_EXPORT_LEADING = ['Entry ID', 'Question ID', 'Question'] as const;
export const LIBRARY_EXPORT_TRAILING = ['Offering', 'As of', 'Status', 'Approved by', 'Source', 'Question key'] as const;
/** The last column: the section of its sheet an entry was learned in (an export made before it has none). */
export const LIBRARY_EXPORT_SECTION = 'Section';

const SLOT_TITLES: Record<string, string> = { answer: 'Answer', comment: 'Comment', notes: 'Notes' };

/** A slot's column title: "Answer", "Comment", else its key in words ("risk_rating" → "Risk rating"). */
export function slotTitle(key: string): string {
  return SLOT_TITLES[key.toLowerCase()] ?? key.replace(/[_-]+/g, ' ').replace(/^\w/, (c) => c.toUpperCase());
}

/** The slot key a column title stands for (slotTitle backwards). */
function slotKey(title: string): string {
  const known = Object.entries(SLOT_TITLES).find(([, t]) => t === title);
  return known ? known[0] : title.toLowerCase().replace(/\s+/g, '_');
}

const text = (grid: SheetGrid, row: number, col: number) => {
  const v = getCell(grid, row, col)?.value;
  return v === null || v === undefined ? '' : String(v).trim();
};

/** A row's status ("canonical (review due)") and approver as a decision; nothing for a row neither settled nor approved. */
function decisionOf(status: string, approvedBy: string): { decision?: Pick<LibraryDecision, 'status' | 'approved_by'> } {
  if (status.startsWith('canonical')) return { decision: { status: 'canonical', approved_by: approvedBy } };
  return approvedBy ? { decision: { status: 'approved', approved_by: approvedBy } } : {};
}

/** The library decisions its pairs carry (a library export's), located as their entries will be. */
export function libraryDecisions(pairs: readonly QaPair[]): LibraryDecision[] {
  return pairs.flatMap((p) => (p.decision && p.location ? [{ location: p.location, question: p.question, ...p.decision }] : []));
}

/** The entries of a sheet laid out as the library's export, or null when the sheet is not one. */
export function qaFromLibraryExport(grid: SheetGrid): QaPair[] | null {
  if (grid.name !== LIBRARY_EXPORT_SHEET) return null;
  const headers = Array.from({ length: grid.maxCol }, (_, i) => text(grid, 1, i + 1));
  if (LIBRARY_EXPORT_LEADING.some((h, i) => headers[i] !== h)) return null;
  const offering = headers.indexOf(LIBRARY_EXPORT_TRAILING[0]);
  if (offering < LIBRARY_EXPORT_LEADING.length + 1 || LIBRARY_EXPORT_TRAILING.some((h, i) => headers[offering + i] !== h)) return null;
  const column = (title: (typeof LIBRARY_EXPORT_TRAILING)[number]) => offering + LIBRARY_EXPORT_TRAILING.indexOf(title) + 1;
  const sectionColumn = headers[offering + LIBRARY_EXPORT_TRAILING.length] === LIBRARY_EXPORT_SECTION ? offering + LIBRARY_EXPORT_TRAILING.length + 1 : null;
  const slotColumns = headers
    .slice(LIBRARY_EXPORT_LEADING.length, offering)
    .map((title, i) => ({ key: slotKey(title), title, col: LIBRARY_EXPORT_LEADING.length + i + 1 }));
  const pairs: QaPair[] = [];
  for (let r = 2; r <= grid.maxRow; r++) {
    const question = text(grid, r, 3);
    const status = text(grid, r, column('Status'));
    if (!question || status.startsWith('retired')) continue;
    const slots = slotColumns.map((s) => ({ slot_key: s.key, header: s.title, content: text(grid, r, s.col) })).filter((s) => s.content !== '');
    if (slots.length === 0) continue;
    const answer = slots.find((s) => s.slot_key === 'answer') ?? slots[0]!;
    pairs.push({
      question,
      answer: answer.content,
      slots: [answer, ...slots.filter((s) => s !== answer)],
      original_id: text(grid, r, 2) || null,
      tab_name: LIBRARY_EXPORT_SHEET,
      location: `${LIBRARY_EXPORT_SHEET}!${formatCell({ row: r, column: 3 })}`,
      qkey: text(grid, r, column('Question key')) || undefined,
      ...(sectionColumn && text(grid, r, sectionColumn) ? { section: text(grid, r, sectionColumn) } : {}),
      ...decisionOf(status, text(grid, r, column('Approved by'))),
    });
  }
  return pairs;
}
