/**
 * Several questions in one request: a section's questions that share the same answer cells (same slot
 * roles and dropdowns, so one schema fits them all) go together with their evidence, deduplicated, under
 * a cap on questions and on prompt size. Each question gets a local id ("q1", "q2", ...) that its answer
 * must carry; the reply is mapped back by that id and every answer is then checked on its own.
 */
import { readConfig, type Env } from '../config/read';

export interface BatchLimits {
  /** Questions per request (QFILL_LLM_BATCH_QUESTIONS, default 8; 1 = one question per request). */
  maxQuestions: number;
  /** Characters of evidence and questions per request (QFILL_LLM_MAX_PROMPT_CHARS, default 24000). */
  maxPromptChars: number;
}

export function batchLimitsFrom(env: Env = process.env): BatchLimits {
  const c = readConfig(env, ['QFILL_LLM_BATCH_QUESTIONS', 'QFILL_LLM_MAX_PROMPT_CHARS']);
  return { maxQuestions: c.QFILL_LLM_BATCH_QUESTIONS, maxPromptChars: c.QFILL_LLM_MAX_PROMPT_CHARS };
}

export interface Batchable {
  /** Questions with the same shape can share a request (one reply schema). */
  shape: string;
  /** Their evidence, by a key that is the same for the same passage in two questions. */
  evidenceKeys: string[];
  /** Characters each piece of evidence adds to a prompt, by key. */
  evidenceChars: Map<string, number>;
  questionChars: number;
}

/**
 * Groups items, in order, into batches: consecutive items of one shape while the batch's question count
 * and prompt size (shared evidence counted once) stay under the limits. An item too large on its own still
 * gets a batch of its own (its evidence is trimmed when the prompt is built).
 */
export function planBatches<T extends Batchable>(items: T[], limits: BatchLimits): T[][] {
  const batches: T[][] = [];
  let current: T[] = [];
  let keys = new Set<string>();
  let chars = 0;
  for (const item of items) {
    const added = item.questionChars + item.evidenceKeys.filter((k) => !keys.has(k)).reduce((n, k) => n + (item.evidenceChars.get(k) ?? 0), 0);
    const fits = current.length > 0 && current[0]!.shape === item.shape && current.length < limits.maxQuestions && chars + added <= limits.maxPromptChars;
    if (!fits && current.length > 0) {
      batches.push(current);
      current = [];
      keys = new Set();
      chars = 0;
    }
    current.push(item);
    for (const k of item.evidenceKeys) keys.add(k);
    chars += current.length === 1 ? item.questionChars + item.evidenceKeys.reduce((n, k) => n + (item.evidenceChars.get(k) ?? 0), 0) : added;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/** The reply shape for a batch: `{"answers": [{"id", "answer", "slots", "citations"}]}`, ids as an enum. */
export function batchSchema(ids: string[], slots: { key: string; allowed?: string[] }[]): { name: string; schema: object } {
  const properties: Record<string, object> = {};
  for (const slot of slots) properties[slot.key] = slot.allowed?.length ? { type: 'string', enum: [...slot.allowed, ''] } : { type: 'string' };
  return {
    name: 'questionnaire_answers',
    schema: {
      type: 'object',
      additionalProperties: false,
      required: ['answers'],
      properties: {
        answers: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['id', 'answer', 'slots', 'citations'],
            properties: {
              id: { type: 'string', enum: ids },
              answer: { type: 'string' },
              slots: { type: 'object', additionalProperties: false, required: Object.keys(properties), properties },
              citations: { type: 'array', items: { type: 'integer' } },
            },
          },
        },
      },
    },
  };
}

/**
 * The answers of a batch reply by local id: entries with an id that was not asked are dropped (counted),
 * a second entry for the same id is ignored.
 */
export function answersById(reply: { answers?: unknown }, ids: string[]): { byId: Map<string, Record<string, unknown>>; unknown: string[] } {
  const byId = new Map<string, Record<string, unknown>>();
  const unknown: string[] = [];
  const asked = new Set(ids);
  for (const entry of Array.isArray(reply.answers) ? reply.answers : []) {
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) continue;
    const id = String((entry as { id?: unknown }).id ?? '')
      .trim()
      .toLowerCase();
    if (!asked.has(id)) unknown.push(id);
    else if (!byId.has(id)) byId.set(id, entry as Record<string, unknown>);
  }
  return { byId, unknown };
}
