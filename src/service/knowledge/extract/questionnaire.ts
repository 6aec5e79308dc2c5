/**
 * A completed questionnaire as an answer library, through the questionnaire detector: every detected
 * question whose answer cells hold the organisation's answers becomes a Q&A entry keeping each slot by
 * role. What the template says to its reader is no answer: reference, guidance, scoring and
 * instruction sheets and columns (the detector's own notion of a reference column), and text that
 * addresses the reader (guidance-text.ts).
 */
import { detectQuestionnaire, detectQuestionnaireIn, DetectError } from '../../detect';
import type { Workbook } from '../../detect/workbook';
import { headerKind } from '../../detect/text';
import type { AnswerSlot } from '../../../api/schemas';
import { primarySlot } from '../../../fill/answer';
import { isGuidanceText } from '../guidance-text';
import { followedQuestions, questionSubject } from '../question-identity';
import type { QaPair } from '../types';

/** From a file's bytes (a CSV), or from a workbook its caller has already read (an xlsx: read once). */
export async function qaFromQuestionnaire(source: Uint8Array | Workbook, filename: string): Promise<QaPair[]> {
  let detected;
  try {
    detected = ArrayBuffer.isView(source) ? await detectQuestionnaire(source, filename) : await detectQuestionnaireIn(source, filename);
  } catch (error) {
    // Not a questionnaire: the caller tries a plain Q&A table next.
    if (error instanceof DetectError) return [];
    throw error;
  }
  const pairs: QaPair[] = [];
  const follows = followedQuestions(detected.questions.map((q) => ({ text: q.original_question_text, tab_name: q.tab_name })));
  for (const [i, question] of detected.questions.entries()) {
    if (isReferenceSheet(question.tab_name)) continue;
    const questionText = question.original_question_text.trim();
    const own = question.answer_slots.filter(isOwnAnswer);
    // Guidance in the answer cell makes the whole row the template's, whatever sits beside it.
    const answerCell = primarySlot(own);
    if (answerCell && isGuidanceText(answerCell.value)) continue;
    const withValue = own.filter((s) => isVendorText(s, questionText));
    const primary = primarySlot(withValue);
    if (!primary) continue;
    const kept = [primary, ...withValue.filter((s) => s !== primary)];
    const slots = kept.map((slot) => ({ slot_key: slot.role, header: slot.header, content: String(slot.value).trim() }));
    pairs.push({
      question: question.original_question_text,
      answer: slots[0]!.content,
      slots,
      original_id: question.original_id,
      tab_name: question.tab_name,
      location: `${question.tab_name}!${question.question_coordinate}`,
      // The same words under another section's subject are another question (one definition with the workbook's).
      subject: questionSubject({ text: question.original_question_text, section_path: question.section_path, follows: follows[i] }),
      ...sectionOf(question.section_path),
    });
  }
  return pairs;
}

/** The section a question sits in within its sheet, as the library keeps it (nothing when no section row precedes it). */
export function sectionOf(path: readonly string[] | undefined): { section?: string } {
  const titles = (path ?? []).map((t) => t.replace(/\s+/g, ' ').trim()).filter(Boolean);
  return titles.length ? { section: titles.join(' > ') } : {};
}

/** A sheet for the questionnaire's reviewers or instructions (HECVAT's "Analyst Reference", "Scoring", "Instructions"). */
export function isReferenceSheet(name: string): boolean {
  return headerKind(name) === 'reference' || /\b(reference|read\s*me|glossary|evaluation|instructions?)\b/i.test(name);
}

/**
 * A blocked (formula) slot beside the answer holds the template's text, e.g. HECVAT's "Guidance"
 * column, not the organisation's; a formula answer mirrors a real answer and is kept. A column the
 * detector calls reference material (guidance, scoring, analyst notes) is never an answer.
 */
function isOwnAnswer(slot: AnswerSlot): boolean {
  if (headerKind(slot.header ?? '') === 'reference') return false;
  return !slot.is_blocked || slot.role === 'answer';
}

/**
 * A value the organisation wrote: not empty, not the question repeated (a cell merged across the
 * question and answer columns, "End of Standard"), not text addressed to the reader.
 */
function isVendorText(slot: AnswerSlot, questionText: string): boolean {
  const value = typeof slot.value === 'string' ? slot.value.trim() : '';
  return value !== '' && value !== questionText && !isGuidanceText(value);
}
