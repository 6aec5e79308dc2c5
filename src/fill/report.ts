/** The fill report: counts per tab and per skip reason that add up. */
import type { QuestionWithAnswers } from '../api/schemas';
import type { AnnotationGap, CellWrite, FillReport, ModelUsage, SkipReason, SkippedSlot, TabReport, WritePlan } from './types';

export function buildReport(writes: readonly CellWrite[], skipped: readonly SkippedSlot[], tabOrder: readonly string[] = []): FillReport {
  const tabs = new Map<string, TabReport>();
  const tab = (name: string) => {
    let t = tabs.get(name);
    if (!t) tabs.set(name, (t = { tab: name, written: 0, skipped: 0, byReason: {} }));
    return t;
  };
  for (const name of tabOrder) tab(name);
  const byReason: Partial<Record<SkipReason, number>> = {};
  for (const w of writes) tab(w.tab).written += 1;
  for (const s of skipped) {
    const t = tab(s.tab);
    t.skipped += 1;
    t.byReason[s.reason] = (t.byReason[s.reason] ?? 0) + 1;
    byReason[s.reason] = (byReason[s.reason] ?? 0) + 1;
  }
  return { written: writes.length, skipped: skipped.length, byReason, tabs: [...tabs.values()] };
}

/** Requests and tokens the service's language model spent on these questions' answers, or undefined. */
export function modelUsage(questions: readonly QuestionWithAnswers[]): ModelUsage | undefined {
  const u: ModelUsage = { models: [], requests: 0, tokens: 0 };
  for (const q of questions) {
    for (const a of q.answers) {
      const e = (a.evaluation ?? {}) as { model?: unknown; llm_usage?: { requests?: unknown; tokens?: unknown } };
      if (typeof e.model === 'string' && !u.models.includes(e.model)) u.models.push(e.model);
      u.requests += Number(e.llm_usage?.requests) || 0;
      u.tokens += Number(e.llm_usage?.tokens) || 0;
    }
  }
  return u.models.length || u.requests ? u : undefined;
}

/** "Model gpt-4o-mini: 34 requests, 51200 tokens." */
export const describeModelUsage = (u: ModelUsage) => `Model ${u.models.join(', ')}: ${u.requests} requests, ${u.tokens} tokens.`;

const REASON_WORDS: Record<SkipReason, string> = {
  blocked: 'not to be filled',
  formula: 'formula cells',
  occupied: 'already filled',
  missing_tab: 'tab not found',
  no_value: 'no answer',
  not_allowed: 'not an allowed value',
  protected: 'locked cells',
  bad_coordinate: 'bad cell address',
  duplicate: 'duplicate cell',
  no_slot: 'no answer cell',
  draft: 'drafts for review',
};

/** One sentence for people: "Wrote 250 answers on 2 tabs; skipped 11 (already filled 8, formula cells 3)." */
export function summarise(plan: Pick<WritePlan, 'report'>): string {
  const r = plan.report;
  const tabsWritten = r.tabs.filter((t) => t.written > 0).length;
  const wrote = `Wrote ${r.written} ${r.written === 1 ? 'answer' : 'answers'} on ${tabsWritten} ${tabsWritten === 1 ? 'tab' : 'tabs'}`;
  if (r.skipped === 0) return `${wrote}.`;
  const reasons = (Object.entries(r.byReason) as [SkipReason, number][])
    .sort((a, b) => b[1] - a[1])
    .map(([reason, n]) => `${REASON_WORDS[reason]} ${n}`)
    .join(', ');
  return `${wrote}; skipped ${r.skipped} (${reasons}).`;
}

const GAP_WHY: Record<AnnotationGap['why'], string> = {
  protected: 'the sheet is protected',
  unsupported: 'this Excel cannot add them (notes need ExcelApi 1.18, comments 1.10)',
  refused: 'Excel refused them',
  'no-styles': 'the workbook has no style sheet to add colours to',
};

/** One sentence per gap, with how many cells: "12 answers on "Security" have no trust colour: the sheet is protected." */
export function describeAnnotationGaps(gaps: readonly AnnotationGap[]): string[] {
  return gaps
    .filter((g) => g.count > 0)
    .map((g) => {
      const what = g.kind === 'colour' ? 'trust colour' : 'source note';
      const answers = `${g.count} ${g.count === 1 ? 'answer' : 'answers'}${g.tab ? ` on "${g.tab}"` : ''}`;
      return `${answers} ${g.count === 1 ? 'has' : 'have'} no ${what}: ${GAP_WHY[g.why]}.`;
    });
}
