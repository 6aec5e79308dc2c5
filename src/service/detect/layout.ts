/**
 * Finds the question table of one sheet: the question column (by content or by its header), the id
 * column, header rows (also section rows that carry the slot headers), section rows, question rows and
 * each question's answer slots (either side of the question column). Decisions use generic signals
 * only: question-like text, id patterns, header words, data validations, merges, formulas, protection
 * and formatting. Section nesting is worked out in sections.ts from the headings met on the way.
 */
import type { AnswerSlot } from '../../api/schemas';
import { toA1 } from '../../xlsx/a1';
import { parseCell } from '../../xlsx/ranges';
import { getCell, MergeIndex, type Cell, type Range, type SheetGrid } from './grid';
import {
  headerKind,
  ID_HEADER_RE,
  isHeaderLike,
  isIdLike,
  isProse,
  isQuestionHeader,
  isQuestionLike,
  isSlotHeader,
  slug,
  type HeaderKind,
} from './text';
import { numberingDepth, outlineDepth, sectionPaths, type Heading, type WalkEvent } from './sections';
import type { ValidationLookup } from './validation';

export interface CellStyleLookup {
  locked(style: number): boolean;
  bold(style: number): boolean;
  /** Formatting signature: cells that look alike share it. */
  look(style: number): string;
}

export interface SheetQuestion {
  original_id: string | null;
  original_question_text: string;
  section_path: string[];
  row: number;
  question_coordinate: string;
  /** Local block number within the sheet (from 0). */
  block: number;
  answer_slots: AnswerSlot[];
}

export type SheetAnalysis =
  | { ok: true; questions: SheetQuestion[]; questionColumn: number; idColumn: number | null; hiddenQuestionRows: number[] }
  | { ok: false; reason: string };

interface SlotColumn {
  col: number;
  header: string;
  kind: HeaderKind;
  role: string;
}

/** Share of question rows whose answer cell is a formula above which a sheet is a derived report. */
const DERIVED_FORMULA_SHARE = 0.8;

