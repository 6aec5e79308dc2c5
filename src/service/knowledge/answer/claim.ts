/**
 * The claim a Yes/No question makes, and whether a piece of evidence states it in other words.
 *
 * "Do you have a documented incident response plan?" claims {incident response, plan}; "Instructure
 * maintains a formal Incident Response Policy" states it. Matching every term of the question (as the
 * quoting does) misses such paraphrases, so for the Yes/No decision only:
 *  - the question's auxiliary and light verbs ("have", "maintain", "implement", "perform") and its
 *    generic qualifiers ("documented", "formal", "currently") are not part of the claim;
 *  - words that mean the same in this vocabulary fold into one concept (plan/policy/program/procedure,
 *    at rest/in storage, in transit/in transport, customer/client/institution);
 *  - each concept weighs by its rarity in the knowledge base, so "data" or "security", found in most
 *    passages, decides little and the claim's distinctive concepts decide much;
 *  - the evidence may be one sentence or two adjacent sentences of the same passage.
 * A sentence that negates or makes the statement conditional ("if requested", "may") states nothing.
 */
import { NEGATIONS, keyTerms, stem, stemmedTerms, type TermWeights } from '../text';

/** Words that say how a question is asked or qualify the practice, not what it is about (stemmed). */
const NOT_THE_CLAIM = new Set([
  'have', 'maintain', 'util', 'emploi', 'implement', 'leverag', 'perform', 'conduct', 'exist', 'place',
  'current', 'document', 'formal', 'written', 'defin', 'establish', 'regularli', 'period', 'routin',
  'organ', 'compani', 'vendor', 'ensur', 'e', 'g', 'ie', 'etc', 'follow', 'within', 'solut', 'offer',
  'abl', 'capabl', 'adequ', 'appropri', 'specif', 'relev', 'effect', 'ani', 'make', 'provid', 'undergon', 'undergo',
  'well', 'overal', 'full', 'addit', 'variou', 'includ', 'particular', 'proper', 'sound', 'robust', 'either',
  'encompass', 'gener', 'accomod', 'accommod', 'expect', 'carri', 'reflect', 'need', 'last', 'past',
]);

/** Stems that name the same concept here, folded onto the first of each group. */
const CONCEPTS: string[][] = [
  ['plan', 'polici', 'program', 'programm', 'procedur', 'process', 'strategi'],
  ['rest', 'storag', 'store'],
  ['transit', 'transport', 'transmiss', 'transmit', 'flight'],
  ['custom', 'client', 'institut'],
  ['employe', 'staff', 'personnel', 'workforc', 'team'],
  ['separ', 'segreg', 'isol', 'partit'],
  ['requir', 'enforc', 'mandatori'],
  ['test', 'exercis'],
  ['annual', 'year', 'yearli'],
  ['outsid', 'leav'],
  ['audit', 'assess'],
];
const CONCEPT_OF = new Map<string, string>();
for (const group of CONCEPTS) for (const stem of group) CONCEPT_OF.set(stem, group[0]!);

function concept(stem: string): string {
  return CONCEPT_OF.get(stem) ?? stem;
}

/** A concept of the claim and how much it counts. */
export interface ClaimTerm {
  concept: string;
  weight: number;
  /** The question's own word for the concept: reasons name it, never the stem ("monitoring", not "monitor"). */
  word: string;
}

/**
 * The claim of a Yes/No question: its concepts, each weighed by the rarest of the question's words
 * folded into it. Examples in parentheses ("(e.g. NIST, ISO 27001)") illustrate, they are not claimed.
 */
export function questionClaim(question: string, weightOf: TermWeights = () => 1): ClaimTerm[] {
  const text = question
    .replace(/^\s*[\w&.-]+\s*[:.)]\s+/, '')
    .replace(/\((?:e\.?\s*g|i\.?\s*e|such as|for example|including)\b[^)]*\)/gi, ' ')
    // "established, documented, approved, communicated, applied, evaluated and maintained": the life of
    // any policy, not what this one is about.
    .replace(/\b(?:[a-z]+ed,\s+){2,}(?:and\s+)?[a-z]+ed\b/gi, ' ')
    // "Disaster Recovery Plan (DRP)": the acronym restates the words before it.
    .replace(/\(\s*[A-Z][A-Z0-9&/-]{1,9}s?\s*\)/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ');
  const weights = new Map<string, number>();
  const words = new Map<string, string>();
  for (const term of keyTerms(text)) {
    const stemmed = stem(term);
    if (NOT_THE_CLAIM.has(stemmed)) continue;
    const c = concept(stemmed);
    weights.set(c, Math.max(weights.get(c) ?? 0, weightOf(stemmed)));
    if (!words.has(c)) words.set(c, term);
  }
  return [...weights].map(([c, weight]) => ({ concept: c, weight, word: words.get(c)! }));
}

/** The concepts a piece of evidence mentions. */
export function evidenceConcepts(text: string): Set<string> {
  return new Set([...stemmedTerms(text)].map(concept));
}

/** Weighted share of the claim the evidence holds, and how many of its concepts it misses. */
export function claimCoverage(claim: ClaimTerm[], evidence: Set<string>): { share: number; missing: number } {
  let total = 0;
  let hit = 0;
  let missing = 0;
  for (const term of claim) {
    total += term.weight;
    if (evidence.has(term.concept)) hit += term.weight;
    else missing++;
  }
  return { share: total === 0 ? 0 : hit / total, missing };
}

/** Conditional or hedged statements: they describe what could happen, not what is done. */
const CONDITIONAL = /\b(?:if|unless|whether|may|might|could|would|optional(?:ly)?|upon request|on request|when requested|where (?:applicable|possible|required)|can be (?:configured|enabled|requested)|plan(?:s|ned)? to|intend(?:s|ed)? to|in the future|roadmap)\b/;

/**
 * A practice weaker than a question would ask about, stated outright: "a one-time, opportunistic write-up
 * rather than a scheduled recurring process". It answers No to "reviewed periodically?", never Yes.
 */
export const WEAKER_PRACTICE = /\b(?:one[- ]time|ad[- ]hoc|opportunistic(?:ally)?|informal(?:ly)?|not (?:a )?(?:scheduled|recurring|regular|periodic|formal(?:ly)?|documented|supported|available|offered|required|enforced)|unsupported|rather than (?:a |an )?(?:scheduled|recurring|regular|periodic|formal|documented))\b/i;

/** Whether the sentence states its content plainly: no negation word, no condition or hedge, no weaker practice. */
export function statesPlainly(sentence: string): boolean {
  const text = sentence.toLowerCase().replace(/[’]/g, "'");
  const words = text.match(/[a-z']+/g) ?? [];
  if (words.some((w) => NEGATIONS.has(w))) return false;
  if (WEAKER_PRACTICE.test(text)) return false;
  // A form's instruction ("Describe how the business stores … account data") states nothing about anyone.
  if (INSTRUCTION.test(text)) return false;
  return !CONDITIONAL.test(text);
}

/** The prompts of forms and standards (a PCI attestation, a questionnaire template), not statements. */
const INSTRUCTION = /\b(describe|provide|indicate|explain|specify|identify|list) (how|what|whether|which|where|when|why|the|all|any|each)\b/;
