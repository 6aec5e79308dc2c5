/**
 * The fill report: per tab and per cell, written or skipped and why, with the answer's score,
 * trust and sources. Printed as a summary; written as JSON with `--report`.
 */
import { readEvaluation, type QuestionWithAnswers, type TrustLevel } from '../api/schemas';
import { describeAnnotationGaps, describeModelUsage, MAX_COLUMN, parseA1, pickAnswer, summarise, topSources } from '../fill';
import type { AnnotationGap, ModelUsage, SkipReason, SourceRef, WritePlan } from '../fill/types';

export interface CellReport {
  address: string | null;
  status: 'written' | 'skipped';
  reason: SkipReason | null;
  detail: string | null;
  question_id: number;
  original_id: string | null;
  slot: string;
  /** The text written, or for a draft the text held back for review; null otherwise. */
  value: string | null;
  score: number | null;
  trust: TrustLevel | null;
  sources: SourceRef[];
}

export interface TabCellsReport {
  tab: string;
  written: number;
  skipped: number;
  by_reason: Partial<Record<SkipReason, number>>;
  cells: CellReport[];
}

export interface FillReportJson {
  input: string;
  output: string;
  service: string;
  questionnaire_id: number;
  overwrite: boolean;
  written: number;
  skipped: number;
  by_reason: Partial<Record<SkipReason, number>>;
  /** Zip parts that differ from the input; every other part is byte-identical. */
  changed_parts: string[];
  /** Values changed to fit a cell (e.g. truncated to Excel's limit). */
  notes: { tab: string; address: string; note: string }[];
  tabs: TabCellsReport[];
  /** Language-model requests and tokens spent on the answers (summed from their evaluations); null without a model. */
  model_usage: ModelUsage | null;
  /** The add-in's highlight and source-note options (`--highlight`, `--source-notes`): whether they were asked for. */
  highlighted: boolean;
  source_notes: boolean;
  /** Cells given a trust colour, and notes added. */
  coloured_cells: number;
  source_note_cells: number;
  /** Answers left without a colour or a note they were asked for, and why, in words. */
  annotation_gaps: string[];
}

export interface ReportContext {
  input: string;
  output: string;
  service: string;
  questionnaireId: number;
  overwrite: boolean;
  changedParts: string[];
  notes: { tab: string; address: string; note: string }[];
  annotations?: ReportAnnotations;
}

/** What `--highlight` and `--source-notes` added (src/cli/fill-annotate.ts). */
export interface ReportAnnotations {
  highlight: boolean;
  sourceNotes: boolean;
  coloured: number;
  noted: number;
  gaps: readonly AnnotationGap[];
}

/** Row by row, left to right; an address that is not a plain `C5` sorts last. */
const addressOrder = (a: string | null) => {
  const cell = a !== null && /^[A-Z]+\d+$/.test(a) ? parseA1(a) : null;
  return cell ? cell.row * (MAX_COLUMN + 1) + cell.column : Number.MAX_SAFE_INTEGER;
};

