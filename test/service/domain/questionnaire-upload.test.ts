/** The answering options of a questionnaire upload (src/service/domain/questionnaire-upload.ts): pure rules, each a 400 naming the option. */
import { describe, expect, it } from 'vitest';
import { answeringOptions } from '../../../src/service/domain/questionnaire-upload';

describe('answering options', () => {
  it('reads the language and offerings it understands, keeps unknown options, stores prefer_recent among them', () => {
    expect(answeringOptions({ advanced_options: { language: 'de', relevant_offerings: [3, 4], colour: 'red' }, prefer_recent: true })).toEqual({
      advanced: { language: 'de', relevant_offerings: [3, 4], colour: 'red', prefer_recent: true },
      language: 'de',
      offering_ids: [3, 4],
    });
    expect(answeringOptions({})).toEqual({ advanced: {}, language: null, offering_ids: [] });
  });

  it('the field wins over the option of the same name', () => {
    expect(answeringOptions({ advanced_options: { prefer_recent: true }, prefer_recent: false }).advanced).toEqual({ prefer_recent: false });
  });

  it('names the option that is wrong', () => {
    expect(() => answeringOptions({ advanced_options: { language: 'German' } })).toThrow(/^advanced_options\.language: must be a two-letter ISO 639-1 code/);
    expect(() => answeringOptions({ advanced_options: { offering_ids: [1, -2] } })).toThrow(
      /^advanced_options\.offering_ids: must be an array of positive integers/,
    );
    expect(() => answeringOptions({ advanced_options: { offering_ids: Array.from({ length: 1001 }, (_, i) => i + 1) } })).toThrow(/at most 1000 items/);
    expect(() => answeringOptions({ advanced_options: { prefer_recent: 'yes' } })).toThrow(/^advanced_options\.prefer_recent: must be true or false/);
  });
});
