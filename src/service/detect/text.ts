/**
 * Generic text signals: what looks like a question, an id, a column header, and which answer-slot role a
 * header names. Nothing here knows any particular questionnaire.
 */

const INTERROGATIVES = [
  'are',
  'is',
  'was',
  'were',
  'do',
  'does',
  'did',
  'can',
  'could',
  'will',
  'would',
  'has',
  'have',
  'had',
  'should',
  'shall',
  'may',
  'might',
  'must',
  'how',
  'what',
  'when',
  'where',
  'which',
  'who',
  'whom',
  'whose',
  'why',
  'if',
  'in what',
  'to what extent',
  'please',
];
const IMPERATIVES = [
  'describe',
  'provide',
  'list',
  'explain',
  'state',
  'indicate',
  'identify',
  'specify',
  'summarize',
  'summarise',
  'detail',
  'confirm',
  'outline',
  'select',
  'share',
  'enter',
  'upload',
  'give',
  'submit',
  'attach',
  'clarify',
  'include',
  'elaborate',
  'demonstrate',
  'supply',
  'tell',
  'use this',
  'choose',
];
const OPENER_RE = new RegExp(`^(?:\\d+[.)]\\s*)?(?:${[...INTERROGATIVES, ...IMPERATIVES].join('|')})\\b`, 'i');

/** A sentence that asks something: ends with `?`, or opens with an interrogative or a request verb. */
export function isQuestionLike(text: string | null | undefined): boolean {
  if (!text) return false;
  const t = text.trim();
  if (t.length < 8 || isIdLike(t)) return false;
  if (/\?\s*(\(.*\))?\s*$/.test(t) || /\?\s/.test(t)) return true;
  return OPENER_RE.test(t) && t.split(/\s+/).length >= 3;
}

/**
 * A requirement or control statement: a sentence of at least five words that states what must hold
 * (`Verify that…`, `The app does not…`), not a title. Checklists use these instead of questions.
 */
export function isStatementLike(text: string | null | undefined): boolean {
  if (!text) return false;
  const t = text.trim();
  if (t.length < 25 || isIdLike(t) || /^https?:/i.test(t)) return false;
  const words = t.split(/\s+/).length;
  return words >= 5 && (/[.;]$/.test(t) || words >= 10) && !isWithdrawn(t);
}

/** An item kept only as a placeholder: `[Withdrawn: Incorporated into AC-7.]`, `This section was incorporated into V5`. */
export function isWithdrawn(text: string | null | undefined): boolean {
  if (!text) return false;
  const t = text.trim();
  return (
    /^\[?\s*(?:withdrawn|deleted|deprecated|removed|reserved|retired)\b/i.test(t) ||
    /\b(?:was|were|has\s+been|have\s+been|is|are)\s+(?:withdrawn|deleted|deprecated|retired|incorporated\s+into|merged\s+into|moved\s+to)\b/i.test(t)
  );
}

const CHOICE_RE =
  /^(?:yes|no|y|n|n\/?a|not\s+applicable|true|false|pass|fail|partial(?:ly)?|(?:fully\s+|partially\s+|not\s+|non-?)?(?:compliant|implemented|met|in\s+place)|planned)$/i;

/** A column header that is itself one choice of an answer (`Yes`, `Not Applicable`, `Partially compliant`). */
export function isChoiceHeader(text: string | null | undefined): boolean {
  return !!text && CHOICE_RE.test(text.trim());
}

/** A mark put in a choice column: `x`, `X`, a tick, a bullet. */
export function isMarkLike(text: string | null | undefined): boolean {
  return !!text && /^(?:x|✓|✔|✗|✘|•|●|■|☒|y|1)$/i.test(text.trim());
}

/** A short code: `A&A-01.1`, `COMP-03`, `Q12`, `1.2.3`, `4`. */
export function isIdLike(text: string | null | undefined): boolean {
  if (!text) return false;
  const t = text.trim();
  if (t.length === 0 || t.length > 24 || /\s/.test(t) || /^https?:/i.test(t)) return false;
  if (!/\d/.test(t)) return false;
  return /^[A-Za-z0-9][A-Za-z0-9&._/-]*[.)]?$/.test(t);
}

