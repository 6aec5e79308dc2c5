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
import { NEGATIONS, keyTerms, stem, stemmedTerms, SYNONYMS, type TermWeights } from '../text';

/** Words that say how a question is asked or qualify the practice, not what it is about (stemmed). */
const NOT_THE_CLAIM = new Set([
  'have',
  'maintain',
  'util',
  'emploi',
  'implement',
  'leverag',
  'perform',
  'conduct',
  'exist',
  'place',
  'current',
  'document',
  'formal',
  'written',
  'defin',
  'establish',
  'regularli',
  'period',
  'routin',
  'organ',
  'compani',
  'vendor',
  'ensur',
  'e',
  'g',
  'ie',
  'etc',
  'follow',
  'within',
  'solut',
  'offer',
  'abl',
  'capabl',
  'adequ',
  'appropri',
  'specif',
  'relev',
  'effect',
  'ani',
  'make',
  'provid',
  'undergon',
  'undergo',
  'well',
  'overal',
  'full',
  'addit',
  'variou',
  'includ',
  'particular',
  'proper',
  'sound',
  'robust',
  'either',
  'encompass',
  'gener',
  'accomod',
  'accommod',
  'expect',
  'carri',
  'reflect',
  'need',
  'last',
  'past',
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
  /**
   * Other concepts that state it, when the question offers alternatives ("passwords/passphrases") or an
   * acronym its documents may spell out ("DRP": "Disaster Recovery Plan"). `evidenceConcepts(text, claim)`
   * adds `concept` to what the evidence holds when it holds any of these.
   */
  forms?: string[];
}

/**
 * The claim of a Yes/No question: its concepts, each weighed by the rarest of the question's words
 * folded into it. Examples in parentheses ("(e.g. NIST, ISO 27001)") illustrate, they are not claimed.
 * Words offered as alternatives ("passwords/passphrases") are one concept either of them states; an
 * acronym the vocabulary does not know ("DRP") is also stated by words whose initials spell it.
 */
export function questionClaim(question: string, weightOf: TermWeights = () => 1): ClaimTerm[] {
  const text = questionProper(question)
    .replace(/^\s*[\w&.-]+\s*[:.)]\s+/, '')
    .replace(/\((?:e\.?\s*g|i\.?\s*e|such as|for example|including)\b[^)]*\)/gi, ' ')
    // "established, documented, approved, communicated, applied, evaluated and maintained": the life of
    // any policy, not what this one is about.
    .replace(/\b(?:[a-z]+ed,\s+){2,}(?:and\s+)?[a-z]+ed\b/gi, ' ')
    // "cardholder (payment/credit/debit card) data": a gloss of alternatives restates the word before it.
    .replace(/\(\s*[\w-]+(?:\s*\/\s*[\w-]+)+(?:\s+[\w-]+)?\s*\)/g, ' ')
    // "Disaster Recovery Plan (DRP)": the acronym restates the words before it.
    .replace(/\(\s*[A-Z][A-Z0-9&/-]{1,9}s?\s*\)/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ');
  const alternativeOf = alternatives(text);
  const compounds = basedCompounds(text);
  const acronyms = unknownAcronyms(text);
  const weights = new Map<string, number>();
  const words = new Map<string, string>();
  const forms = new Map<string, Set<string>>();
  // Alternatives weigh as the commonest of them: a rare spelling the evidence need not use ("passphrase")
  // must not make the concept the claim's most distinctive one.
  const alternativeWeights = new Map<string, number>();
  for (const term of keyTerms(text)) {
    const stemmed = stem(term);
    if (NOT_THE_CLAIM.has(stemmed) || (stemmed === 'base' && compounds.size > 0)) continue;
    const own = compounds.has(stemmed) ? `${stemmed}${BASED}` : concept(stemmed);
    const c = alternativeOf.get(own) ?? own;
    if (alternativeOf.has(own) || [...alternativeOf.values()].includes(own)) {
      alternativeWeights.set(c, Math.min(alternativeWeights.get(c) ?? Infinity, weightOf(stemmed)));
      weights.set(c, alternativeWeights.get(c)!);
    } else weights.set(c, Math.max(weights.get(c) ?? 0, weightOf(stemmed)));
    if (!words.has(c)) words.set(c, term);
    const stated = forms.get(c) ?? new Set<string>();
    if (own !== c) stated.add(own);
    if (acronyms.has(term)) stated.add(`${INITIALS}${term}`);
    if (stated.size > 0) forms.set(c, stated);
  }
  return [...weights].map(([c, weight]) => {
    const stated = forms.get(c);
    return { concept: c, weight, word: words.get(c)!, ...(stated ? { forms: [...stated] } : {}) };
  });
}

