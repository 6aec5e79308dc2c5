/** The answer library's rules that need no storage: an entry's age, its review, its versions; the answer a fill takes from decisions. */
import { describe, expect, it } from 'vitest';
import { entryDetail, reviewCutoff, reviewState } from '../../../src/service/domain/library';
import { trustedLibraryAnswer, withReview, type EntryDecision } from '../../../src/service/knowledge/answer/library-decisions';
import type { LibraryMatch } from '../../../src/service/knowledge/answer/library';
import type { LibraryRow, LibraryState } from '../../../src/service/storage/library';
import type { AnswerResult } from '../../../src/service/knowledge/types';

const NOW = new Date('2026-11-26T12:00:00Z');

function row(id: number, answer: string, state: Partial<LibraryState> | null = null, created = '2026-10-01T09:00:00Z'): LibraryRow {
  return {
    id,
    file_id: id,
    location: `Answers!C${id}`,
    question: 'Do you perform annual penetration tests?',
    filename: `q${id}.xlsx`,
    answer,
    slots: [{ slot_key: 'answer', content: answer }],
    original_id: 'PT-01',
    tab_name: 'Answers',
    section: null,
    qkey: 'id:Answers|PT-01',
    offering_ids: [],
    file_created_at: created,
    file_as_of: null,
    state: state && {
      status: 'active',
      retired_reason: null,
      approved_by: null,
      approved_at: null,
      version: 1,
      edit_question: null,
      edit_answer: null,
      edit_slots: null,
      as_of: null,
      updated_by: null,
      updated_at: null,
      owner: null,
      review_months: null,
      ...state,
    },
  };
}

function match(r: LibraryRow): LibraryMatch {
  return {
    candidate: {
      evidence: {
        type: 'qna',
        passage_id: null,
        qna_id: r.id,
        file_id: r.file_id,
        filename: r.filename,
        page_number: 1,
        content: r.answer,
        context_header: 'Answers',
        section_path: [],
        tab_name: 'Answers',
        source_location: r.location,
        relevance_score: 1,
        rank: 0,
      },
      stems: new Set() as never,
      library: { question: r.question, questionStems: new Set(), slots: r.slots, original_id: r.original_id },
      fusion: 0,
    },
    similarity: 1,
    idMatch: true,
    facts: { label: null, offering_ids: [] },
  };
}

const QUESTION = {
  text: 'Do you perform annual penetration tests?',
  original_id: 'PT-01',
  tab_name: 'Answers',
  answer_slots: [{ role: 'answer', header: 'Answer', coordinate: 'C2', type: 'list', allowed_values: ['Yes', 'No'] }],
};

describe('answer library rules', () => {
  it('an entry is review due once its approval, else its date, is older than the review age; retired never', () => {
    expect(reviewState(row(1, 'Yes', null, '2026-10-01T09:00:00Z'), 12, NOW)).toEqual({ due: false, reason: null });
    expect(reviewState(row(1, 'Yes', null, '2025-09-01T09:00:00Z'), 12, NOW)).toEqual({ due: true, reason: 'as of 2025-09-01, review due since 2026-09-01' });
    expect(reviewState(row(1, 'Yes', { approved_at: '2025-01-10T08:00:00Z', approved_by: 'alice' }, '2020-01-01T00:00:00Z'), 12, NOW)).toEqual({
      due: true,
      reason: 'approved on 2025-01-10, review due since 2026-01-10',
    });
    expect(reviewState(row(1, 'Yes', { status: 'retired' }, '2020-01-01T00:00:00Z'), 12, NOW).due).toBe(false);
    expect(reviewCutoff(12, NOW)).toBe('2025-11-26T12:00:00.000Z');
  });

  it("an entry's own review interval overrides the organisation's review age, both ways", () => {
    const approved = { approved_at: '2026-06-01T08:00:00Z', approved_by: 'alice' };
    expect(reviewState(row(1, 'Yes', approved), 12, NOW).due).toBe(false);
    expect(reviewState(row(1, 'Yes', { ...approved, review_months: 3 }), 12, NOW)).toEqual({
      due: true,
      reason: 'approved on 2026-06-01, review due since 2026-09-01',
    });
    expect(reviewState(row(1, 'Yes', { review_months: 36 }, '2025-01-01T00:00:00Z'), 12, NOW).due).toBe(false);
  });

  it('lists the learned version first, then each edit, and every change with who and when', () => {
    const edited = row(1, 'No', { version: 2, edit_slots: [{ slot_key: 'answer', content: 'Yes' }], edit_answer: 'Yes' });
    const detail = entryDetail(
      edited,
      [
        {
          action: 'edited',
          by_name: 'alice',
          at: '2026-11-01T00:00:00Z',
          detail: 'version 2',
          version: 2,
          version_question: edited.question,
          version_slots: [{ slot_key: 'answer', content: 'Yes' }],
        },
      ],
      { reviewAgeMonths: 12, now: NOW, conflicting: new Set() },
    );
    expect(detail).toMatchObject({ answer: 'Yes', version: 2, conflict: false });
    expect(detail.versions.map((v) => [v.version, v.slots[0]!.content, v.by])).toEqual([
      [1, 'No', null],
      [2, 'Yes', 'alice'],
    ]);
    expect(detail.history).toEqual([{ action: 'edited', by: 'alice', at: '2026-11-01T00:00:00Z', detail: 'version 2' }]);
  });

  it('a canonical entry answers at high trust with no conflict, even against a disagreeing peer; review due lowers it to medium, saying why', () => {
    const canonical = row(1, 'Yes', { status: 'canonical', approved_by: 'alice', approved_at: '2026-11-20T10:00:00Z' });
    const peer = row(2, 'No');
    const decisions = new Map<number, EntryDecision>([
      [1, { row: canonical, review: { due: false, reason: null }, trusted: true }],
      [2, { row: peer, review: { due: false, reason: null }, trusted: false }],
    ]);
    const result = trustedLibraryAnswer(QUESTION, [match(peer), match(canonical)], decisions)!;
    expect(result.text).toBe('Yes');
    expect(result.evaluation).toMatchObject({ trust: 'high' });
    expect(result.evaluation.reason).toMatch(/^Settled in the answer library: chosen for this question by alice on 2026-11-20\./);
    expect((result.evaluation as Record<string, unknown>).conflict).toBeUndefined();
    expect(result.flagged_for_review).toBe(false);

    const due = new Map(decisions);
    due.set(1, { ...decisions.get(1)!, review: { due: true, reason: 'approved on 2025-01-10, review due since 2026-01-10' } });
    const aged = withReview(trustedLibraryAnswer(QUESTION, [match(canonical)], due)!, due);
    expect(aged.evaluation.trust).toBe('medium');
    expect(aged.evaluation.reason).toMatch(/; approved on 2025-01-10, review due since 2026-01-10$/);
  });

  it('without a canonical or approved entry, the usual rules apply', () => {
    const decisions = new Map<number, EntryDecision>([[1, { row: row(1, 'Yes'), review: { due: false, reason: null }, trusted: false }]]);
    expect(trustedLibraryAnswer(QUESTION, [match(row(1, 'Yes'))], decisions)).toBeNull();
    const none: AnswerResult = {
      text: '',
      slot_responses: [],
      score: 0,
      evaluation: { score: 0, trust: 'low', reason: 'x' },
      flagged_for_review: true,
      evidence: [],
      method: 'none',
    };
    expect(withReview(none, decisions)).toBe(none);
  });
});
