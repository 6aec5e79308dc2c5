/**
 * Answer-library reuse: a past question close enough to this one (same stemmed key terms, with the
 * question id as a tie-breaker) hands over its approved answer, slot by slot.
 */
import type { AnswerSlot } from '../../../api/schemas';
import type { Candidate, LibrarySlot } from '../retrieval';
import { setCosine, stemmedTerms } from '../text';
import type { AnswerResult, QuestionInput } from '../types';
import { describeSource, evaluation } from './evaluation';
import { describeField, instanceField } from './fields';
import { isListSlot, matchAllowed, primarySlot, writableSlots } from './slots';

export const REUSE_THRESHOLD = 0.8;
const ID_MATCH_THRESHOLD = 0.55;

export interface LibraryMatch {
  candidate: Candidate;
  similarity: number;
  idMatch: boolean;
}

export function findLibraryMatch(question: QuestionInput, candidates: Candidate[]): LibraryMatch | null {
  const stems = stemmedTerms(question.text);
  const wantedId = normaliseId(question.original_id);
  let best: LibraryMatch | null = null;
  for (const candidate of candidates) {
    if (!candidate.library) continue;
    const similarity = setCosine(stems, candidate.library.questionStems);
    const idMatch = wantedId !== null && normaliseId(candidate.library.original_id) === wantedId;
    const accepted = similarity >= REUSE_THRESHOLD || (idMatch && similarity >= ID_MATCH_THRESHOLD);
    if (!accepted) continue;
    const key = similarity + (idMatch ? 0.1 : 0);
    if (!best || key > best.similarity + (best.idMatch ? 0.1 : 0)) best = { candidate, similarity, idMatch };
  }
  return best;
}

function normaliseId(id: string | null | undefined): string | null {
  const n = id?.trim().toLowerCase().replace(/\s+/g, '');
  return n ? n : null;
}

export function reuseAnswer(question: QuestionInput, match: LibraryMatch): AnswerResult {
  const library = match.candidate.library!;
  const slots = writableSlots(question.answer_slots);
  const used = new Set<LibrarySlot>();
  const slot_responses: { slot_key: string; content: string }[] = [];
  let unmatchedList = false;

  // List slots first: they claim the library value that fits their allowed values.
  const ordered = [...slots.filter(isListSlot), ...slots.filter((s) => !isListSlot(s))];
  for (const slot of ordered) {
    const value = valueFor(slot, library.slots, used);
    if (value === null) {
      if (isListSlot(slot)) unmatchedList = true;
      continue;
    }
    slot_responses.push({ slot_key: slot.role, content: value });
  }
  slot_responses.sort((a, b) => slots.findIndex((s) => s.role === a.slot_key) - slots.findIndex((s) => s.role === b.slot_key));

  const primary = primarySlot(slots);
  const libraryAnswer = library.slots[0]?.content ?? '';
  const text = (primary && slot_responses.find((r) => r.slot_key === primary.role)?.content) || slot_responses[0]?.content || libraryAnswer;

  const source = describeSource(match.candidate.evidence);
  const exact = match.similarity >= 0.999;
  let score = 80 + Math.round((match.similarity - REUSE_THRESHOLD) * 75) + (match.idMatch ? 5 : 0);
  let reason = `Reused the approved answer to a ${exact ? 'matching' : 'closely matching'} question in ${source}`;
  if (match.idMatch) reason += ` (same question id ${library.original_id})`;
  if (!exact) reason += `; that question read: "${truncate(library.question, 160)}"`;
  if (unmatchedList) {
    score = Math.min(score, 60);
    reason += '; its answer is not one of the allowed values of this question, so the list answer was left for review';
  }
  // "Product Name", "Date", "Contact Email": the value belonged to the questionnaire it came from.
  const field = instanceField(question.text);
  const copiedText = text !== '' && !(primary && isListSlot(primary));
  const specific = field !== null && copiedText;
  if (specific) {
    score = Math.min(score, field === 'date' ? 30 : 60);
    reason += `; the question asks for ${describeField(field)} specific to the questionnaire it came from, so check it applies to this one`;
  }
  const evidence = [{ ...match.candidate.evidence, rank: 1 }];
  return {
    text,
    slot_responses,
    score: Math.min(100, score),
    evaluation: evaluation(Math.min(100, score), reason, 'library'),
    flagged_for_review: unmatchedList || specific || text === '',
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