export function analyseSheet(grid: SheetGrid, validations: ValidationLookup, styles: CellStyleLookup): SheetAnalysis {
  const merges = new MergeIndex(grid.merges);
  // Hidden rows are read too: a hidden question is still a question of the form (often a conditional
  // one), and the writer may fill it; the caller warns about them.
  const rowsInOrder = [...grid.rows.keys()].sort((a, b) => a - b);

  /** The top-left of the merge covering (r, c), when (r, c) is not that top-left. */
  const coveredBy = (r: number, c: number): Range | undefined => {
    const m = merges.at(r, c);
    return m && (m.top !== r || m.left !== c) ? m : undefined;
  };
  /** Text a reader sees as belonging to this cell position (empty for covered cells). */
  const text = (r: number, c: number): string | null => {
    if (coveredBy(r, c)) return null;
    const v = getCell(grid, r, c)?.value;
    const t = v?.trim();
    return t ? t : null;
  };
  const anchorCache = new Map<number, { col: number; text: string }[]>();
  const anchors = (r: number): { col: number; text: string }[] => {
    const cached = anchorCache.get(r);
    if (cached) return cached;
    const out: { col: number; text: string }[] = [];
    anchorCache.set(r, out);
    const row = grid.rows.get(r);
    if (!row) return out;
    for (const c of [...row.keys()].sort((a, b) => a - b)) {
      if (grid.hiddenCols.has(c)) continue;
      const t = text(r, c);
      if (t) out.push({ col: c, text: t });
    }
    return out;
  };

  // ---- 1. Question column: an explicit "Question" header, else the column richest in question-like text.
  let explicitHeaderRow: number | null = null;
  let questionCol: number | null = null;
  for (const r of rowsInOrder) {
    for (const a of anchors(r)) {
      if (!isQuestionHeader(a.text)) continue;
      const filledBelow = rowsInOrder.filter((rr) => rr > r && text(rr, a.col)).length;
      if (filledBelow >= 1) {
        explicitHeaderRow = r;
        questionCol = a.col;
        break;
      }
    }
    if (questionCol !== null) break;
  }
  if (questionCol === null) {
    const score = new Map<number, number>();
    for (const r of rowsInOrder) {
      for (const a of anchors(r)) {
        if (!isQuestionLike(a.text)) continue;
        let s = /\?\s*(\(.*\))?\s*$/.test(a.text) ? 2 : 1;
        if (isIdLike(text(r, a.col - 1)) || isIdLike(text(r, a.col - 2))) s += 1;
        score.set(a.col, (score.get(a.col) ?? 0) + s);
      }
    }
    let best = 0;
    for (const [c, s] of score) {
      if (s > best || (s === best && questionCol !== null && c < questionCol)) {
        best = s;
        questionCol = c;
      }
    }
    if (questionCol === null || best < 3) {
      return { ok: false, reason: 'it has no column of question-like text and no "Question" column header' };
    }
  }
  const Q = questionCol;

  // ---- 2. Id column: mostly id-like, mostly unique values beside the question texts.
  const textRows = rowsInOrder.filter((r) => text(r, Q) && (explicitHeaderRow === null || r > explicitHeaderRow));
  let idCol: number | null = null;
  {
    let bestCoverage = 0;
    const candidates = new Set<number>();
    for (const r of textRows) for (const a of anchors(r)) if (a.col !== Q && isIdLike(a.text)) candidates.add(a.col);
    for (const c of candidates) {
      const ids = textRows.map((r) => text(r, c)).filter((t): t is string => isIdLike(t));
      const coverage = ids.length / Math.max(1, textRows.length);
      const unique = new Set(ids).size / Math.max(1, ids.length);
      const explicit = explicitHeaderRow !== null && ID_HEADER_RE.test(text(explicitHeaderRow, c) ?? '');
      const needed = explicit ? 0.3 : 0.5;
      const adjusted = coverage + (c < Q ? 0.05 : 0) - Math.abs(c - Q) * 0.001;
      if (coverage >= needed && unique >= 0.8 && adjusted > bestCoverage) {
        bestCoverage = adjusted;
        idCol = c;
      }
    }
  }

  const shapeCounts = new Map<string, number>();
  if (idCol !== null) {
    for (const r of textRows) {
      const t = text(r, idCol);
      if (isIdLike(t)) shapeCounts.set(idShape(t as string), (shapeCounts.get(idShape(t as string)) ?? 0) + 1);
    }
  }
  const mainIdShape = [...shapeCounts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;

  // ---- 3. Header rows: slot headers to the right of the question column (and, under an explicit
  // "Question" header, slot-naming headers to its left: `Response | Question`).
  interface HeaderRow {
    row: number;
    columns: Map<number, string>;
    title: { col: number; text: string } | null;
  }
  const headerRows: HeaderRow[] = [];
  const headerRowAt = new Map<number, HeaderRow>();
  for (const r of rowsInOrder) {
    const qText = text(r, Q);
    const qHeader = isQuestionHeader(qText);
    if (qText !== null && !qHeader) continue;
    if (idCol !== null && isIdLike(text(r, idCol))) continue;
    const right = anchors(r).filter((a) => a.col > Q);
    const left = qHeader ? leftSlotHeaders(r) : new Map<number, string>();
    // Reference headers alone (Score, Weight, Guidance) make a report table, not an answer table.
    const namesAnswerSlot =
      right.some((a) => isSlotHeader(a.text) && headerKind(a.text) !== 'reference') ||
      [...left.values()].some((t) => headerKind(t) !== 'reference');
    if (!namesAnswerSlot && !(qHeader && right.some((a) => isHeaderLike(a.text)))) continue;
    const columns = new Map<number, string>(left);
    let started = false;
    for (let c = Q + 1; c <= grid.maxCol; c++) {
      if (grid.hiddenCols.has(c)) {
        if (started) break;
        continue;
      }
      const t = text(r, c);
      if (t && isHeaderLike(t)) {
        columns.set(c, t);
        started = true;
      } else if (started) break;
    }
    if (columns.size === 0) continue;
    const titleCell = anchors(r).find(
      (a) => a.col <= Q && !left.has(a.col) && !isQuestionHeader(a.text) && !ID_HEADER_RE.test(a.text) && a.text.length <= 100,
    );
    const h: HeaderRow = { row: r, columns, title: titleCell ?? null };
    headerRows.push(h);
    headerRowAt.set(r, h);
  }

  // ---- 4. Sheet-level slot columns: the most frequent header per column, roles unique per sheet.
  const headerVotes = new Map<number, Map<string, number>>();
  for (const h of headerRows) {
    for (const [c, t] of h.columns) {
      const votes = headerVotes.get(c) ?? new Map<string, number>();
      votes.set(t, (votes.get(t) ?? 0) + 1);
      headerVotes.set(c, votes);
    }
  }
  const listCell = (r: number, c: number) => validations.at(r, c) !== undefined;
  const slotColumns = new Map<number, SlotColumn>();
  for (const [c, votes] of [...headerVotes].sort((a, b) => a[0] - b[0])) {
    const header = [...votes].sort((a, b) => b[1] - a[1])[0][0];
    slotColumns.set(c, { col: c, header, kind: headerKind(header), role: '' });
  }
  const questionLike = (r: number) => isQuestionLike(text(r, Q));
  if (slotColumns.size === 0) {
    // No header row: dropdown columns beside the questions (either side) answer them.
    const dvCols = new Set<number>();
    for (const v of grid.validations) {
      if (v.type !== 'list') continue;
      for (const range of v.ranges) {
        if (!textRows.some((r) => r >= range.top && r <= range.bottom)) continue;
        for (let c = range.left; c <= Math.min(range.right, grid.maxCol); c++) {
          if (c !== Q && c !== idCol && !grid.hiddenCols.has(c)) dvCols.add(c);
        }
      }
    }
    const cols = dvCols.size > 0 ? [...dvCols].sort((a, b) => a - b) : [];
    if (cols.length === 0) {
      return {
        ok: false,
        reason: 'it has question-like text but no header row naming an answer column (e.g. "Answer", "Response") and no dropdown answer cells',
      };
    }
    cols.forEach((c, i) => slotColumns.set(c, { col: c, header: i === 0 ? 'Answer' : `Answer ${i + 1}`, kind: 'answer', role: '' }));
  }
  assignRoles(slotColumns, (c) => textRows.some((r) => listCell(r, c)));
  const answerColumn = [...slotColumns.values()].find((s) => s.role === 'answer');
  if (!answerColumn) {
    return { ok: false, reason: 'its columns are reference material (guidance, scoring, mappings) with no answer column' };
  }

  // ---- 5. Walk the rows: headings (section rows, header-row titles), header rows, questions.
  const questions: SheetQuestion[] = [];
  const events: WalkEvent[] = [];
  const headerOf: number[] = [];
  let activeHeader: HeaderRow | null = null;
  const hasExplicitTable = explicitHeaderRow !== null || headerRows.length > 0;

  rowsInOrder.forEach((r, i) => {
    const header = headerRowAt.get(r);
    if (header) {
      activeHeader = header;
      if (header.title) events.push({ heading: headingAt(r, header.title.col, header.title.text) });
      return;
    }
    const qText = text(r, Q);
    const idText = idCol !== null ? text(r, idCol) : null;
    const hasId = isIdLike(idText);
    const rowAnchors = anchors(r);
    const qCovered = coveredBy(r, Q);
    if (!qText || qCovered) {
      if (!qCovered || qCovered.top === r) maybeSection(r, rowAnchors);
      return;
    }
    const afterExplicitHeader = explicitHeaderRow !== null && r > explicitHeaderRow;
    const hasAnswerEvidence = rowHasEvidence(r, answerColumn.col);
    let isQuestion: boolean;
    if (idCol !== null) {
      isQuestion = hasId || (questionLike(r) && hasAnswerEvidence);
      const depth = hasId ? outlineDepth(idText as string) : null;
      if (depth !== null && isOutlineParent(i, idText as string)) {
        // `1 | General` above `1.1 | Do you ...?`: a numbered section row, not a question.
        events.push({ heading: { ...headingAt(r, Q, qText), depth, outline: (idText as string).trim().replace(/\.$/, '') } });
        return;
      }
    } else if (afterExplicitHeader) {
      isQuestion = !(rowAnchors.length === 1 && (looksLikeSection(r, rowAnchors[0], true) || isLabelSection(i)));
    } else {
      isQuestion = questionLike(r) || (hasAnswerEvidence && listCell(r, answerColumn.col));
    }
    // Above an explicit header only rows whose id looks like the table's ids (not a version stamp).
    if (explicitHeaderRow !== null && r <= explicitHeaderRow && !(hasId && idShape(idText as string) === mainIdShape)) {
      isQuestion = false;
    }

    if (!isQuestion) {
      maybeSection(r, rowAnchors);
      return;
    }
    events.push({ question: questions.length, id: hasId ? (idText as string).trim() : null });
    headerOf.push(activeHeader?.row ?? 0);
    questions.push({
      original_id: hasId ? (idText as string) : null,
      original_question_text: qText,
      section_path: [],
      row: r,
      question_coordinate: toA1(r, Q),
      block: 0,
      answer_slots: slotsFor(r, activeHeader),
    });
  });

  // Blocks: runs of questions under the same section and the same header row.
  const paths = sectionPaths(events);
  let block = -1;
  let blockKey: string | null = null;
  questions.forEach((q, i) => {
    q.section_path = paths.get(i) ?? [];
    const key = `${q.section_path.join('\u0001')}\u0000${headerOf[i]}`;
    if (key !== blockKey) {
      block++;
      blockKey = key;
    }
    q.block = block;
  });
  const hiddenQuestionRows = questions.filter((q) => grid.hiddenRows.has(q.row)).map((q) => q.row);

  if (questions.length === 0) {
    return { ok: false, reason: 'it has a question column but no question rows' };
  }
  if (!hasExplicitTable && questions.length < 2) {
    return { ok: false, reason: 'it has only one question-like row and no table header' };
  }
  const answerFormulas = questions.filter((q) => {
    const a = q.answer_slots.find((s) => s.role === 'answer');
    return a !== undefined && getCell(grid, ...rowCol(a.coordinate))?.formula === true;
  }).length;
  if (answerFormulas / questions.length >= DERIVED_FORMULA_SHARE) {
    return {
      ok: false,
      reason: 'its answer cells are formulas that mirror other cells (a report or lookup, not a questionnaire)',
    };
  }
  return { ok: true, questions, questionColumn: Q, idColumn: idCol, hiddenQuestionRows };

  // ---- helpers that read the walk's state -------------------------------------------------------
  /** Slot-naming headers left of the question header, nearest first, up to other text or a wide title. */
  function leftSlotHeaders(r: number): Map<number, string> {
    const found = new Map<number, string>();
    for (let c = Q - 1; c >= 1; c--) {
      if (c === idCol || grid.hiddenCols.has(c)) continue;
      const t = text(r, c);
      if (!t) continue;
      const m = merges.at(r, c);
      if ((m && m.right >= Q) || !isSlotHeader(t) || ID_HEADER_RE.test(t)) break;
      found.set(c, t);
    }
    return found;
  }

  /** `formatted`: only a merged, bold or out-of-column title counts (a plain label may be a question). */
  function looksLikeSection(r: number, a: { col: number; text: string }, formatted = false): boolean {
    if (isProse(a.text) || isIdLike(a.text) || /^https?:\/\//i.test(a.text) || a.text.length > 100) return false;
    if (a.text.split(/\s+/).some((w) => isIdLike(w) && /[A-Za-z]/.test(w) && /-/.test(w))) return false;
    const m = merges.at(r, a.col);
    const wide = m !== undefined && m.right > m.left;
    const cell = getCell(grid, r, a.col);
    const marked = wide || a.col !== Q || (cell !== undefined && styles.bold(cell.style));
    return marked || (!formatted && !isQuestionLike(a.text));
  }

  function maybeSection(r: number, rowAnchors: { col: number; text: string }[]): void {
    if (rowAnchors.length !== 1) return;
    const a = rowAnchors[0];
    if (looksLikeSection(r, a)) events.push({ heading: headingAt(r, a.col, a.text) });
  }

  function headingAt(r: number, c: number, title: string): Heading {
    const cell = getCell(grid, r, c);
    return { row: r, text: title, look: styles.look(cell?.style ?? 0), depth: numberingDepth(title) };
  }

  /** Nothing written in any slot of the row (a value or a formula). */
  function slotsEmpty(r: number): boolean {
    for (const c of slotColumns.keys()) {
      const cell = getCell(grid, r, c);
      if (cell && (cell.value !== null || cell.formula)) return false;
    }
    return true;
  }

  /** An outline number whose next id row continues it (`1` then `1.1`), on a row that asks nothing. */
  function isOutlineParent(index: number, id: string): boolean {
    const r = rowsInOrder[index];
    if (questionLike(r) || !slotsEmpty(r)) return false;
    const stem = id.trim().replace(/\.$/, '');
    for (let j = index + 1; j < rowsInOrder.length; j++) {
      const next = text(rowsInOrder[j], idCol as number);
      if (isIdLike(next)) return (next as string).startsWith(`${stem}.`);
    }
    return false;
  }

  /**
   * In an unformatted table without ids: a short label alone in the question column, with no answer,
   * no dropdown, followed by real questions, is a section title (`General`), not a label-style
   * question (`Company name`, which has an answer or sits among other labels).
   */
  function isLabelSection(index: number): boolean {
    const r = rowsInOrder[index];
    const label = text(r, Q) as string;
    if (questionLike(r) || isProse(label) || label.length > 60 || /[:?]$/.test(label)) return false;
    if (!slotsEmpty(r) || [...slotColumns.keys()].some((c) => listCell(r, c))) return false;
    let following = 0;
    for (let j = index + 1; j < rowsInOrder.length && following < 2; j++) {
      const rr = rowsInOrder[j];
      if (!text(rr, Q)) continue;
      if (!questionLike(rr)) return false;
      following++;
    }
    return following === 2;
  }

  function rowHasEvidence(r: number, c: number): boolean {
    if (coveredBy(r, c)) return false;
    const cell = getCell(grid, r, c);
    if (cell && (cell.value !== null || cell.formula)) return true;
    if (listCell(r, c)) return true;
    const m = merges.at(r, c);
    if (m && (m.right > m.left || m.bottom > m.top)) return true;
    return grid.isProtected && cell !== undefined && !styles.locked(cell.style);
  }

  function slotsFor(r: number, active: HeaderRow | null): AnswerSlot[] {
    const cols = new Set<number>();
    if (active) for (const c of active.columns.keys()) if (slotColumns.has(c)) cols.add(c);
    cols.add(answerColumn!.col);
    for (const c of slotColumns.keys()) if (rowHasEvidence(r, c)) cols.add(c);
    const slots: AnswerSlot[] = [];
    const taken = new Set<string>();
    for (const c of [...cols].sort((a, b) => a - b)) {
      if (grid.hiddenCols.has(c)) continue;
      const sc = slotColumns.get(c)!;
      const cover = coveredBy(r, c);
      let anchorRow = r;
      let anchorCol = c;
      let blocked = false;
      if (cover) {
        const anchorKey = `${cover.top}:${cover.left}`;
        // Part of a merge that starts in another slot of this row: the same cell, already listed.
        if (taken.has(anchorKey) || (cover.top === r && cols.has(cover.left))) continue;
        blocked = true;
        // A merge that starts in the question or id cell: writing anywhere would overwrite that text.
        const startsInQuestion = cover.left === Q || cover.left === idCol || !slotColumns.has(cover.left);
        if (!startsInQuestion) {
          anchorRow = cover.top;
          anchorCol = cover.left;
        }
      }
      taken.add(`${anchorRow}:${anchorCol}`);
      const cell: Cell | undefined = cover && anchorCol === c && anchorRow === r ? undefined : getCell(grid, anchorRow, anchorCol);
      const style = cell?.style ?? grid.rowStyles.get(anchorRow) ?? grid.colStyles.get(anchorCol) ?? 0;
      if (cell?.formula) blocked = true;
      if (grid.isProtected && styles.locked(style)) blocked = true;
      if (sc.kind === 'reference') blocked = true;
      const dv = validations.at(anchorRow, anchorCol);
      const slot: AnswerSlot = {
        role: sc.role,
        header: active?.columns.get(c) ?? sc.header,
        coordinate: toA1(anchorRow, anchorCol),
        value: cell?.value != null && cell.value.trim() !== '' ? cell.value : null,
        is_blocked: blocked,
        type: dv ? 'list' : 'text',
      };
      if (dv) {
        const allowed = validations.allowed(dv);
        if (allowed) slot.allowed_values = allowed;
      }
      slots.push(slot);
    }
    return slots;
  }
}

/** `COMP-01` and `DOCU-12` share the shape `A-9`; `v4.0.3` has `A9.9.9`. */
function idShape(id: string): string {
  return id.replace(/[A-Za-z]+/g, 'A').replace(/\d+/g, '9');
}

function rowCol(a1: string): [number, number] {
  const ref = parseCell(a1)!;
  return [ref.row, ref.col];
}

/** answer → the first answer-named column (else the first dropdown column, else the first non-reference
 * column); comment and owner → the first column of that kind; everything else → its header as a slug. */
function assignRoles(columns: Map<number, SlotColumn>, hasDropdown: (col: number) => boolean): void {
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
  claim(ordered.find((s) => !s.role && s.kind === 'comment'), 'comment');
  claim(ordered.find((s) => !s.role && s.kind === 'owner'), 'owner');
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
