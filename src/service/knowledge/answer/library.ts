/**
 * Answer-library reuse. Every past answer to the same question (same stemmed key terms; the question
 * id counts only within the same template, i.e. the same answer tab) is gathered, one per past
 * questionnaire, the newest upload of a questionnaire superseding older ones. When they agree on the
 * list answer it is reused slot by slot. When they disagree nothing is picked silently: a stated rule
 * decides (same offering as this questionnaire; else the analyst's "prefer the most recent
 * questionnaire"; else a clear majority of three or more), or the list slot stays empty, the question
 * is flagged and the reason, the evidence and `evaluation.alternatives` carry every side with its source.
 */
import type { AnswerSlot } from '../../../api/schemas';
import { workbookStem } from '../../../fill/qa-sheet';
import type { Candidate, LibrarySlot } from '../retrieval';
import { setCosine, stemmedTerms } from '../text';
import type { AnswerResult, QuestionInput } from '../types';
import { describeSource, evaluation } from './evaluation';
import { describeField, instanceField } from './fields';
import { isListSlot, matchAllowed, primarySlot, writableSlots } from './slots';

export const REUSE_THRESHOLD = 0.8;
/**
 * Below REUSE_THRESHOLD a past question worded differently ("permission levels, for example role based
 * access control" for "Do you support RBAC?") still answers when nothing closer does: across template
 * versions that is how the same question reads. On the fixtures' completed questionnaires, past answers
 * between 0.65 and 0.8 agree with the vendor's real answer in 96% of cases (92 of 96), against 85% at 0.8
 * or more (which holds sibling products' disagreements). Such a reuse is flagged for a look.
 */
export const NEAR_MATCH_THRESHOLD = 0.65;
const ID_MATCH_THRESHOLD = 0.55;
/** A majority decides only among this many past answers or more, holding this share of them. */
const MAJORITY_MIN_ANSWERS = 3;
const MAJORITY_SHARE = 2 / 3;

/** What the library knows about the file a past answer came from. */
export interface LibraryFileFacts {
  /** The product the past questionnaire was about (its own "Product Name" answer), if it says. */
  label: string | null;
  offering_ids: number[];
}

export interface LibraryMatch {
  candidate: Candidate;
  similarity: number;
  idMatch: boolean;
  facts: LibraryFileFacts;
}

/** How the questionnaire being filled wants disagreements between past answers settled. */
export interface LibraryPolicy {
  /** The questionnaire's offerings: a past answer about the same offering decides. */
  offering_ids?: number[];
  /** The analyst's choice at upload: the most recently uploaded past questionnaire decides. */
  prefer_recent?: boolean;
}

/** The rule that settled a disagreement, or null when none applied and the list slot was left empty. */
export type ConflictRule = 'same_offering' | 'most_recent' | 'majority';

/** One side of a disagreement, for the review pane's one-click choices (`evaluation.alternatives`). */
export interface Alternative {
  /** The list value this past answer gives (e.g. "No"), as allowed in this question's list. */
  value: string;
  slot_key: string;
  /** Every slot this past answer would fill, e.g. answer=No and comment=…. */
  slot_responses: { slot_key: string; content: string }[];
  source_file: string;
  file_id: number;
  /** The past questionnaire's product ("Canvas Catalog"), else its file name without extension. */
  questionnaire: string;
  question: string;
  location: string;
  /** True for the side a rule chose. */
  chosen: boolean;
}

export interface ConflictSummary {
  slot_key: string;
  rule: ConflictRule | null;
  /** "Canvas Catalog: No · Canvas Studio: Yes". */
  sides: string;
}

/**
 * Every accepted past answer, the best per file, newest upload of the same questionnaire only, best first.
 * `facts` reads what the library knows about a file (its product, offerings).
 */
export function findLibraryMatches(question: QuestionInput, candidates: Candidate[], facts: (fileId: number) => LibraryFileFacts): LibraryMatch[] {
  const stems = stemmedTerms(question.text);
  const wantedId = normaliseId(question.original_id);
  const wantedTemplate = normaliseTemplate(question.tab_name);
  const bestPerFile = new Map<number, LibraryMatch>();
  for (const candidate of candidates) {
    if (!candidate.library) continue;
    const similarity = setCosine(stems, candidate.library.questionStems);
    // An id is a strong signal only inside one template: HECVAT Lite's HLAP-06 is not K-12CVAT's.
    const sameTemplate = wantedTemplate === null || normaliseTemplate(candidate.evidence.tab_name) === wantedTemplate;
    const idMatch = wantedId !== null && sameTemplate && normaliseId(candidate.library.original_id) === wantedId;
    const accepted = similarity >= NEAR_MATCH_THRESHOLD || (idMatch && similarity >= ID_MATCH_THRESHOLD);
    if (!accepted) continue;
    const match: LibraryMatch = { candidate, similarity, idMatch, facts: facts(candidate.evidence.file_id) };
    const previous = bestPerFile.get(candidate.evidence.file_id);
    if (!previous || matchKey(match) > matchKey(previous)) bestPerFile.set(candidate.evidence.file_id, match);
  }
  const current = new Set(
    withoutSuperseded(
      [...bestPerFile.values()].map((m) => m.candidate),
      facts,
    ),
  );
  const all = [...bestPerFile.values()].filter((m) => current.has(m.candidate)).sort((a, b) => matchKey(b) - matchKey(a));
  // A near match speaks only when nothing closer does: it must not raise a conflict with a close one.
  const close = all.filter(isCloseMatch);
  return close.length > 0 ? close : all;
}

