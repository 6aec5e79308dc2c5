/** Which product a questionnaire is about: another product's statement never writes its answer, a company-wide one does. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { otherProduct, ProductNames, questionnaireCompany, questionnaireProduct, type ProductContext } from '../../../../src/service/knowledge/answer/product';
import { addText, meta, tempKb, YES_NO_SLOTS, type TempKb } from '../helpers';

/** A made-up vendor: two products with documents of their own, company-wide policies, and a questionnaire for a third product. */
const TITLES = [
  'Globex Classroom Architecture.md',
  'Globex Classroom SOC 3.pdf',
  'Insights Architecture Overview.txt',
  'Insights TX-RAMP Certification.txt',
  'Globex Security Policy.md',
  '2024_Globex_PCI_DSS_Summary.txt',
  'Folio Architecture.md',
  'Cloudhost SOC 3.pdf',
  'Globex Classroom TX-RAMP Certification.txt',
];
const FOR_PORTFOLIO: ProductContext = { product: 'Portfolio', company: 'Globex', titles: TITLES };

describe('product names learned from the titles', () => {
  const names = ProductNames.learn(TITLES);

  it('a title leads with the name it is about; words following several names are the kind of document', () => {
    expect(names.nameOf('Globex Classroom Architecture.md')).toBe('Globex Classroom');
    expect(names.nameOf('Globex Classroom SOC 3.pdf')).toBe('Globex Classroom');
    expect(names.nameOf('Insights Architecture Overview.txt')).toBe('Insights');
    expect(names.nameOf('Insights TX-RAMP Certification.txt')).toBe('Insights');
    expect(names.nameOf('2024_Globex_PCI_DSS_Summary.txt')).toBe('Globex PCI DSS Summary');
  });

  it("another product's document is named; this product's and the company's own are not", () => {
    expect(otherProduct('Globex Classroom Architecture.md', FOR_PORTFOLIO, names)).toBe('Globex Classroom');
    expect(otherProduct('Insights Architecture Overview.txt', FOR_PORTFOLIO, names)).toBe('Insights');
    expect(otherProduct('Globex Security Policy.md', FOR_PORTFOLIO, names)).toBeNull();
    expect(otherProduct('2024_Globex_PCI_DSS_Summary.txt', FOR_PORTFOLIO, names)).toBeNull();
    expect(otherProduct('Portfolio Architecture.md', FOR_PORTFOLIO, names)).toBeNull();
    // The questionnaire's product named longer than the title's ("Globex Classroom LMS" for "Globex Classroom").
    expect(otherProduct('Globex Classroom Architecture.md', { ...FOR_PORTFOLIO, product: 'Globex Classroom LMS' }, names)).toBeNull();
  });
});

describe('one family of products', () => {
  it("a brand's products (sharing its first word) speak for each other; another product does not", () => {
    const titles = ['Nimbus Classroom Architecture.md', 'Nimbus Catalog Architecture.md', 'Folio Architecture.md'];
    const names = ProductNames.learn(titles);
    const catalog: ProductContext = { product: 'Nimbus Catalog', company: 'Globex', titles };
    expect(otherProduct('Nimbus Classroom Architecture.md', catalog, names)).toBeNull();
    expect(otherProduct('Folio Architecture.md', catalog, names)).toBe('Folio');
    expect(otherProduct('Nimbus Classroom Architecture.md', { ...catalog, product: 'Folio' }, names)).toBe('Nimbus Classroom');
  });
});

describe("the questionnaire's product", () => {
  const field = (text: string, value: string | null) => ({ text, answer_slots: [{ value }] });

  it('is its own Product Name value, else its one product offering', () => {
    const questions = [field('Vendor Name', 'Globex\n'), field('Product Name', 'Portfolio\n'), field('Do you encrypt data at rest?', 'Yes')];
    expect(questionnaireProduct(questions, [])).toBe('Portfolio');
    expect(questionnaireCompany(questions, ['Other'])).toBe('Globex');
    const blank = [field('Product Name', null)];
    expect(questionnaireProduct(blank, [{ name: 'Insights', type: 'product' }])).toBe('Insights');
    expect(questionnaireProduct(blank, [])).toBeNull();
    expect(questionnaireCompany(blank, ['Globex', 'Classroom'])).toBe('Globex');
  });
});

