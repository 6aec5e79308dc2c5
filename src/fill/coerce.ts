/** Fitting an answer into a list slot's allowed values (dropdowns like `Yes,No,NA`). */

const SYNONYMS: Record<string, string[]> = {
  yes: ['yes', 'y', 'true', 'yep', 'yeah', 'affirmative', 'compliant', 'implemented'],
  no: ['no', 'n', 'false', 'nope', 'noncompliant', 'notimplemented'],
  na: ['na', 'notapplicable', 'nonapplicable', 'none'],
};

/** Lowercase, no punctuation, no whitespace: `N/A.` -> `na`, `Not applicable` -> `notapplicable`. */
function squash(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/** Lowercase with punctuation at the ends removed and inner whitespace collapsed. */
function tidy(text: string): string {
  return text
    .toLowerCase()
    .trim()
    .replace(/^[\s\p{P}]+|[\s\p{P}]+$/gu, '')
    .replace(/\s+/g, ' ');
}

function family(text: string): string | null {
  const s = squash(text);
  for (const [key, words] of Object.entries(SYNONYMS)) if (words.includes(s)) return key;
  return null;
}

/**
 * The allowed value the whole of `value` stands for, or null: exact; case/punctuation/whitespace-
 * insensitive; yes/no/n.a. synonyms (`Y`, `TRUE`, `Yes.`, `n.a.`, `Not applicable`). Strict: for
 * matching a value that may belong to another slot (a past answer's comment never becomes a Yes).
 */
export function matchAllowed(value: string, allowed: readonly string[]): string | null {
  const options = allowed.filter((a) => a.trim() !== '');
  if (options.length === 0) return null;
  const trimmed = value.trim();
  if (trimmed === '') return null;
  if (options.includes(value)) return value;
  if (options.includes(trimmed)) return trimmed;
  const byTidy = options.filter((a) => tidy(a) === tidy(value));
  if (byTidy.length >= 1 && tidy(value) !== '') return byTidy[0]!;
  const bySquash = options.filter((a) => squash(a) === squash(value));
  if (bySquash.length >= 1 && squash(value) !== '') return bySquash[0]!;

  const meaning = family(value);
  if (meaning) {
    const match = options.find((a) => family(a) === meaning);
    if (match) return match;
  }
  return null;
}

/**
 * The allowed value an answer meant for this slot means, or null when it means none of them (the slot
 * is left for review): `matchAllowed`, and then a leading allowed word (`Yes, all data is encrypted`
 * -> `Yes`) when exactly one allowed value fits.
 */
export function coerceToAllowed(value: string, allowed: readonly string[]): string | null {
  const options = allowed.filter((a) => a.trim() !== '');
  return matchAllowed(value, options) ?? leadingAnswer(value, options);
}

/** Two options joined by a slash or "or" (`Yes/No`, `Y / N`, `yes or no`): the answer did not choose. */
const UNDECIDED = /^\s*(\/|or\b)/u;

/** Multi-word answers a sentence may open with: "Not applicable, we store no data". */
const LEADING_PHRASES: [string, string][] = [
  ['not applicable', 'na'],
  ['non applicable', 'na'],
  ['does not apply', 'na'],
  ['not implemented', 'no'],
  ['not compliant', 'no'],
];

function leadingAnswer(value: string, options: readonly string[]): string | null {
  const text = value.trim().toLowerCase();
  const ends = (rest: string) => /^([\s\p{P}]|$)/u.test(rest) && !UNDECIDED.test(rest);
  const hits = new Set<string>();
  for (const option of options) {
    const o = option.trim().toLowerCase();
    if (o && text.startsWith(o) && text.length > o.length && ends(text.slice(o.length))) hits.add(option);
  }
  // The first word may be a synonym ("Y - we do", "N/A, not relevant"), or the answer a known phrase.
  if (hits.size === 0) {
    const phrase = LEADING_PHRASES.find(([p]) => text.startsWith(p) && ends(text.slice(p.length)));
    const firstWord = /^([\p{L}\p{N}./]+)/u.exec(text)?.[1];
    const meaning = phrase ? phrase[1] : firstWord && ends(text.slice(firstWord.length)) ? family(firstWord.replace(/[.]+$/, '')) : null;
    if (meaning) for (const option of options) if (family(option) === meaning) hits.add(option);
  }
  return hits.size === 1 ? [...hits][0]! : null;
}