/** A column header as written: short, not a number or an id, not a sentence. */
export function isHeaderLike(text: string | null | undefined): boolean {
  if (!text) return false;
  const t = text.trim();
  if (t.length === 0 || t.length > 90) return false;
  if (isIdLike(t) || /^[\d.,%\s-]+$/.test(t)) return false;
  return !/[.!]$/.test(t) || t.length < 40;
}

export const QUESTION_HEADER_RE =
  /^(?:(?:the|assessment|control|security|vendor|supplier)\s+)?(?:questions?|question\s+text|questionnaire\s+item|requirements?|query|queries|criteria|controls?\s+questions?|description\s+of\s+requirement|statements?|control\s+(?:description|text|objective|wording))\b/i;
/** A column header that names the question column (`Question`, `Requirement`), not its id (`Question ID`). */
export function isQuestionHeader(text: string | null | undefined): boolean {
  if (!text) return false;
  const t = text.trim();
  return t.length <= 40 && QUESTION_HEADER_RE.test(t) && !/\b(id|#|no\.?|nr\.?|number|ref|reference|code|type|category)\s*$/i.test(t);
}

export const ID_HEADER_RE = /^(?:(?:question|control|item|req(?:uirement)?)\s*)?(?:id|#|no\.?|nr\.?|number|ref(?:erence)?(?:\s*(?:no\.?|#))?)$/i;

export type HeaderKind = 'answer' | 'comment' | 'owner' | 'reference' | 'other';

const REFERENCE_RE =
  /\b(guidance|instructions?|help|hints?|tips?|analyst|reviewer|assessor|auditor|evaluator|scor(?:e|ing)|weight|rating|internal\s+use|office\s+use|for\s+\w+\s+use\s+only|reason\s+for|follow-?up|preferred\s+response|mapping|crosswalk|testing\s+procedures?(?:\s*\(s\))?|level\s*\d|since|version)\b/i;
const ANSWER_RE =
  /\b(answers?|responses?|repl(?:y|ies)|yes\s*\/\s*no|y\/n|compliance|compliant|status|selection|choice|vendor\s+input|supplier\s+input|your\s+input|verdict|tested|implemented|applicab(?:le|ility)|in\s+place|conformity|disposition|findings?|data\s+collection)\b/i;
const COMMENT_RE =
  /\b(additional\s+(?:information|info|details|comments?|notes?)|comments?|notes?|explanations?|explain|justifications?|remarks?|details|descriptions?|elaborat\w*|evidence|supporting|rationale|narrative|clarifications?)\b/i;
const OWNER_RE = /\b(owner(?:ship)?|accountable|control\s+owner)\b/i;

/** What kind of slot a header names; `reference` columns are for the reader, not the respondent. */
export function headerKind(header: string): HeaderKind {
  if (REFERENCE_RE.test(header)) return 'reference';
  if (ANSWER_RE.test(header)) return 'answer';
  if (OWNER_RE.test(header)) return 'owner';
  if (COMMENT_RE.test(header)) return 'comment';
  return 'other';
}

/** A header that names an answer-like slot (used to recognise header rows). */
export function isSlotHeader(text: string | null | undefined): boolean {
  if (!isHeaderLike(text)) return false;
  return headerKind(text as string) !== 'other';
}

/** `SSRM Control Ownership (Optional)` → `ssrm_control_ownership`. */
export function slug(header: string): string {
  const s = header
    .replace(/\([^)]*\)/g, ' ')
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 40)
    .replace(/_+$/g, '');
  return s || 'slot';
}

/** A row of prose: a note, guidance or instructions rather than a question or a title. */
export function isProse(text: string): boolean {
  const t = text.trim();
  return t.length > 120 || (/[.:]$/.test(t) && t.split(/\s+/).length > 6);
}
