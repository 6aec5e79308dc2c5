/** The reply shape as a JSON schema (list slots as `enum`s) and a tolerant parser for servers without it. */
export interface LlmReply {
  answer?: unknown;
  slots?: unknown;
  citations?: unknown;
}

export function replySchema(slots: { key: string; allowed?: string[] }[]): { name: string; schema: object } {
  const properties: Record<string, object> = {};
  for (const slot of slots) properties[slot.key] = slot.allowed?.length ? { type: 'string', enum: [...slot.allowed, ''] } : { type: 'string' };
  return {
    name: 'questionnaire_answer',
    schema: {
      type: 'object',
      additionalProperties: false,
      required: ['answer', 'slots', 'citations'],
      properties: {
        answer: { type: 'string' },
        slots: { type: 'object', additionalProperties: false, required: Object.keys(properties), properties },
        citations: { type: 'array', items: { type: 'integer' } },
      },
    },
  };
}

/** The JSON object in a reply, tolerating code fences and prose around it. */
export function parseReply(content: string): LlmReply {
  const unfenced = content.replace(/```(?:json)?/gi, '');
  const start = unfenced.indexOf('{');
  const end = unfenced.lastIndexOf('}');
  if (start < 0 || end <= start) throw new Error('the language model did not reply with JSON');
  const parsed = JSON.parse(unfenced.slice(start, end + 1)) as unknown;
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('the language model reply is not a JSON object');
  return parsed as LlmReply;
}
