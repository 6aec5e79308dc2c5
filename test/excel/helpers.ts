import { afterEach } from 'vitest';
import type { Progress, QuestionWithAnswers } from '../../src/api/schemas';
import { memoryStorage } from '../../src/excel';
import type { FillLink, LinkStore, SessionApi } from '../../src/fill/session';
import { detectQuestionnaire } from '../../src/service/detect';
import { ExcelHost, installExcelHost, type ExcelHostOptions } from '../../src/workbench/host';

let uninstall: (() => void) | null = null;
afterEach(() => {
  uninstall?.();
  uninstall = null;
});

/** A host with the given sheets, installed as the Excel/Office globals for this test. */
export function setupHost(sheets: string[] = ['Sheet1'], options: ExcelHostOptions = {}): ExcelHost {
  const host = new ExcelHost({ url: 'https://contoso.sharepoint.com/Shared/questionnaire.xlsx', ...options });
  for (const s of sheets) host.addSheet(s);
  uninstall?.();
  uninstall = installExcelHost(host);
  return host;
}

export function reinstall(host: ExcelHost): void {
  uninstall?.();
  uninstall = installExcelHost(host);
}

let id = 1;
/** A question whose one `answer` slot is `tab!address`. */
export function q(
  tab: string,
  address: string,
  text: string,
  extra: Partial<QuestionWithAnswers> = {},
  slotExtra: Record<string, unknown> = {},
): QuestionWithAnswers {
  const n = id++;
  return {
    id: n,
    original_id: `Q-${n}`,
    original_question_text: `Question ${n}?`,
    tab_name: tab,
    answer_slots: [{ role: 'answer', header: 'Answer', coordinate: address, ...slotExtra }],
    answers: [
      {
        id: n,
        text,
        evaluation: { score: 80, trust: 'high', reason: 'test' },
        source_evidence: [
          {
            id: 1,
            type: 'passage',
            content: 'x',
            filename: 'policy.pdf',
            file_id: 1,
            page_number: 3,
            tab_name: tab,
            relevance_score: 0.9,
            rank: 1,
            created_at: '',
          },
        ],
      },
    ],
    ...extra,
  } as QuestionWithAnswers;
}

/** `count` questions spread over `tabs`, answers in column C from row 2 down. */
export function manyQuestions(count: number, tabs: string[], text = (i: number) => `Answer number ${i}`): QuestionWithAnswers[] {
  return Array.from({ length: count }, (_, i) => q(tabs[i % tabs.length]!, `C${2 + Math.floor(i / tabs.length)}`, text(i)));
}

/** A v2 client for the fill session that has the answers ready at once. */
export function readyApi(questions: QuestionWithAnswers[]): SessionApi {
  const done: Progress = { status: 'complete', answers_expected: questions.length, answers_received: questions.length, percent: 100 };
  return {
    uploadQuestionnaires: async () => ({ file_ids: [1], questionnaire_ids: [7] }),
    pollAnswerProgress: async (_id, opts = {}) => {
      opts.onProgress?.(done);
      return done;
    },
    getAnswers: async () => questions,
  } as SessionApi;
}

/** The service's questions for `bytes` (detected as the service does), answered with `answers` by original id. */
export async function answeredAsDetected(bytes: Uint8Array, answers: Record<string, string>): Promise<QuestionWithAnswers[]> {
  const detected = await detectQuestionnaire(bytes, 'questionnaire.xlsx');
  return detected.questions.map((d, i) => {
    const text = answers[d.original_id ?? ''];
    return {
      id: i + 1,
      original_id: d.original_id,
      original_question_text: d.original_question_text,
      tab_name: d.tab_name,
      answer_slots: d.answer_slots,
      answers: text === undefined ? [] : [{ id: i + 1, text, source_evidence: [], evaluation: { score: 90, trust: 'high', reason: 'Grounded.' } }],
    } as unknown as QuestionWithAnswers;
  });
}

/** The fill session's link to its questionnaire, kept in memory (`link` is what it holds now). */
export function memoryLinks(): LinkStore & { link: FillLink | null } {
  const store = {
    link: null as FillLink | null,
    read: async () => store.link,
    write: async (l: FillLink) => void (store.link = l),
    clear: async () => void (store.link = null),
  };
  return store;
}

export { memoryStorage };
