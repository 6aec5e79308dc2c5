/**
 * Layout phase: the sheet's slot columns. Each column named in header rows takes its most frequent
 * header; without any header row, list-validated columns beside the questions answer them. Roles are
 * unique per sheet: `answer`, `comment`, `owner`, else the header as a slug.
 */
import { headerKind, isHeaderLike, slug, type HeaderKind } from './text';
import type { HeaderRow } from './header-rows';
import { applyMarkGroups, findMarkGroups } from './mark-columns';
import type { SheetView } from './sheet-view';

export interface SlotColumn {
  col: number;
  header: string;
  kind: HeaderKind;
  role: string;
  /** One choice of an answer given by a mark (mark-columns.ts). */
  mark?: { group: string; choice: string; choices: string[]; mark: string };
}

export function findSlotColumns(
  view: SheetView,
  headerRows: readonly HeaderRow[],
  textRows: readonly number[],
  exclude: readonly number[],
): Map<number, SlotColumn> {
  const markGroups = findMarkGroups(view, headerRows);
  const columns = headerRows.length > 0 ? headedColumns(headerRows) : new Map<number, SlotColumn>();
  if (columns.size === 0) {
    listColumns(view, textRows, exclude).forEach((c, i) => {
      const own = ownHeader(view, c, textRows);
      const header = own ?? (i === 0 ? 'Answer' : `Answer ${i + 1}`);
      columns.set(c, { col: c, header, kind: own && headerKind(own) !== 'other' ? headerKind(own) : 'answer', role: '' });
    });
  }
  // Choice columns are answer columns, whatever their headers' words.
  for (const g of markGroups)
    for (const { col } of g.columns) {
      const sc = columns.get(col);
      if (sc && sc.kind === 'other') sc.kind = 'answer';
    }
  dropLeadingReferences(columns);
  assignRoles(columns, (c) => textRows.some((r) => view.hasList(r, c)));
  applyMarkGroups(columns, markGroups);
  return columns;
}

/**
 * Columns between the question and the first answer-named column that name no answer slot
 * (`Level 1 | Level 2 | Since`, `R`) describe the question, like its id: they are no slots. Reference
 * columns after it (guidance, analyst notes) stay, as blocked slots.
 */
function dropLeadingReferences(columns: Map<number, SlotColumn>): void {
  const firstAnswer = [...columns.values()].filter((s) => s.kind === 'answer').sort((a, b) => a.col - b.col)[0];
  if (!firstAnswer) return;
  for (const s of [...columns.values()]) {
    if ((s.kind === 'reference' || s.kind === 'other') && s.col < firstAnswer.col) columns.delete(s.col);
  }
}

function headedColumns(headerRows: readonly HeaderRow[]): Map<number, SlotColumn> {
  const votes = new Map<number, Map<string, number>>();
  for (const h of headerRows) {
    for (const [c, t] of h.columns) {
      const v = votes.get(c) ?? new Map<string, number>();
      v.set(t, (v.get(t) ?? 0) + 1);
      votes.set(c, v);
    }
  }
  const columns = new Map<number, SlotColumn>();
  for (const [c, v] of [...votes].sort((a, b) => a[0] - b[0])) {
    const header = [...v].sort((a, b) => b[1] - a[1])[0][0];
    columns.set(c, { col: c, header, kind: headerKind(header), role: '' });
  }
  return columns;
}

/** The header-like text nearest above the column's first question row (`Dispostion`, as the sheet spells it). */
function ownHeader(view: SheetView, c: number, textRows: readonly number[]): string | null {
  const first = textRows.find((r) => view.hasList(r, c)) ?? textRows[0];
  if (first === undefined) return null;
  for (let i = view.rows.indexOf(first) - 1; i >= 0; i--) {
    const t = view.text(view.rows[i], c);
    if (t) return isHeaderLike(t) ? t : null;
  }
  return null;
}

/** Visible list-validated columns whose validation reaches a row with question text. */
function listColumns(view: SheetView, textRows: readonly number[], exclude: readonly number[]): number[] {
  const cols = new Set<number>();
  for (const v of view.grid.validations) {
    if (v.type !== 'list') continue;
    for (const range of v.ranges) {
      if (!textRows.some((r) => r >= range.top && r <= range.bottom)) continue;
      for (let c = range.left; c <= Math.min(range.right, view.grid.maxCol); c++) {
        if (!exclude.includes(c) && !view.grid.hiddenCols.has(c)) cols.add(c);
      }
    }
  }
  return [...cols].sort((a, b) => a - b);
}

/** answer → the first answer-named column (else the first dropdown column, else the first non-reference
 * column); comment and owner → the first column of that kind; everything else → its header as a slug. */
export function assignRoles(columns: Map<number, SlotColumn>, hasDropdown: (col: number) => boolean): void {
  const ordered = [...columns.values()].sort((a, b) => a.col - b.col);
  const used = new Set<string>();
  const claim = (s: SlotColumn | undefined, role: string) => {
    if (!s || s.role) return;
    s.role = role;
    used.add(role);
  };
  claim(
    ordered.find((s) => s.kind === 'answer') ??
      ordered.find((s) => s.kind !== 'reference' && hasDropdown(s.col)) ??
      ordered.find((s) => s.kind !== 'reference'),
    'answer',
  );
  claim(
    ordered.find((s) => !s.role && s.kind === 'comment'),
    'comment',
  );
  claim(
    ordered.find((s) => !s.role && s.kind === 'owner'),
    'owner',
  );
  for (const s of ordered) {
    if (s.role) continue;
    let role = slug(s.header);
    if (role === 'answer' || role === 'comment' || role === 'owner') role = `${role}_${s.col}`;
    let unique = role;
    for (let i = 2; used.has(unique); i++) unique = `${role}_${i}`;
    s.role = unique;
    used.add(unique);
  }
}