/** The same question (closely worded, or its id within its template), not merely a similar one. */
export function isCloseMatch(m: { similarity: number; idMatch: boolean }): boolean {
  return m.similarity >= REUSE_THRESHOLD || m.idMatch;
}

const matchKey = (m: { similarity: number; idMatch: boolean }) => m.similarity + (m.idMatch ? 0.1 : 0);

/**
 * A newer upload of the same questionnaire (same name, or same product on the same template) supersedes
 * the older: the older's past answers are no evidence anywhere (library reuse, search, chat), so a
 * corrected answer never competes with the answer it corrected. Passages pass through untouched.
 */
export function withoutSuperseded<C extends Pick<Candidate, 'evidence' | 'library'>>(
  candidates: C[],
  facts: (fileId: number) => Pick<LibraryFileFacts, 'label'>,
): C[] {
  const newest = new Map<string, number>();
  for (const c of candidates) {
    if (!c.library) continue;
    const identity = questionnaireIdentity(c, facts(c.evidence.file_id));
    newest.set(identity, Math.max(newest.get(identity) ?? -1, c.evidence.file_id));
  }
  return candidates.filter((c) => !c.library || newest.get(questionnaireIdentity(c, facts(c.evidence.file_id))) === c.evidence.file_id);
}

function questionnaireIdentity(c: Pick<Candidate, 'evidence'>, facts: Pick<LibraryFileFacts, 'label'>): string {
  const template = normaliseTemplate(c.evidence.tab_name) ?? '';
  if (facts.label) return `label:${template}|${facts.label.trim().toLowerCase()}`;
  // The workbook's reviewed answers (a Q&A sheet named after it) are a newer upload of that workbook.
  return `file:${workbookStem(c.evidence.filename)}`;
}

function normaliseId(id: string | null | undefined): string | null {
  const n = id?.trim().toLowerCase().replace(/\s+/g, '');
  return n ? n : null;
}

function normaliseTemplate(tab: string | null | undefined): string | null {
  const n = tab?.trim().toLowerCase().replace(/\s+/g, ' ');
  return n ? n : null;
}

/** The past questionnaire a match came from, as a person names it. */
export function questionnaireName(m: LibraryMatch): string {
  return m.facts.label?.trim() || m.candidate.evidence.filename.replace(/\.[A-Za-z0-9]+$/, '');
}

/** The answer from the library, or null when no past answer matches. */
export function answerFromLibrary(question: QuestionInput, matches: LibraryMatch[], policy: LibraryPolicy = {}): AnswerResult | null {
  if (matches.length === 0) return null;
  const slots = writableSlots(question.answer_slots);
  const primary = primarySlot(slots);
  const listSlot = primary && isListSlot(primary) ? primary : slots.find(isListSlot);
  if (!listSlot) return reuseAnswer(question, matches[0]!, matches.slice(1));

  // Each past answer's value for the list slot; an empty answer cell (a comment only) is no side.
  const sides = matches
    .map((m) => ({ match: m, value: listValue(listSlot, m.candidate.library!.slots) }))
    .filter((s): s is { match: LibraryMatch; value: string } => s.value !== null);
  if (sides.length === 0) return reuseAnswer(question, matches[0]!, matches.slice(1));
  const values = [...new Set(sides.map((s) => s.value))];
  const valued = sides.map((s) => s.match);
  const others = (m: LibraryMatch) => matches.filter((x) => x !== m);
  if (values.length === 1) {
    // Entries without a list value never beat one with a value: the best valued entry answers.
    return reuseAnswer(question, valued[0]!, others(valued[0]!), { agreeing: sides.length });
  }

  const decision = decide(sides, policy);
  const alternatives = alternativesOf(question, listSlot, sides, decision?.match ?? null);
  const summary = sides.map((s) => `${questionnaireName(s.match)}: ${s.value}`).join(' · ');
  const conflict: ConflictSummary = { slot_key: listSlot.role, rule: decision?.rule ?? null, sides: summary };
  if (decision) {
    const result = reuseAnswer(question, decision.match, others(decision.match), { decidedBy: decision });
    result.evaluation.reason = `Past answers disagree (${summary}); ${decision.explanation}. ${result.evaluation.reason}`;
    Object.assign(result.evaluation, { conflict, alternatives });
    return result;
  }
  const score = 35;
  const reason =
    `Past answers disagree (${summary}) and no rule decides between them (none is about this questionnaire's offering, ` +
    `"prefer the most recent questionnaire" was not chosen, no clear majority of three or more), so the list answer was left for you to choose`;
  const evidence = [...valued, ...matches.filter((m) => !valued.includes(m))].map((m, i) => ({ ...m.candidate.evidence, rank: i + 1 }));
  const result: AnswerResult = {
    text: '',
    slot_responses: [],
    score,
    evaluation: { ...evaluation(score, reason, 'library'), conflict, alternatives },
    flagged_for_review: true,
    evidence,
    method: 'library',
  };
  return result;
}

