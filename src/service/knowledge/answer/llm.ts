/**
 * Generated answers through an OpenAI-compatible chat endpoint. The prompt holds ONLY the retrieved
 * evidence, numbered; the reply is JSON whose list-slot values are checked against `allowed_values`
 * (anything else is dropped and the answer flagged). Citations must point at evidence that was given.
 */
import OpenAI from 'openai';
import type { AnswerSlot } from '../../../api/schemas';
import type { EndpointConfig } from '../embeddings';
import type { Candidate } from '../retrieval';
import type { AnswerResult, ChatTurn, QuestionInput } from '../types';
import { describeSource, evaluation } from './evaluation';
import { isListSlot, matchAllowed, primarySlot, writableSlots } from './slots';

const SYSTEM_PROMPT =
  'You answer security and compliance questionnaire questions for the organisation that owns the evidence below. ' +
  'Use ONLY the numbered evidence. If the evidence does not answer the question, return an empty answer and empty slots. ' +
  'Never invent facts, certifications or numbers. Reply with a single JSON object and nothing else.';

interface LlmReply {
  answer?: unknown;
  slots?: unknown;
  citations?: unknown;
}

export class LlmAnswerer {
  private readonly client: OpenAI;

  constructor(private readonly config: EndpointConfig) {
    this.client = new OpenAI({ baseURL: config.baseUrl, apiKey: config.apiKey || 'not-needed', maxRetries: 1, timeout: 60_000 });
  }

  async answerQuestion(question: QuestionInput, evidence: Candidate[]): Promise<AnswerResult> {
    const slots = writableSlots(question.answer_slots);
    const prompt = [
      `Question: ${question.text}`,
      '',
      'Evidence:',
      numberedEvidence(evidence),
      '',
      'Answer slots to fill (key: description):',
      slots.length ? slots.map(describeSlot).join('\n') : '(none: put the answer in "answer")',
      '',
      'Reply as JSON: {"answer": "<the answer>", "slots": {"<slot key>": "<value>"}, "citations": [<evidence numbers used>]}.',
      'A slot with allowed values must contain exactly one of them, or "" when the evidence does not decide it.',
    ].join('\n');
    const reply = parseReply(await this.complete([{ role: 'user', content: prompt }]));
    return validated(slots, evidence, reply);
  }

  async answerChat(question: string, history: ChatTurn[], evidence: Candidate[]): Promise<{ answer: string; cited: Candidate[] }> {
    const recent = history.slice(-6).map((t) => `${t.sender === 'user' ? 'User' : 'Assistant'}: ${t.content.slice(0, 1000)}`);
    const prompt = [
      recent.length ? `Conversation so far:\n${recent.join('\n')}\n` : '',
      `Question: ${question}`,
      '',
      'Evidence:',
      numberedEvidence(evidence),
      '',
      'Reply as JSON: {"answer": "<a short answer grounded in the evidence, or empty if it does not say>", "citations": [<evidence numbers used>]}.',
    ].join('\n');
    const reply = parseReply(await this.complete([{ role: 'user', content: prompt }]));
    const answer = typeof reply.answer === 'string' ? reply.answer.trim() : '';
    return { answer, cited: citedEvidence(reply, evidence) };
  }

  private async complete(messages: { role: 'user'; content: string }[]): Promise<string> {
    const response = await this.client.chat.completions.create({
      model: this.config.model,
      temperature: 0,
      messages: [{ role: 'system', content: SYSTEM_PROMPT }, ...messages],
    });
    const content = response.choices[0]?.message?.content;
    if (typeof content !== 'string' || !content.trim()) throw new Error('the language model returned an empty reply');
    return content;
  }
}

function numberedEvidence(evidence: Candidate[]): string {
  return evidence
    .map((c, i) => {
      const e = c.evidence;
      const where = [describeSource(e), e.context_header].filter(Boolean).join(' | ');
      const question = e.question_text ? `Q: ${e.question_text}\nA: ` : '';
      return `[${i + 1}] (${where})\n${question}${e.content}`;
    })
    .join('\n\n');
}