/**
 * The question itself, without what surrounds it: a leading condition ("If applicable, do you…", "If you
 * don't support SSO, does…") and what follows its question mark ("… plan? If so, describe it", "Please
 * identify which one"). They say when or how to answer, not what is claimed.
 */
export function questionProper(question: string): string {
  let text = question.replace(
    /^(\s*(?:[\w&.-]+\s*[:.)]\s+)?)if\b[^,?]{0,120},\s*(?=(?:do|does|did|is|are|was|were|can|could|will|would|have|has|should)\b)/i,
    '$1',
  );
  const mark = text.indexOf('?');
  if (mark > 0 && text.slice(0, mark).trim().split(/\s+/).length >= 3) {
    // An example list right after the mark ("…authentication? (e.g. Duo, OTP)") belongs to the question.
    const examples = /^\s*\((?:e\.?\s*g|i\.?\s*e|such as|for example|including)\b[^)]*\)/i.exec(text.slice(mark + 1));
    text = text.slice(0, mark + 1) + (examples ? examples[0] : '');
  }
  return text;
}

/**
 * "host-based", "network-based": what the practice rests on, not the word alone ("hosted in AWS" says
 * nothing of host-based intrusion detection). Such a concept is held only where the evidence says "X-based".
 */
const BASED = '-based';
function basedCompounds(text: string): Set<string> {
  return new Set([...text.matchAll(/\b([A-Za-z]+)[-\s]based\b/g)].map((m) => stem(m[1]!.toLowerCase())));
}

/** Prefix of a concept made of the initials of consecutive words ("disaster recovery plan": `initials:drp`). */
const INITIALS = 'initials:';

/**
 * Each alternative of "A/B", "A or B" or "A and/or B" (single words, none a stop word: "complexity or
 * length", "passwords/passphrases") mapped to the concept of the first: either states the claim.
 */
function alternatives(text: string): Map<string, string> {
  const of = new Map<string, string>();
  const offered = [
    ...[...text.matchAll(/\b[A-Za-z][A-Za-z-]+(?:\/[A-Za-z][A-Za-z-]+){1,2}\b/g)].map((m) => m[0].split('/')),
    // Two words qualifying the same next one ("complexity or length limitations", "protected or sensitive
    // data"), not the ends of two phrases ("an internal team or retain an external one").
    ...[...text.matchAll(/\b([A-Za-z][A-Za-z-]+)\s+(?:and\/)?or\s+([A-Za-z][A-Za-z-]+)\s+([A-Za-z][A-Za-z-]+)/g)]
      .filter((m) => keyTerms(m[3]!).length === 1)
      .map((m) => [m[1]!, m[2]!]),
  ];
  for (const words of offered) {
    const parts = words.map((word) => keyTerms(word));
    if (parts.some((terms) => terms.length !== 1)) continue;
    const concepts = parts.map((terms) => concept(stem(terms[0]!)));
    for (const c of concepts.slice(1)) if (c !== concepts[0]) of.set(c, concepts[0]!);
  }
  return of;
}

