/**
 * A completed questionnaire as an answer library, through the questionnaire detector: every detected
 * question whose answer slots already hold values becomes a Q&A entry keeping each slot by role.
 */
import { detectQuestionnaire, DetectError } from '../../detect';
import type { AnswerSlot } from '../../../api/schemas';
import { primarySlot } from '../../../fill/answer';
import type { QaPair } from '../types';

export async function qaFromQuestionnaire(bytes: Uint8Array, filename: string): Promise<QaPair[]> {
  let detected;
  try {
    detected = await detectQuestionnaire(bytes, filename);
  } catch (error) {
    // Not a questionnaire: the caller tries a plain Q&A table next.
    if (error instanceof DetectError) return [];
    throw error;
  }
  const pairs: QaPair[] = [];
  for (const question of detected.questions) {
    const questionText = question.original_question_text.trim();
    // A cell merged across the question and answer columns ("End of Standard") repeats the question.
    const kept = question.answer_slots.filter((slot) => hasValue(slot) && String(slot.value).trim() !== questionText && isOwnAnswer(slot));
    const primary = primarySlot(kept);
    if (!primary) continue;
    const slots = [primary, ...kept.filter((s) => s !== primary)].map((slot) => ({ slot_key: slot.role, header: slot.header, content: String(slot.value).trim() }));
    pairs.push({
      question: question.original_question_text,
      answer: slots[0]!.content,
      slots,
      original_id: question.original_id,
      tab_name: question.tab_name,
      location: `${question.tab_name}!${question.question_coordinate}`,
    });
  }
  return pairs;
}

/**
 * A blocked (formula) slot beside the answer holds the template's text, e.g. HECVAT's "Guidance"
 * column, not the organisation's; a formula answer mirrors a real answer and is kept.
 */
function isOwnAnswer(slot: AnswerSlot): boolean {
  return !slot.is_blocked || slot.role === 'answer';
}

function hasValue(slot: AnswerSlot): boolean {
  return typeof slot.value === 'string' && slot.value.trim() !== '';
}
