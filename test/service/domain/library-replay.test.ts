/** The replay's rules without storage: how a learned entry is asked again, and when an answer is the questionnaire's own. */
import { describe, expect, it } from 'vitest';
import { blankedQuestion, sameAnswer } from '../../../src/service/domain/library-replay';
import type { LibraryRow } from '../../../src/service/storage/library';

function row(slots: LibraryRow['slots']): LibraryRow {
  return {
    id: 1,
    file_id: 3,
    location: 'Answers!B2',
    question: 'Do you encrypt data at rest?',
    filename: 'a.xlsx',
    answer: slots[0]!.content,
    slots,
    original_id: 'DS-01',
    tab_name: 'Answers',
    section: null,
    qkey: 'id:Answers|DS-01',
    offering_ids: [],
    file_created_at: '2026-01-01T00:00:00Z',
    file_as_of: null,
    state: null,
  };
}

describe('library replay rules', () => {
  it('asks a learned entry again with its cells empty, a Yes/No/N/A answer as a list and free text as text', () => {
    const q = blankedQuestion(
      row([
        { slot_key: 'answer', header: 'Answer', content: 'yes' },
        { slot_key: 'comment', content: 'AES-256 everywhere.' },
      ]),
    );
    expect(q).toMatchObject({ text: 'Do you encrypt data at rest?', original_id: 'DS-01', tab_name: 'Answers' });
    expect(q.answer_slots).toEqual([
      { role: 'answer', header: 'Answer', coordinate: '', value: null, allowed_values: ['Yes', 'No', 'N/A'] },
      { role: 'comment', header: 'comment', coordinate: '', value: null },
    ]);
  });

  it('agrees on the same list value whatever its spelling, and on free text that says the same', () => {
    expect(sameAnswer('Yes', 'yes')).toBe(true);
    expect(sameAnswer('N/A', 'NA')).toBe(true);
    expect(sameAnswer('Yes', 'No')).toBe(false);
    expect(sameAnswer('No', 'No, but planned for 2026')).toBe(false);
    expect(sameAnswer('Data is encrypted at rest with AES-256.', 'data is encrypted at rest with  AES-256')).toBe(true);
    expect(sameAnswer('Data is encrypted at rest with AES-256.', 'We use single sign-on with SAML.')).toBe(false);
  });
});
