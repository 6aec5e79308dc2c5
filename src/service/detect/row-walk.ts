/**
 * Layout phase: walks the rows top to bottom and tells each one apart: a header row (switches the
 * active slot headers), a heading (section row, numbered outline row, header-row title), a question
 * (with its answer slots), or nothing. The headings and questions met, in order, feed sections.ts.
 */
import { toA1 } from '../../xlsx/a1';
import { idShape, type IdColumn } from './id-column';
import { isIdLike, isProse, isQuestionLike, isStatementLike, isWithdrawn } from './text';
import { numberingDepth, outlineDepth, type Heading, type WalkEvent } from './sections';
import type { HeaderRow } from './header-rows';
import type { Anchor, SheetView } from './sheet-view';
import { rowHasEvidence, slotsFor, type SlotContext } from './slots';
import type { SheetQuestion } from './layout';

export interface WalkInput extends SlotContext {
  id: IdColumn | null;
  /** Row of an explicit "Question" header, or null. */
  explicitHeaderRow: number | null;
  headerRows: readonly HeaderRow[];
}

export interface Walk {
  questions: SheetQuestion[];
  events: WalkEvent[];
  /** Per question, the row of the header row above it (0 when none): blocks break where it changes. */
  headerOf: number[];
  /** Rows of withdrawn or deleted items (`[Withdrawn: Incorporated into AC-7.]`): kept out of the questions. */
  withdrawnRows: number[];
}

export function walkRows(input: WalkInput): Walk {
  const { view, questionCol: Q, explicitHeaderRow } = input;
  const idCol = input.id?.col ?? null;
  const headerRowAt = new Map(input.headerRows.map((h) => [h.row, h]));
  const rows = new RowSignals(input);
  const questions: SheetQuestion[] = [];
  const events: WalkEvent[] = [];
  const headerOf: number[] = [];
  const withdrawnRows: number[] = [];
  let activeHeader: HeaderRow | null = null;

  const maybeSection = (r: number, rowAnchors: Anchor[]) => {
    if (rowAnchors.length !== 1) return;
    const a = rowAnchors[0];
    if (rows.looksLikeSection(r, a)) events.push({ heading: rows.headingAt(r, a.col, a.text) });
  };

  view.rows.forEach((r, i) => {
    const header = headerRowAt.get(r);
    if (header) {
      activeHeader = header;
      if (header.title) events.push({ heading: rows.headingAt(r, header.title.col, header.title.text) });
      return;
    }
    const qText = view.text(r, Q);
    const idText = idCol !== null ? view.text(r, idCol) : null;
    const hasId = isIdLike(idText);
    const rowAnchors = view.anchors(r);
    const qCovered = view.coveredBy(r, Q);
    if (!qText || qCovered) {
      if (!qCovered || qCovered.top === r) maybeSection(r, rowAnchors);
      return;
    }
    if (isWithdrawn(qText)) {
      // A withdrawn section keeps its place as a heading; a withdrawn item is no question.
      if (hasId && idShape(idText as string) !== input.id?.mainShape) events.push({ heading: rows.headingAt(r, Q, qText) });
      else withdrawnRows.push(r);
      return;
    }
    const afterExplicitHeader = explicitHeaderRow !== null && r > explicitHeaderRow;
    const hasAnswerEvidence = rowHasEvidence(view, r, input.answerCol);
    if (rows.isComputedRow(r)) {
      maybeSection(r, rowAnchors);
      return;
    }
    const listAnswer = view.hasList(r, input.answerCol);
    let isQuestion: boolean;
    if (idCol !== null) {
      isQuestion = hasId || (rows.questionLike(r) && hasAnswerEvidence);
      const depth = hasId ? outlineDepth(idText as string) : null;
      if (depth !== null && rows.isOutlineParent(i, idText as string)) {
        // `1 | General` above `1.1 | Do you ...?`: a numbered section row, not a question.
        events.push({ heading: { ...rows.headingAt(r, Q, qText), depth, outline: (idText as string).trim().replace(/\.$/, '') } });
        return;
      }
      if (hasId && rows.isChapterRow(r, idText as string)) {
        // Numbered by its own id (`V1`): a top-level section, whatever its formatting.
        events.push({ heading: { ...rows.headingAt(r, Q, qText), depth: 1 } });
        return;
      }
    } else if (afterExplicitHeader) {
      isQuestion = !(rowAnchors.length === 1 && (rows.looksLikeSection(r, rowAnchors[0], true) || rows.isLabelSection(i)));
    } else {
      isQuestion = rows.questionLike(r) || (hasAnswerEvidence && listAnswer);
    }
    // Above an explicit header only rows whose id looks like the table's ids (not a version stamp).
    if (explicitHeaderRow !== null && r <= explicitHeaderRow && !(hasId && idShape(idText as string) === input.id?.mainShape)) {
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
      answer_slots: slotsFor(input, r, activeHeader),
    });
  });
  return { questions, events, headerOf, withdrawnRows };
}