/** Upper-case words of the question (lower-cased as keyTerms gives them) that the vocabulary does not spell out. */
function unknownAcronyms(text: string): Set<string> {
  const found = new Set<string>();
  for (const match of text.matchAll(/\b([A-Z]{2,6})s?\b/g)) {
    const word = match[1]!.toLowerCase();
    if (!KNOWN_ACRONYMS.has(word)) found.add(word);
  }
  return found;
}
const KNOWN_ACRONYMS = new Set(Object.keys(SYNONYMS));

/**
 * The concepts a piece of evidence mentions. With the claim it is read for, a claim concept is also
 * held when one of its other forms is (an alternative, or an acronym spelled out in words).
 */
export function evidenceConcepts(text: string, claim?: readonly ClaimTerm[]): Set<string> {
  const concepts = new Set([...stemmedTerms(text)].map(concept));
  for (const term of claim ?? []) {
    if (term.concept.endsWith(BASED) && basedCompounds(text).has(term.concept.slice(0, -BASED.length))) concepts.add(term.concept);
  }
  const withForms = claim?.filter((t) => t.forms && !concepts.has(t.concept));
  if (!withForms?.length) return concepts;
  const initials = withForms.some((t) => t.forms!.some((f) => f.startsWith(INITIALS))) ? initialsOf(text) : new Set<string>();
  for (const term of withForms) {
    if (term.forms!.some((f) => concepts.has(f) || initials.has(f))) concepts.add(term.concept);
  }
  return concepts;
}

/** The initials of every run of two to five consecutive words ("Disaster Recovery Plan": `initials:drp`). */
function initialsOf(text: string): Set<string> {
  const found = new Set<string>();
  for (const run of text.split(/[^A-Za-z\s-]+/)) {
    const letters = run
      .split(/[\s-]+/)
      .filter((w) => w.length > 0)
      .map((w) => w[0]!.toLowerCase());
    for (let i = 0; i < letters.length; i++) {
      for (let n = 2; n <= 5 && i + n <= letters.length; n++) found.add(`${INITIALS}${letters.slice(i, i + n).join('')}`);
    }
  }
  return found;
}

/** Kinds of data a question may ask about; "all data" covers each of them. */
const KINDS_OF_DATA = ['sensit', 'confidenti', 'critic', 'person', 'privat', 'institut', 'custom', 'student', 'user'];
const ALL_DATA = /\b(?:all|any and all)\s+(?:[a-z]+\s+){0,2}data\b/i;

/**
 * What a sentence states of "data": "All data is encrypted in storage" states it of sensitive data too.
 * Adds the claim's kinds of data to the concepts when the sentence speaks of all data.
 */
export function withAllData(sentence: string, concepts: Set<string>, claim: readonly ClaimTerm[]): Set<string> {
  if (!claim.some((t) => t.concept === 'data') || !ALL_DATA.test(sentence)) return concepts;
  const kinds = claim.filter((t) => KINDS_OF_DATA.includes(t.concept) && !concepts.has(t.concept));
  return kinds.length === 0 ? concepts : new Set([...concepts, ...kinds.map((t) => t.concept)]);
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
const CONDITIONAL =
  /\b(?:if|unless|whether|may|might|could|would|optional(?:ly)?|upon request|on request|when requested|where (?:applicable|possible|required)|can be (?:configured|enabled|requested)|plan(?:s|ned)? to|intend(?:s|ed)? to|in the future|roadmap)\b/;

/**
 * A practice weaker than a question would ask about, stated outright: "a one-time, opportunistic write-up
 * rather than a scheduled recurring process". It answers No to "reviewed periodically?", never Yes.
 */
export const WEAKER_PRACTICE =
  /\b(?:one[- ]time|ad[- ]hoc|opportunistic(?:ally)?|informal(?:ly)?|not (?:a )?(?:scheduled|recurring|regular|periodic|formal(?:ly)?|documented|supported|available|offered|required|enforced)|unsupported|rather than (?:a |an )?(?:scheduled|recurring|regular|periodic|formal|documented))\b/i;

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
