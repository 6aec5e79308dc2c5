/** A completed questionnaire as answer-library entries: marked answers give their choice. */
import { describe, expect, it } from 'vitest';
import { qaFromQuestionnaire } from '../../../../src/service/knowledge/extract/questionnaire';
import { caiqV3Workbook } from '../../detect/helpers';

describe('qaFromQuestionnaire', () => {
  it('learns the marked column’s header as the answer of an x-marked questionnaire, with its notes', async () => {
    const pairs = await qaFromQuestionnaire(await caiqV3Workbook({ 'AIS-01.1': 'Yes', 'AIS-02.1': 'Not Applicable' }), 'caiq-v3-done.xlsx');
    expect(pairs.map((p) => [p.original_id, p.answer])).toEqual([
      ['AIS-01.1', 'Yes'],
      ['AIS-02.1', 'Not Applicable'],
    ]);
    expect(pairs[0]!.slots).toEqual([
      { slot_key: 'answer', header: 'Yes', content: 'Yes' },
      { slot_key: 'comment', header: 'Notes', content: 'SDLC based on OWASP SAMM' },
    ]);
  });
});
