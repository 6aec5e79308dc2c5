/**
 * Which product a questionnaire is about, and which documents speak for another product of the same
 * organisation. A vendor with several products (Canvas LMS, Portfolium, Impact…) answers each product's
 * questionnaire; a statement from "Canvas LMS Architecture" is true of Canvas LMS, not of Portfolium,
 * while a company-wide document (a security policy, the company's own SOC scope) holds for every product.
 *
 * The questionnaire names its product itself (a "Product Name" field it holds a value for) or is given
 * one at upload (its offering). Product names are learned from the corpus, never listed here: a
 * document's title leads with the name it is about ("Canvas LMS Architecture", "Impact TX-RAMP Level 2
 * Certification"); words that follow several different leading names ("Architecture", "TX-RAMP") are the
 * kind of document, not part of a name. A title leading with the company's own name is company-wide.
 */
import type { AnswerSlot } from '../../../api/schemas';
import type { Candidate } from '../retrieval';
import type { AnswerResult, Evidence, QuestionInput } from '../types';
import { KNOWN_PROVIDERS } from '../extract/subject';
import { evaluation } from './evaluation';
import { identityField } from './identity';
import { quotableSentences } from './sentences';
import { isListSlot } from './slots';

/** What a fill knows about whose product it answers for. */
export interface ProductContext {
  /** The product the questionnaire is about ("Portfolium"). */
  product: string;
  /** The company's own name ("Instructure"): documents titled with it are company-wide. */
  company: string | null;
  /** The titles of the organisation's documents, from which product names are learned. */
  titles: string[];
}

interface AskedField {
  text: string;
  answer_slots: Pick<AnswerSlot, 'value'>[];
}

/** The value a questionnaire holds for an identity field ("Product Name", "Vendor Name"), or null. */
function fieldValue(questions: AskedField[], field: 'product' | 'organisation'): string | null {
  for (const q of questions) {
    if (identityField(q.text) !== field) continue;
    const value = q.answer_slots.map((s) => s.value?.trim() ?? '').find((v) => v !== '' && v.length <= 80);
    if (value) return value.split('\n')[0]!.trim();
  }
  return null;
}

/**
 * The product a questionnaire is about: its own "Product Name" value, else the one product or service
 * offering it was uploaded for. Null when neither names one (then nothing is judged by product).
 */
export function questionnaireProduct(questions: AskedField[], offerings: { name: string; type: string }[]): string | null {
  const named = fieldValue(questions, 'product');
  if (named) return named;
  const products = offerings.filter((o) => o.type !== 'module');
  return products.length === 1 ? products[0]!.name : null;
}

/** The company answering: the questionnaire's own "Vendor Name" value, else the organisation's first name. */
export function questionnaireCompany(questions: AskedField[], organisationNames: string[]): string | null {
  return fieldValue(questions, 'organisation') ?? organisationNames.find((n) => n.trim() !== '')?.trim() ?? null;
}

/** A file's title as its words: the extension dropped, separators made spaces, a leading year or number dropped. */
export function titleWords(title: string): string[] {
  const words = title
    .replace(/\.[A-Za-z0-9]{1,5}$/, '')
    .replace(/[_]+/g, ' ')
    .split(/\s+/)
    .filter((w) => w !== '');
  while (words.length > 0 && /^\d+$/.test(words[0]!)) words.shift();
  return words;
}

const key = (w: string) => w.toLowerCase();

/**
 * The names documents are about, learned from the corpus' titles. A word after a title's first is part of
 * a name unless it also follows a different first word in another title: then it names a kind of document.
 */
export class ProductNames {
  private constructor(
    private readonly kinds: Set<string>,
    /** Titles leading with each name (lower-cased): a name several documents are about is a product's. */
    private readonly titled: Map<string, number>,
  ) {}

  static learn(titles: string[]): ProductNames {
    const leaders = new Map<string, Set<string>>();
    for (const words of titles.map(titleWords)) {
      for (const w of words.slice(1)) {
        const set = leaders.get(key(w)) ?? new Set<string>();
        set.add(key(words[0]!));
        leaders.set(key(w), set);
      }
    }
    const names = new ProductNames(new Set([...leaders].filter(([, firsts]) => firsts.size >= 2).map(([w]) => w)), new Map());
    for (const title of titles) {
      const name = names.nameOf(title);
      if (name) names.titled.set(key(name), (names.titled.get(key(name)) ?? 0) + 1);
    }
    return names;
  }