function describeSlot(slot: AnswerSlot): string {
  const allowed = isListSlot(slot) ? ` (allowed values: ${(slot.allowed_values ?? []).map((v) => JSON.stringify(v)).join(', ')})` : ' (free text)';
  return `- ${slot.role}: ${slot.header || slot.role}${allowed}`;
}

/** The JSON object in a reply, tolerating code fences and text around it. */
export function parseReply(content: string): LlmReply {
  const unfenced = content.replace(/```(?:json)?/gi, '');
  const start = unfenced.indexOf('{');
  const end = unfenced.lastIndexOf('}');
  if (start < 0 || end <= start) throw new Error('the language model did not reply with JSON');
  const parsed = JSON.parse(unfenced.slice(start, end + 1)) as unknown;
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('the language model reply is not a JSON object');
  return parsed as LlmReply;
}

function citedEvidence(reply: LlmReply, evidence: Candidate[]): Candidate[] {
  const numbers = Array.isArray(reply.citations) ? reply.citations : [];
  const cited = numbers
    .map((n) => (typeof n === 'number' ? n : Number.parseInt(String(n), 10)))
    .filter((n) => Number.isInteger(n) && n >= 1 && n <= evidence.length)
    .map((n) => evidence[n - 1]!);
  return [...new Set(cited)];
}

function validated(slots: AnswerSlot[], evidence: Candidate[], reply: LlmReply): AnswerResult {
  const values = reply.slots && typeof reply.slots === 'object' && !Array.isArray(reply.slots) ? (reply.slots as Record<string, unknown>) : {};
  const slot_responses: { slot_key: string; content: string }[] = [];
  const rejected: string[] = [];
  for (const slot of slots) {
    const raw = values[slot.role];
    const value = typeof raw === 'string' ? raw.trim() : '';
    if (!value) continue;
    if (isListSlot(slot)) {
      const allowed = matchAllowed(value, slot.allowed_values ?? []);
      if (allowed === null) rejected.push(`"${value}" for ${slot.header || slot.role}`);
      else slot_responses.push({ slot_key: slot.role, content: allowed });
    } else {
      slot_responses.push({ slot_key: slot.role, content: value });
    }
  }
  const answerText = typeof reply.answer === 'string' ? reply.answer.trim() : '';
  const primary = primarySlot(slots);
  const primaryValue = primary ? slot_responses.find((r) => r.slot_key === primary.role)?.content : undefined;
  const text = primary ? (primaryValue ?? (isListSlot(primary) ? '' : answerText)) : answerText;
  if (primary && !isListSlot(primary) && !primaryValue && answerText) slot_responses.unshift({ slot_key: primary.role, content: answerText });

  const cited = citedEvidence(reply, evidence);
  const ordered = [...cited, ...evidence.filter((c) => !cited.includes(c))].slice(0, 5);
  const primaryListEmpty = !!primary && isListSlot(primary) && !primaryValue;
  const empty = text === '' && slot_responses.length === 0;
  const flagged = rejected.length > 0 || primaryListEmpty || empty || cited.length === 0;

  const topRelevance = evidence[0]?.evidence.relevance_score ?? 0;
  let score = Math.round(55 + 30 * topRelevance);
  const sources = (cited.length ? cited : evidence.slice(0, 1)).map((c) => describeSource(c.evidence));
  let reason = `Generated from ${[...new Set(sources)].join(', ')}`;
  if (cited.length === 0) reason += '; the model cited no evidence';
  if (rejected.length) reason += `; rejected ${rejected.join(', ')}: not an allowed value, left for review`;
  else if (primaryListEmpty) reason += '; the evidence does not decide the list answer, left for review';
  if (empty) reason = 'The language model found no answer in the evidence';
  if (flagged) score = Math.min(score, 45);
  if (empty) score = Math.min(score, 15);
  return {
    text,
    slot_responses,
    score,
    evaluation: evaluation(score, reason, 'llm'),
    flagged_for_review: flagged,
    evidence: ordered.map((c, i) => ({ ...c.evidence, rank: i + 1 })),
    method: 'llm',
  };
}