export function buildFillReport(plan: WritePlan, questions: readonly QuestionWithAnswers[], ctx: ReportContext): FillReportJson {
  const byId = new Map(questions.map((q) => [q.id, q]));
  const evidenceOf = (questionId: number) => {
    const q = byId.get(questionId);
    const answer = q ? pickAnswer(q) : null;
    const evaluation = answer ? readEvaluation(answer.evaluation) : null;
    return { score: evaluation?.score ?? null, trust: evaluation?.trust ?? null, sources: answer ? topSources(answer) : [] };
  };
  const tabs = new Map<string, TabCellsReport>(
    plan.report.tabs.map((t) => [t.tab, { tab: t.tab, written: t.written, skipped: t.skipped, by_reason: t.byReason, cells: [] }]),
  );
  const tab = (name: string) => {
    let t = tabs.get(name);
    if (!t) tabs.set(name, (t = { tab: name, written: 0, skipped: 0, by_reason: {}, cells: [] }));
    return t;
  };
  for (const w of plan.writes) {
    tab(w.tab).cells.push({
      address: w.address,
      status: 'written',
      reason: null,
      detail: null,
      question_id: w.questionId,
      original_id: w.originalId,
      slot: w.slotRole,
      value: w.value,
      score: w.score,
      trust: w.trust,
      sources: w.sources,
    });
  }
  for (const s of plan.skipped) {
    tab(s.tab).cells.push({
      address: s.address,
      status: 'skipped',
      reason: s.reason,
      detail: s.detail,
      question_id: s.questionId,
      original_id: s.originalId,
      slot: s.slotRole,
      value: s.value ?? null,
      ...evidenceOf(s.questionId),
    });
  }
  for (const t of tabs.values()) t.cells.sort((a, b) => addressOrder(a.address) - addressOrder(b.address));
  return {
    input: ctx.input,
    output: ctx.output,
    service: ctx.service,
    questionnaire_id: ctx.questionnaireId,
    overwrite: ctx.overwrite,
    written: plan.report.written,
    skipped: plan.report.skipped,
    by_reason: plan.report.byReason,
    changed_parts: ctx.changedParts,
    notes: ctx.notes,
    tabs: [...tabs.values()],
    model_usage: plan.report.model ?? null,
    highlighted: ctx.annotations?.highlight ?? false,
    source_notes: ctx.annotations?.sourceNotes ?? false,
    coloured_cells: ctx.annotations?.coloured ?? 0,
    source_note_cells: ctx.annotations?.noted ?? 0,
    annotation_gaps: describeAnnotationGaps(ctx.annotations?.gaps ?? []),
  };
}

/** What the Excel add-in would add and the CLI did not: said, never silently left out. */
export const VALUES_ONLY =
  "Values only: the written cells are not highlighted and get no source notes (--highlight and --source-notes add them; the report lists each answer's sources).";

/** What the fill added beside the values, and what it could not add. */
function annotationLines(report: FillReportJson): string[] {
  if (!report.highlighted && !report.source_notes) return [VALUES_ONLY];
  const added = [
    ...(report.highlighted ? [`${plural(report.coloured_cells, 'answer')} coloured by trust`] : []),
    ...(report.source_notes ? [`${plural(report.source_note_cells, 'source note')} added`] : []),
  ];
  return [`${added.join('; ')}.`, ...report.annotation_gaps];
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The lines printed at the end of a fill. */
export function summaryLines(plan: WritePlan, report: FillReportJson): string[] {
  const lines = [summarise(plan)];
  for (const t of report.tabs) {
    const reasons = Object.entries(t.by_reason)
      .map(([r, n]) => `${r} ${n}`)
      .join(', ');
    lines.push(`  ${t.tab}: ${plural(t.written, 'cell')} written, ${t.skipped} skipped${reasons ? ` (${reasons})` : ''}`);
  }
  const lowTrust = plan.writes.filter((w) => w.trust === 'low');
  if (lowTrust.length) {
    const sample = lowTrust
      .slice(0, 5)
      .map((w) => `${w.tab}!${w.address}`)
      .join(', ');
    lines.push(`${plural(lowTrust.length, 'answer')} with low trust, worth a review: ${sample}${lowTrust.length > 5 ? ', ...' : ''}`);
  }
  for (const n of report.notes) lines.push(`  note: ${n.tab}!${n.address} ${n.note}`);
  if (plan.writes.length > 0) lines.push(...annotationLines(report));
  if (report.model_usage) lines.push(describeModelUsage(report.model_usage));
  if (plan.writes.length === 0 && (plan.report.byReason.no_value ?? 0) > 0) {
    lines.push('The service had no answers: add your documents or completed questionnaires to its knowledge base (the repository) and fill again.');
  }
  return lines;
}