/** Row-level signals the walk asks about: question-like text, section titles, outline parents, labels. */
export class RowSignals {
  private readonly view: SheetView;
  constructor(private readonly input: WalkInput) {
    this.view = input.view;
  }

  questionLike(r: number): boolean {
    return isQuestionLike(this.view.text(r, this.input.questionCol));
  }

  headingAt(r: number, c: number, title: string): Heading {
    const cell = this.view.cell(r, c);
    return { row: r, text: title, look: this.view.styles.look(cell?.style ?? 0), depth: numberingDepth(title) };
  }

  /** `formatted`: only a merged, bold or out-of-column title counts (a plain label may be a question). */
  looksLikeSection(r: number, a: Anchor, formatted = false): boolean {
    if (isProse(a.text) || isIdLike(a.text) || /^https?:\/\//i.test(a.text) || a.text.length > 100) return false;
    if (a.text.split(/\s+/).some((w) => isIdLike(w) && /[A-Za-z]/.test(w) && /-/.test(w))) return false;
    const m = this.view.merges.at(r, a.col);
    const wide = m !== undefined && m.right > m.left;
    const cell = this.view.cell(r, a.col);
    const marked = wide || a.col !== this.input.questionCol || (cell !== undefined && this.view.styles.bold(cell.style));
    return marked || (!formatted && !isQuestionLike(a.text));
  }

  /**
   * A row of results: its answer cell is a formula and its text neither asks nor states
   * (`Composite Score | =… | Automatic from the Scorecard Sheet`). A question mirrored from another
   * tab asks, and stays a question with its formula cell blocked.
   */
  isComputedRow(r: number): boolean {
    const answer = this.view.cell(r, this.input.answerCol);
    if (!answer?.formula) return false;
    const t = this.view.text(r, this.input.questionCol);
    return !isQuestionLike(t) && !isStatementLike(t);
  }

  /** Nothing written in any slot of the row (a value or a formula). */
  slotsEmpty(r: number): boolean {
    for (const c of this.input.slotColumns.keys()) {
      const cell = this.view.cell(r, c);
      if (cell && (cell.value !== null || cell.formula)) return false;
    }
    return true;
  }

  /**
   * A chapter row: an id of another shape than the table's (`V2` among `2.1`), a title that neither
   * asks nor states, and nothing in its slots (`V2 | Authentication verification requirements`).
   */
  isChapterRow(r: number, id: string): boolean {
    const mainShape = this.input.id?.mainShape;
    if (!mainShape || idShape(id) === mainShape) return false;
    const t = this.view.text(r, this.input.questionCol) as string;
    return !isQuestionLike(t) && !isStatementLike(t) && this.slotsEmpty(r);
  }

  /** An outline number whose next id row continues it (`1` then `1.1`), on a row that asks nothing. */
  isOutlineParent(index: number, id: string): boolean {
    const r = this.view.rows[index];
    const idCol = this.input.id?.col as number;
    if (this.questionLike(r) || !this.slotsEmpty(r)) return false;
    const stem = id.trim().replace(/\.$/, '');
    for (let j = index + 1; j < this.view.rows.length; j++) {
      const next = this.view.text(this.view.rows[j], idCol);
      if (isIdLike(next)) return (next as string).startsWith(`${stem}.`);
    }
    return false;
  }

  /**
   * In an unformatted table without ids: a short label alone in the question column, with no answer,
   * no dropdown, followed by real questions, is a section title (`General`), not a label-style
   * question (`Company name`, which has an answer or sits among other labels).
   */
  isLabelSection(index: number): boolean {
    const { view } = this;
    const Q = this.input.questionCol;
    const r = view.rows[index];
    const label = view.text(r, Q) as string;
    if (this.questionLike(r) || isProse(label) || label.length > 60 || /[:?]$/.test(label)) return false;
    if (!this.slotsEmpty(r) || [...this.input.slotColumns.keys()].some((c) => view.hasList(r, c))) return false;
    let following = 0;
    for (let j = index + 1; j < view.rows.length && following < 2; j++) {
      const rr = view.rows[j];
      if (!view.text(rr, Q)) continue;
      if (!this.questionLike(rr)) return false;
      following++;
    }
    return following === 2;
  }
}
