/**
 * When two questions of a questionnaire are the same question. The words alone do not say: the CAIQ asks
 * "Are the policies and procedures reviewed and updated at least annually?" once per domain, and each time
 * "the policies" are that domain's (business continuity, change control, logging). A question is the same
 * as another when it has the same id, or the same words about the same subject: the section it sits in
 * and, when it refers back ("the policies", "these procedures"), the question it follows.
 */

export interface QuestionInContext {
  text: string;
  original_id?: string | null;
  /** Section titles from section rows, outermost first. */
  section_path?: string[];
  /** The question asked just before this one in the same sheet, if any. */
  follows?: string | null;
  /** What the question's domain is about (domainSubjects), if its id names a domain. */
  domain?: string | null;
}

const normalise = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * Whether the question's subject is named by an earlier question: "these" / "such" / "the above", or it
 * opens on "the policies", "the plan", "the process" without saying whose ("Are the policies and
 * procedures reviewed…?").
 */
export function refersBack(text: string): boolean {
  const t = normalise(text);
  if (/\b(?:these|those|such(?! as\b)|said|the above|aforementioned|this (?:policy|plan|program(?:me)?|process|procedure|standard|control))\b/.test(t))
    return true;
  return (
    /^(?:\S+\s+)?(?:are|is|do|does|have|has|were|was|will)\s+(?:the|they|it)\s+(?:policies|procedures|policy|plans?|programs?|programmes?|process(?:es)?|standards?|controls?|measures?|requirements?|reviewed|updated|tested|documented)\b/.test(
      t,
    ) ||
    /^(?:are|is|do|does|have|has)\s+(?:they|it)\b/.test(t) ||
    /^(?:\S+\s+)?(?:are|is)\s+(?:policies|procedures|policy)(?:\s+and\s+procedures)?\s+(?:reviewed|updated|established|documented|approved|tested)\b/.test(t)
  );
}

/** What the question is about beyond its own words: its section and, when it refers back, what it follows. */
export function questionSubject(q: QuestionInContext): string {
  const parts = [...(q.section_path ?? [])];
  if (q.follows && refersBack(q.text)) parts.push(q.follows);
  return parts.map(normalise).filter(Boolean).join(' > ');
}

/** How a question asks about its subject, not what the subject is: "established, documented, approved…". */
const PROCESS_WORDS =
  /\b(?:are|is|do|does|have|has|the|established|documented|approved|communicated|applied|evaluated|maintained|implemented|reviewed|updated|enforced|defined|at least annually)\b|[?,]/gi;

/**
 * The subject a question leaves to the question it follows ("Are the policies and procedures reviewed…?"
 * after "Are business continuity … policies and procedures established…?": "business continuity …
 * policies and procedures"), or null when it names its own.
 */
export function referredSubject(q: QuestionInContext): string | null {
  if (!q.follows || !refersBack(q.text)) return null;
  const subject = q.follows
    .replace(PROCESS_WORDS, ' ')
    .replace(/\s+/g, ' ')
    .replace(/(?:\s+(?:and|or))+\s*$/i, '')
    .trim();
  return subject || null;
}

/**
 * What a search for the question's evidence looks for: its words with the subject it refers back to
 * (`query`), and its section titles (`hint`: they favour passages on that subject without being
 * required of them). The section titles a question already repeats add nothing.
 */
export function questionInContext(q: QuestionInContext): { query: string; hint: string } {
  const subject = referredSubject(q);
  const text = normalise(q.text);
  const titles = [...(q.section_path ?? []), ...(q.domain ? [q.domain] : [])];
  const words = withoutLifecycle(q.text);
  return {
    query: subject ? `${words}\n${subject}` : words,
    hint: titles.filter((s) => !text.includes(normalise(s))).join('\n'),
  };
}

/**
 * The question without its enumeration of how any policy lives ("established, documented, approved,
 * communicated, applied, evaluated, and maintained"): those words are in every list of policies, so
 * searching with them finds the lists that match every such question, not the passage on its subject.
 */
export function withoutLifecycle(text: string): string {
  return text.replace(LIFECYCLE_ALL, ' ').replace(/\s+/g, ' ').trim();
}

/** "established, documented, approved, …, and maintained": three or more past participles in a list. */
const LIFECYCLE_ALL = /\b(?:[a-z]+ed,\s+){2,}(?:and\s+)?[a-z]+ed\b/gi;
const LIFECYCLE = /\b(?:[a-z]+ed,\s+){2,}(?:and\s+)?[a-z]+ed\b/i;

/** The domain an id names: "IAM" of "IAM-02.2", "HLAP" of "HLAP-04"; null for an id without letters first. */
export function idDomain(id: string | null | undefined): string | null {
  const m = /^\s*([A-Za-z][A-Za-z&]{1,7})[-_. ]?\d/.exec(id ?? '');
  return m ? m[1]!.toUpperCase() : null;
}

/**
 * What each domain of a questionnaire is about, learned from the questionnaire itself: the first question
 * of each id group names it ("Are identity and access management policies and procedures established…?"
 * opens IAM), and the questions after it ("Are strong password policies… reviewed…?", IAM-02.2) are asked
 * within it. Returned per question (by index) as that first question's subject words, without the words
 * of how any policy is kept; none for the first question itself, or where an id names no domain.
 */
export function domainSubjects(questions: { original_id?: string | null; text: string; tab_name?: string }[]): (string | null)[] {
  const first = new Map<string, string>();
  return questions.map((q) => {
    const domain = idDomain(q.original_id);
    if (!domain) return null;
    const key = `${q.tab_name ?? ''}|${domain}`;
    const opening = first.get(key);
    if (opening === undefined) {
      first.set(key, q.text);
      return null;
    }
    // Only an opening that asks for the domain's policies names the domain ("Are identity and access
    // management policies and procedures established, documented…?"); a first question on one practice
    // ("Can you enforce password aging?") is no more the domain's subject than the second one.
    if (!opensDomain(opening)) return null;
    const subject = opening
      .replace(PROCESS_WORDS, ' ')
      .replace(/\s+/g, ' ')
      .replace(/(?:\s+(?:and|or))+\s*$/i, '')
      .trim();
    return subject || null;
  });
}

/** A question asking whether a domain's policies exist: "Are … policies (and procedures) established…?". */
function opensDomain(text: string): boolean {
  return (
    /\b(?:polic(?:y|ies)|procedures?|programs?|programmes?)\b/i.test(text) &&
    (LIFECYCLE.test(text) || /\b(?:established|documented|in place|exists?)\b/i.test(text))
  );
}

/** One key per distinct question of a workbook: the same key means the same question, one answer. */
export function questionIdentity(q: QuestionInContext): string {
  const id = q.original_id?.trim();
  if (id) return `id:${id.toLowerCase()}`;
  return `text:${normalise(q.text)}|${questionSubject(q)}`;
}

export function sameQuestion(a: QuestionInContext, b: QuestionInContext): boolean {
  return questionIdentity(a) === questionIdentity(b);
}

/**
 * The question each one follows on its sheet, by index (null for the first of a sheet). A question
 * referring back follows the nearest question before it that names its own subject ("Are business
 * continuity policies established…?" for all the "Are the policies…" after it). Questions in reading order.
 */
export function followedQuestions(questions: readonly { text: string; tab_name: string }[]): (string | null)[] {
  const last = new Map<string, string>();
  return questions.map((q) => {
    const before = last.get(q.tab_name) ?? null;
    if (!refersBack(q.text)) last.set(q.tab_name, q.text);
    return before;
  });
}

/** Characters of a library key's parts: the key is indexed, so it stays bounded (see libraryQuestionKey). */
export const LIBRARY_KEY_LIMITS = { id: 100, text: 300, subject: 200 } as const;

/**
 * The answer library's key for the question an entry answers: questionIdentity across questionnaires.
 * An id is the same question only within its template (the answer tab: HECVAT Lite's HLAP-06 is not
 * K-12CVAT's); otherwise the same words under the same subject (questionSubject, computed when the
 * entry was read). Entries with one key answer one question: they conflict when they disagree.
 */
export function libraryQuestionKey(q: { text: string; original_id?: string | null; tab_name?: string | null; subject?: string | null }): string {
  const id = normalise(q.original_id ?? '');
  if (id) return `id:${normalise(q.tab_name ?? '').slice(0, LIBRARY_KEY_LIMITS.id)}|${id.slice(0, LIBRARY_KEY_LIMITS.id)}`;
  return `text:${normalise(q.text).slice(0, LIBRARY_KEY_LIMITS.text)}|${normalise(q.subject ?? '').slice(0, LIBRARY_KEY_LIMITS.subject)}`;
}