describe("answers for one product from another product's documents", () => {
  let t: TempKb;
  beforeEach(async () => {
    t = await tempKb();
  });
  afterEach(() => t.close());

  const question = { text: 'Is customer data encrypted at rest?', answer_slots: YES_NO_SLOTS };

  it("a statement in another product's document gives no written Yes, only a draft saying whose it is", async () => {
    await addText(
      t.kb,
      meta({ file_id: 1, filename: 'Globex Classroom Architecture.md' }),
      '# Globex Classroom Architecture\n\n## Encryption\n\nCustomer data is encrypted at rest with AES-256 in every Globex Classroom database.',
    );
    // The same passage decides (written) when the questionnaire names no product: the rule is about the product only.
    const unaware = await t.kb.answerQuestion(1, question, {});
    expect(unaware.slot_responses[0]).toEqual({ slot_key: 'answer', content: 'Yes' });
    expect(unaware.evaluation.trust).not.toBe('low');

    const result = await t.kb.answerQuestion(1, question, {}, { product: FOR_PORTFOLIO });
    expect(result.evaluation.trust).toBe('low');
    expect(result.flagged_for_review).toBe(true);
    expect(result.evaluation.reason).toMatch(/about Globex Classroom, not Portfolio/);
  });

  it('a company-wide policy still decides, and wins over the other product', async () => {
    await addText(
      t.kb,
      meta({ file_id: 1, filename: 'Globex Classroom Architecture.md' }),
      '# Globex Classroom Architecture\n\n## Encryption\n\nCustomer data is encrypted at rest with AES-256 in every Globex Classroom database.',
    );
    await addText(
      t.kb,
      meta({ file_id: 2, filename: 'Globex Security Policy.md' }),
      '# Globex Security Policy\n\n## Encryption\n\nAcross all products, customer data is encrypted at rest using AES-256 keys held in a managed key service.',
    );
    const result = await t.kb.answerQuestion(1, question, {}, { product: FOR_PORTFOLIO });
    expect(result.slot_responses[0]).toEqual({ slot_key: 'answer', content: 'Yes' });
    expect(result.evaluation.trust).not.toBe('low');
    expect(result.evidence[0]!.filename).toBe('Globex Security Policy.md');
  });

  it("a company-wide document's passage about another product (named in its opening) gives no written Yes", async () => {
    await addText(
      t.kb,
      meta({ file_id: 2, filename: 'Globex Security Policy.md' }),
      '# Globex Security Policy\n\n## Network security\n\nOn its hosting provider, Globex Classroom provides network monitoring of the production environment. ' +
        'Customer data is encrypted at rest with AES-256 in every database of the service.',
    );
    const result = await t.kb.answerQuestion(1, question, {}, { product: FOR_PORTFOLIO });
    expect(result.evaluation.trust).toBe('low');
    expect(result.evaluation.reason).toMatch(/about Globex Classroom, not Portfolio/);
    // Asked for Globex Classroom itself, the same passage decides.
    const own = await t.kb.answerQuestion(1, question, {}, { product: { ...FOR_PORTFOLIO, product: 'Globex Classroom' } });
    expect(own.slot_responses[0]).toEqual({ slot_key: 'answer', content: 'Yes' });
    expect(own.evaluation.trust).not.toBe('low');
  });

  it('a company-wide sentence naming another product (and not this one) gives no written Yes', async () => {
    await addText(
      t.kb,
      meta({ file_id: 2, filename: 'Globex Security Policy.md' }),
      '# Globex Security Policy\n\n## Network security\n\nPort scans are logged and investigated by the security team. ' +
        'Customer data is encrypted at rest with AES-256 for all Globex Classroom instances.',
    );
    const result = await t.kb.answerQuestion(1, question, {}, { product: FOR_PORTFOLIO });
    expect(result.evaluation.trust).toBe('low');
    expect(result.evaluation.reason).toMatch(/about Globex Classroom, not Portfolio/);
  });
});
