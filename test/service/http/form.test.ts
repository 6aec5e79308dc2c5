/** Form-encoded bodies into request objects, in one pass however many list fields arrive. */
import { describe, expect, it } from 'vitest';
import { MAX_FORM_FIELDS, formToObject, parseUrlencodedBody, urlencodedFields, type FormKinds } from '../../../src/service/http/form';
import { withinBudget } from '../../budget';

const fromUrlencoded = (body: Record<string, unknown>, kinds: FormKinds) => formToObject(urlencodedFields(body, kinds), kinds);

describe('form fields', () => {
  it('a body with more fields than any valid form is refused before it is parsed', () => {
    const ok = Array.from({ length: MAX_FORM_FIELDS }, (_, i) => `a${i}=1`).join('&');
    expect(Object.keys(parseUrlencodedBody(ok))).toHaveLength(MAX_FORM_FIELDS);
    expect(() => parseUrlencodedBody(`${ok}&b=2`)).toThrow(
      expect.objectContaining({ statusCode: 400, message: `the form has more than ${MAX_FORM_FIELDS} fields` }),
    );
  });

  it('40,000 `offering_ids[i]` fields are gathered in linear time', async () => {
    const body: Record<string, string> = {};
    for (let i = 0; i < 40_000; i++) body[`offering_ids[${i}]`] = String(i % 7);
    const out = await withinBudget<{ n: number; sum: number }>(
      'src/service/http/form.ts',
      '(m, body) => { const k = { intArrays: ["offering_ids"] }; const ids = m.formToObject(m.urlencodedFields(body, k), k).offering_ids; return { n: ids.length, sum: ids.reduce((a, b) => a + b, 0) }; }',
      [body],
      2_000,
    );
    expect(out.n).toBe(40_000);
    expect(out.sum).toBe(Array.from({ length: 40_000 }, (_, i) => i % 7).reduce((a, b) => a + b, 0));
  });

  it('lists as repeated fields, `name[]`, `name[0]` and `1,2`; ints and booleans typed', () => {
    const kinds = { ints: ['session_id', 'file_id'], intArrays: ['offering_ids'], booleans: ['is_archived'] };
    expect(
      fromUrlencoded({ offering_ids: ['1', '2,3'], 'offering_ids[]': '4', 'offering_ids[7]': 'x', session_id: ' 5 ', is_archived: 'on', file_id: '' }, kinds),
    ).toEqual({
      offering_ids: [1, 2, 3, 4, 'x'],
      session_id: 5,
      is_archived: true,
    });
    // A list marker on a field that is no list keeps its name, so the schema's 400 names it.
    expect(fromUrlencoded({ 'question[]': 'x' }, kinds)).toEqual({ 'question[]': 'x' });
  });

  it('multipart text fields: JSON lists and objects, booleans, repeated values', () => {
    const fields = new Map([
      ['tags', ['a', '["b","c"]']],
      ['relevant_offerings', ['[1, 2]', '3,4']],
      ['advanced_options', ['{"language":"en"}']],
      ['prefer_recent', ['No']],
      ['client', ['x', 'y']],
    ]);
    expect(formToObject(fields, { arrays: ['tags'], intArrays: ['relevant_offerings'], objects: ['advanced_options'], booleans: ['prefer_recent'] })).toEqual({
      tags: ['a', 'b', 'c'],
      relevant_offerings: [1, 2, 3, 4],
      advanced_options: { language: 'en' },
      prefer_recent: false,
      client: ['x', 'y'],
    });
    expect(() => formToObject(new Map([['tags', ['[oops']]]), { arrays: ['tags'] })).toThrow(/tags: not a valid JSON array/);
    expect(() => formToObject(new Map([['advanced_options', ['{}', '{}']]]), { objects: ['advanced_options'] })).toThrow(/given more than once/);
  });

  it('a field named __proto__ stays a field', () => {
    const out = formToObject(new Map([['__proto__', ['x']]]), {});
    expect(Object.keys(out)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });
});
