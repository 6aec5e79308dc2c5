/**
 * Questions about who answers: the organisation's name ("Solution Provider Name", "Vendor Name",
 * "Company name") and its product's ("Solution Name", "Product Name"). Documents rarely state them as a
 * sentence, and a past questionnaire's value may be another product's; the organisation's own names
 * (Library › Organisation names, `GET /organisation/names/`) answer them when the library has nothing
 * better. The first name is the organisation's; a second one may be its product, so that answer is
 * a draft for the analyst to confirm.
 */
import { evaluation } from './evaluation';
import type { AnswerResult } from '../types';

export type IdentityField = 'organisation' | 'product';

const WHO = String.raw`(?:solution\s+provider|service\s+provider|provider|vendor|supplier|company|organi[sz]ation|business|institution|firm)`;
const WHAT = String.raw`(?:solution|product|service|application|software|platform|product\s+or\s+service)`;
const ORGANISATION = new RegExp(String.raw`^(?:(?:your\s+)?${WHO}(?:'s)?\s+(?:legal\s+|official\s+|full\s+)?name|name\s+of\s+(?:your|the)\s+${WHO})$`, 'i');
const PRODUCT = new RegExp(String.raw`^(?:(?:your\s+)?${WHAT}\s+name|name\s+of\s+(?:your|the)\s+${WHAT})$`, 'i');

/** Which name a short field-like prompt asks for ("Solution Provider Name:", "1.1 Vendor name"), or null. */
export function identityField(question: string): IdentityField | null {
  const text = question
    .replace(/[’]/g, "'")
    .replace(/^\s*[\w&.-]*\d[\w&.-]*[:.)]?\s+/, '')
    .replace(/\([^)]*\)/g, ' ')
    .replace(/[\s:?*.]+$/, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (ORGANISATION.test(text)) return 'organisation';
  if (PRODUCT.test(text)) return 'product';
  return null;
}

/**
 * The answer from the organisation's names, or null when the question asks for no name or none is set.
 * `pastAnswer`: the library's own (untrusted) answer it replaces, named in the reason.
 */
export function identityAnswer(question: string, names: readonly string[], pastAnswer: string | null = null): AnswerResult | null {
  const field = identityField(question);
  if (!field) return null;
  const value = field === 'organisation' ? names[0] : names[1];
  if (!value) return null;
  const past = pastAnswer?.trim() ? `your library's past answer “${pastAnswer.trim()}” came from another questionnaire` : 'no past answer in your library';
  const [score, reason] =
    field === 'organisation'
      ? [70, `Your organisation's name, as set in Library › Organisation names (${past})`]
      : [40, `The second of your organisation's names in Library › Organisation names: check that it is this questionnaire's product (${past})`];
  return {
    text: value,
    slot_responses: [],
    score,
    evaluation: evaluation(score, reason, 'settings'),
    flagged_for_review: field === 'product',
    evidence: [],
    method: 'settings',
  };
}