interface Decision {
  match: LibraryMatch;
  rule: ConflictRule;
  explanation: string;
}

function decide(sides: { match: LibraryMatch; value: string }[], policy: LibraryPolicy): Decision | null {
  const wanted = new Set(policy.offering_ids ?? []);
  if (wanted.size > 0) {
    const same = sides.filter((s) => s.match.facts.offering_ids.some((o) => wanted.has(o)));
    const values = new Set(same.map((s) => s.value));
    if (same.length > 0 && values.size === 1) {
      const m = same[0]!;
      return {
        match: m.match,
        rule: 'same_offering',
        explanation: `${questionnaireName(m.match)} is about this questionnaire's offering, so its answer ${m.value} was taken`,
      };
    }
  }
  if (policy.prefer_recent) {
    const newest = sides.reduce((a, b) => (b.match.candidate.evidence.file_id > a.match.candidate.evidence.file_id ? b : a));
    return {
      match: newest.match,
      rule: 'most_recent',
      explanation: `you chose to prefer the most recent questionnaire: ${questionnaireName(newest.match)} (uploaded last) says ${newest.value}`,
    };
  }
  if (sides.length >= MAJORITY_MIN_ANSWERS) {
    const counts = new Map<string, number>();
    for (const s of sides) counts.set(s.value, (counts.get(s.value) ?? 0) + 1);
    const [value, count] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]!;
    if (count / sides.length >= MAJORITY_SHARE) {
      const m = sides.find((s) => s.value === value)!;
      return { match: m.match, rule: 'majority', explanation: `${count} of ${sides.length} past answers say ${value}, a clear majority` };
    }
  }
  return null;
}

function alternativesOf(
  question: QuestionInput,
  listSlot: AnswerSlot,
  sides: { match: LibraryMatch; value: string }[],
  chosen: LibraryMatch | null,
): Alternative[] {
  return sides.map(({ match, value }) => {
    const e = match.candidate.evidence;
    return {
      value,
      slot_key: listSlot.role,
      slot_responses: slotResponses(question, match).slot_responses,
      source_file: e.filename,
      file_id: e.file_id,
      questionnaire: questionnaireName(match),
      question: match.candidate.library!.question,
      location: e.source_location ?? '',
      chosen: match === chosen,
    };
  });
}

/** The value a past answer gives a list slot: its same-role slot, else any slot fitting the list. */
function listValue(slot: AnswerSlot, librarySlots: LibrarySlot[]): string | null {
  const allowed = slot.allowed_values ?? [];
  const filled = librarySlots.filter((s) => s.content.trim() !== '');
  const sameRole = filled.find((s) => s.slot_key === slot.role);
  if (sameRole) return matchAllowed(sameRole.content, allowed);
  for (const s of filled) {
    const value = matchAllowed(s.content, allowed);
    if (value !== null) return value;
  }
  return null;
}

function slotResponses(question: QuestionInput, match: LibraryMatch): { slot_responses: { slot_key: string; content: string }[]; unmatchedList: boolean } {
  const library = match.candidate.library!;
  const slots = writableSlots(question.answer_slots);
  const used = new Set<LibrarySlot>();
  const slot_responses: { slot_key: string; content: string }[] = [];
  let unmatchedList = false;
  const primary = primarySlot(slots);
  // List slots first: they claim the library value that fits their allowed values.
  const ordered = [...slots.filter(isListSlot), ...slots.filter((s) => !isListSlot(s))];
  for (const slot of ordered) {
    const value = valueFor(slot, library.slots, used);
    if (value === null) {
      // Only the answer's own list makes the reuse doubtful: a secondary list the past answer left
      // empty (CAIQ's control ownership) stays empty for review, the answer stands.
      if (isListSlot(slot) && slot === primary) unmatchedList = true;
      continue;
    }
    slot_responses.push({ slot_key: slot.role, content: value });
  }
  slot_responses.sort((a, b) => slots.findIndex((s) => s.role === a.slot_key) - slots.findIndex((s) => s.role === b.slot_key));
  return { slot_responses, unmatchedList };
}

