/** "Solution Provider Name" and "Product Name" answered from the organisation's own names when the library has nothing better. */
import { strToU8 } from 'fflate';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { extractDocument } from '../../../../src/service/knowledge';
import { identityAnswer, identityField } from '../../../../src/service/knowledge/answer/identity';
import { meta, tempKb, type TempKb } from '../helpers';

const TEXT_SLOT = [{ role: 'answer', header: 'Answer', coordinate: 'C2', is_blocked: false }];

describe('identityField', () => {
  it("knows prompts asking for the organisation's or the product's name", () => {
    for (const q of [
      'Solution Provider Name',
      'Vendor Name:',
      'Company name',
      "Vendor's legal name",
      'Name of your organization',
      '1.1 Organisation Name',
      'Service Provider Name (legal entity)',
    ]) {
      expect(identityField(q), q).toBe('organisation');
    }
    for (const q of ['Solution Name', 'Product Name', 'Name of the product', 'Product or Service Name']) expect(identityField(q), q).toBe('product');
  });

  it('leaves other names and real questions alone', () => {
    for (const q of [
      'Solution Provider Contact Name',
      'Contact Email',
      'Solution Version',
      'Do you disclose the name of your hosting provider?',
      'Name the encryption algorithm used',
    ]) {
      expect(identityField(q), q).toBeNull();
    }
  });

  it('answers the organisation from its first name (medium trust), the product from a second one as a draft', () => {
    expect(identityAnswer('Solution Provider Name', ['Acme Learning', 'Acme LMS'])).toMatchObject({
      text: 'Acme Learning',
      method: 'settings',
      flagged_for_review: false,
      evaluation: { trust: 'medium', method: 'settings' },
    });
    expect(identityAnswer('Solution Name', ['Acme Learning', 'Acme LMS'])).toMatchObject({
      text: 'Acme LMS',
      flagged_for_review: true,
      evaluation: { trust: 'low' },
    });
    expect(identityAnswer('Solution Name', ['Acme Learning'])).toBeNull();
    expect(identityAnswer('Solution Provider Name', [])).toBeNull();
  });
});

describe("answerQuestion with the organisation's names", () => {
  let t: TempKb;
  beforeEach(async () => {
    t = await tempKb();
  });
  afterEach(() => t.close());

  it('answers "Solution Provider Name" from the names when the library has no answer, and says where it came from', async () => {
    await t.kb.setOrganisationNames(1, ['Acme Learning', 'Acme LMS']);
    const result = await t.kb.answerQuestion(1, { text: 'Solution Provider Name', answer_slots: TEXT_SLOT }, {});
    expect(result).toMatchObject({ text: 'Acme Learning', method: 'settings', flagged_for_review: false });
    expect(result.evaluation.reason).toMatch(/Organisation names/);
    // Without names there is nothing to say.
    expect((await t.kb.answerQuestion(2, { text: 'Solution Provider Name', answer_slots: TEXT_SLOT }, {})).text).toBe('');
  });

  it("prefers the names over a past questionnaire's value (a name field from elsewhere is never trusted), and says so", async () => {
    await t.kb.setOrganisationNames(1, ['Acme Learning']);
    const csv = 'ID,Question,Answer\nGNRL-01,Solution Provider Name,Acme Learning Inc.\n';
    await t.kb.indexDocument(meta({ file_id: 100, filename: 'HECVAT answers.csv' }), await extractDocument(strToU8(csv), 'HECVAT answers.csv'));
    const result = await t.kb.answerQuestion(1, { text: 'Solution Provider Name', original_id: 'GNRL-01', answer_slots: TEXT_SLOT }, {});
    expect(result).toMatchObject({ text: 'Acme Learning', method: 'settings', evaluation: { trust: 'medium' } });
    expect(result.evaluation.reason).toContain('past answer “Acme Learning Inc.” came from another questionnaire');
  });
});
