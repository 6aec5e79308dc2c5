import { describe, expect, it } from 'vitest';
import type { AnswerSlot } from '../../../../src/api/schemas';
import { writableSlots } from '../../../../src/service/knowledge/answer/slots';

const mark = (role: string, choice: string, coordinate: string): AnswerSlot => ({
  role,
  header: choice,
  coordinate,
  type: 'mark',
  choice,
  mark_group: 'answer',
  allowed_values: ['Yes', 'No', 'Not Applicable'],
});

describe('writableSlots', () => {
  it('asks once for an answer given by a mark: the group’s first slot, beside the other slots', () => {
    const slots: AnswerSlot[] = [
      mark('answer', 'Yes', 'F5'),
      mark('answer_no', 'No', 'G5'),
      mark('answer_not_applicable', 'Not Applicable', 'H5'),
      { role: 'comment', header: 'Notes', coordinate: 'I5' },
      { role: 'guidance', header: 'Guidance', coordinate: 'J5', is_blocked: true },
    ];
    expect(writableSlots(slots).map((s) => s.role)).toEqual(['answer', 'comment']);
  });
});