interface ReuseContext {
  /** Past answers (this one included) giving the same list value. */
  agreeing?: number;
  decidedBy?: Decision;
}

export function reuseAnswer(question: QuestionInput, match: LibraryMatch, rest: LibraryMatch[] = [], context: ReuseContext = {}): AnswerResult {
  const library = match.candidate.library!;
  const slots = writableSlots(question.answer_slots);
  const { slot_responses, unmatchedList } = slotResponses(question, match);
  const primary = primarySlot(slots);
  // A comment never stands in for a list answer: with a list primary slot, the text is its value or nothing.
  const primaryValue = primary ? slot_responses.find((r) => r.slot_key === primary.role)?.content : undefined;
  const text = primary && isListSlot(primary) ? (primaryValue ?? '') : primaryValue || slot_responses[0]?.content || '';

  const source = describeSource(match.candidate.evidence);
  const exact = match.similarity >= 0.999;
  let score = 80 + Math.round((match.similarity - REUSE_THRESHOLD) * 75) + (match.idMatch ? 5 : 0);
  let reason = `Reused the approved answer to a ${exact ? 'matching' : 'closely matching'} question in ${source}`;
  if (match.idMatch) reason += ` (same question id ${library.original_id})`;
  if (!exact) reason += `; that question read: "${truncate(library.question, 160)}"`;
  const near = !isCloseMatch(match);
  if (near) reason += '; it is worded differently, so check it asks the same';
  if ((context.agreeing ?? 0) > 1) reason += `; ${context.agreeing} past questionnaires give this answer`;
  if (context.decidedBy?.rule === 'most_recent') score = Math.min(score, 75);
  if (context.decidedBy?.rule === 'majority') score = Math.min(score, 70);
  if (unmatchedList) {
    score = Math.min(score, 45);
    reason += '; its answer is not one of the allowed values of this question (or it left the answer cell empty), so the list answer was left for review';
  }
  // "Product Name", "Date", "Contact Email": the value belonged to the questionnaire it came from.
  const field = instanceField(question.text);
  const copiedText = text !== '' && !(primary && isListSlot(primary));
  const specific = field !== null && copiedText;
  if (specific) {
    score = Math.min(score, field === 'date' ? 30 : 45);
    reason += `; the question asks for ${describeField(field)} specific to the questionnaire it came from, so check it applies to this one`;
  }
  const evidence = [match, ...rest].map((m, i) => ({ ...m.candidate.evidence, rank: i + 1 }));
  const final = Math.min(100, score);
  return {
    text,
    slot_responses,
    score: final,
    evaluation: evaluation(final, reason, 'library'),
    flagged_for_review: unmatchedList || specific || near || text === '',
    evidence,
    method: 'library',
  };
}

/** The library value for one target slot: same role, else a fitting list value, else a similar header. */
function valueFor(slot: AnswerSlot, librarySlots: LibrarySlot[], used: Set<LibrarySlot>): string | null {
  const available = librarySlots.filter((s) => !used.has(s) && s.content.trim() !== '');
  const take = (s: LibrarySlot | undefined, value?: string | null): string | null => {
    if (!s) return null;
    used.add(s);
    return value ?? s.content;
  };
  if (isListSlot(slot)) {
    const allowed = slot.allowed_values ?? [];
    const sameRole = available.find((s) => s.slot_key === slot.role);
    if (sameRole) {
      const value = matchAllowed(sameRole.content, allowed);
      return value === null ? null : take(sameRole, value);
    }
    for (const s of available) {
      const value = matchAllowed(s.content, allowed);
      if (value !== null) return take(s, value);
    }
    return null;
  }
  const sameRole = available.find((s) => s.slot_key === slot.role);
  if (sameRole) return take(sameRole);
  const header = slot.header.trim().toLowerCase();
  const sameHeader = header ? available.find((s) => s.header?.trim().toLowerCase() === header) : undefined;
  if (sameHeader) return take(sameHeader);
  // A free-text slot takes the library's explanatory text, not a bare Yes/No.
  const prose = available.find((s) => s.content.split(/\s+/).length > 2);
  return take(prose);
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
