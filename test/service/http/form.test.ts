/** Form-encoded bodies into request objects, in one pass however many list fields arrive. */
import { describe, expect, it } from 'vitest';
import { coerceForm } from '../../../src/service/http/form';
import { withinBudget } from '../../budget';

describe('coerceForm', () => {
  it('40,000 `offering_ids[i]` fields are gathered in linear time', async () => {
    const body: Record<string, string> = {};
    for (let i = 0; i < 40_000; i++) body[`offering_ids[${i}]`] = String(i % 7);
    const out = await withinBudget<{ n: number; sum: number }>(
      'src/service/http/form.ts',
      '(m, body) => { const ids = m.coerceForm(body, { intArrays: ["offering_ids"] }).offering_ids; return { n: ids.length, sum: ids.reduce((a, b) => a + b, 0) }; }',
      [body],
      2_000,
    );
    expect(out.n).toBe(40_000);
    expect(out.sum).toBe(Array.from({ length: 40_000 }, (_, i) => i % 7).reduce((a, b) => a + b, 0));
  });

  it('lists as repeated fields, `name[]`, `name[0]` and `1,2`; ints and booleans typed', () => {
    expect(coerceForm({ offering_ids: ['1', '2,3'], 'offering_ids[]': '4', 'offering_ids[7]': 'x', session_id: ' 5 ', is_archived: 'on', file_id: '' }, {
      ints: ['session_id', 'file_id'],
      intArrays: ['offering_ids'],
      booleans: ['is_archived'],
    })).toEqual({ offering_ids: [1, 2, 3, 4, 'x'], session_id: 5, is_archived: true });
  });
});