  /** The name a title leads with ("Canvas LMS" of "Canvas LMS Architecture"), or null for an empty title. */
  nameOf(title: string): string | null {
    const words = titleWords(title);
    if (words.length === 0) return null;
    const name = [words[0]!];
    for (const w of words.slice(1)) {
      if (this.kinds.has(key(w)) || !/^[\p{Lu}\p{N}]/u.test(w)) break;
      name.push(w);
    }
    return name.join(' ');
  }

  /** Whether this first word leads two names or more: a brand of several products ("Canvas" of "Canvas LMS", "Canvas Studio"). */
  isBrand(word: string): boolean {
    const first = new Set([...this.titled.keys()].filter((n) => n.split(' ')[0] === key(word)));
    return first.size >= 2;
  }

  /** How many titles lead with this name. */
  titles(name: string): number {
    return this.titled.get(key(name)) ?? 0;
  }
}

const tokens = (s: string) => new Set((s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((t) => t.length > 1));

/**
 * The other product a document is about (its title's name, e.g. "Canvas LMS" for a Portfolium
 * questionnaire), or null when it is about this product, about the company as a whole, or names none.
 */
export function otherProduct(title: string, context: ProductContext, names: ProductNames): string | null {
  const name = names.nameOf(title);
  if (!name) return null;
  const product = context.product.toLowerCase();
  if (title.toLowerCase().includes(product)) return null;
  const nameTokens = tokens(name);
  // Company-wide: the title leads with the company's own name ("Instructure Security Overview",
  // "2024_Instructure_PCI_DSS_Summary"), unless several documents are about that longer name: a product
  // named after its company ("Globex Classroom Architecture", "Globex Classroom SOC 3").
  const company = context.company?.trim().toLowerCase() ?? '';
  if (company !== '' && name.toLowerCase().startsWith(company) && (name.toLowerCase() === company || names.titles(name) < 2)) return null;
  // One family: products sharing their brand ("Canvas Catalog" and "Canvas LMS") run on one platform and
  // are documented together; the brand's documents speak for each of them.
  const productFirst = context.product.trim().split(/\s+/)[0] ?? '';
  if (key(name.split(' ')[0]!) === key(productFirst) && names.isBrand(productFirst)) return null;
  // This product under a longer or shorter name ("Canvas LMS" for "Canvas Learning Management System (LMS)").
  const productTokens = tokens(context.product);
  if ([...nameTokens].every((t) => productTokens.has(t))) return null;
  return name;
}

/** A name as a regular expression's literal text. */
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The other products a passage may name, learned from the titles: every title's name that is not this
 * product, not the company as a whole and not a provider whose reports are passed on; matched in full when
 * it has two words or more ("Canvas LMS", "Mastery Connect"), and by its brand, the first word two such
 * names share ("Canvas" of "Canvas LMS" and "Canvas Studio"). A one-word name ("Impact") is matched by
 * its documents' titles only: as a word it is also ordinary text ("Business Impact Analysis").
 */
export function productMentions(context: ProductContext, names: ProductNames): { pattern: RegExp; name: string }[] {
  const others = [...new Set(context.titles.map((t) => otherProduct(t, context, names)).filter((n): n is string => n !== null))].filter(
    (n) => !KNOWN_PROVIDERS.some(([pattern]) => pattern.test(n)),
  );
  const own = new Set([...tokens(context.product), ...tokens(context.company ?? '')]);
  const multi = others.filter((n) => n.split(' ').length >= 2);
  const brands = new Map<string, number>();
  for (const n of multi) brands.set(n.split(' ')[0]!, (brands.get(n.split(' ')[0]!) ?? 0) + 1);
  return [
    ...multi.map((name) => ({ name, pattern: new RegExp(`\\b${escape(name)}\\b`, 'i') })),
    ...[...brands]
      .filter(([brand, count]) => count >= 2 && !own.has(brand.toLowerCase()))
      .map(([brand]) => ({ name: brand, pattern: new RegExp(`\\b${escape(brand)}\\b`) })),
  ];
}

/** The other product a passage is about: named in its headings or its opening sentence, while this product is named nowhere in it. */
function passageProduct(c: Candidate, context: ProductContext, mentions: { pattern: RegExp; name: string }[]): string | null {
  const text = `${c.evidence.context_header}\n${c.evidence.content}`;
  if (new RegExp(`\\b${escape(context.product)}\\b`, 'i').test(text)) return null;
  const opening = `${c.evidence.section_path.join('\n')}\n${c.evidence.content.split(/(?<=[.!?])\s+|\n\s*\n/)[0] ?? ''}`;
  return mentions.find((m) => m.pattern.test(opening))?.name ?? null;
}

/** A draft's score: low trust, as a decision holding only part of the claim (extractive.ts STATEMENT_DRAFT_SCORE). */
const OTHER_PRODUCT_SCORE = 45;

/** How a fill judges its evidence by product: the other product a candidate or a sentence is about. */
interface ProductJudge {
  /** The other product each candidate's document or passage is about (library entries are judged by their own product label elsewhere). */
  about: Map<Candidate, string>;
  /** The other product a sentence names, while it does not name this one. */
  named(sentence: string): string | null;
}

function judge(candidates: Candidate[], context: ProductContext): ProductJudge {
  const names = ProductNames.learn(context.titles);
  const mentions = productMentions(context, names);
  const about = new Map<Candidate, string>();
  for (const c of candidates) {
    if (c.evidence.type !== 'passage') continue;
    const other = otherProduct(c.evidence.filename, context, names) ?? passageProduct(c, context, mentions);
    if (other) about.set(c, other);
  }
  const product = new RegExp(`\\b${escape(context.product)}\\b`, 'i');
  const named = (sentence: string) => (product.test(sentence) ? null : (mentions.find((m) => m.pattern.test(sentence))?.name ?? null));
  return { about, named };
}

/**
 * The answer with the questionnaire's product in mind. The answer from this product's and the company's
 * own documents comes first when it gives a list value; otherwise the answer from all of them. A list
 * value whose deciding passage is about another product, or whose deciding sentence names one ("a Web
 * Application Firewall for all Canvas instances"), is a draft ("about Canvas LMS, not Portfolium"): a
 * statement true of another product is a lead for a person, not an answer.
 */
export function forProduct(
  question: QuestionInput,
  own: Candidate[],
  context: ProductContext | undefined,
  answer: (candidates: Candidate[]) => AnswerResult | null,
): AnswerResult | null {
  if (!context) return answer(own);
  const judged = judge(own, context);
  const lists = new Set(question.answer_slots.filter(isListSlot).map((s) => s.role));
  const texts = new Set(question.answer_slots.filter((s) => !isListSlot(s)).map((s) => s.role));
  const hasList = (r: AnswerResult | null): r is AnswerResult => !!r && r.slot_responses.some((s) => lists.has(s.slot_key) && s.content.trim() !== '');
  // Whose statement decided: the deciding passage's product, else the one its quoted sentence names.
  const otherOf = (r: AnswerResult): string | null => {
    const deciding = own.find((c) => sameEvidence(c.evidence, r.evidence[0]));
    const comment = r.slot_responses.find((s) => texts.has(s.slot_key))?.content ?? '';
    return (deciding && judged.about.get(deciding)) ?? judged.named(leadingSentence(comment));
  };
  const fit = own.filter((c) => !judged.about.has(c));
  const fitting = judged.about.size > 0 && fit.length > 0 ? answer(fit) : null;
  if (hasList(fitting) && !otherOf(fitting)) return fitting;
  const all = answer(own);
  if (hasList(all) && !otherOf(all)) return all;
  const decided = [fitting, all].find(hasList);
  if (!decided) return fitting ?? all;
  const other = otherOf(decided)!;
  const score = Math.min(decided.score, OTHER_PRODUCT_SCORE);
  const reason = `${decided.evaluation.reason}; the deciding statement is about ${other}, not ${context.product}, so the answer is a draft: check it holds for ${context.product}`;
  return { ...decided, score, flagged_for_review: true, evaluation: { ...decided.evaluation, ...evaluation(score, reason, decided.method) } };
}

/** The comment's first sentence, which is the deciding one (a label ending in a colon joins the sentence it introduces). */
function leadingSentence(comment: string): string {
  const sentences = quotableSentences(comment).map((q) => q.text);
  let lead = sentences[0] ?? '';
  for (let i = 1; i < sentences.length && lead.trim().endsWith(':'); i++) lead = `${lead} ${sentences[i]}`;
  return lead;
}

function sameEvidence(a: Evidence, b: Evidence | undefined): boolean {
  return !!b && a.type === b.type && a.file_id === b.file_id && a.passage_id === b.passage_id && a.content === b.content;
}
