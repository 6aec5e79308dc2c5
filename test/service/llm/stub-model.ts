/**
 * A loopback OpenAI-compatible chat server that answers batched questionnaire prompts (the `[qN] text`
 * lines of src/service/knowledge/answer/llm.ts) after a set latency: every question gets the first allowed
 * value of each list slot and a comment, citing evidence 1. It counts requests, tokens and how often each
 * question (by its text) was asked, and records every request's questions and evidence in the order sent
 * (`requests`, read with `modelInput`); it can hold requests unanswered from some point on (to kill the
 * service while they are in flight). Used by tests, by `npm run bench` and by the documents-only eval.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StubModelOptions {
  latencyMs?: number;
  tokensPerRequest?: number;
  /** After this many replies, further requests are held (never answered) until `release()`. */
  holdAfter?: number;
}

export interface StubModel {
  /** Base URL, ending in /v1. */
  url: string;
  /** Requests answered. */
  replies: number;
  /** Requests received (answered or held). */
  received: number;
  tokens: number;
  /** Times each question text was asked. */
  asked: Map<string, number>;
  /** Question texts of the replies sent. */
  answered: Set<string>;
  /** Question texts of each held request. */
  held: string[][];
  /** Every request received, in arrival order: what the model was given. */
  requests: ModelInput[];
  /** Stops holding: held requests are dropped (their connections closed), new ones are answered. */
  release(): void;
  close(): Promise<void>;
}

/** What one chat request gave the model: its questions and its evidence blocks, in the order sent. */
export interface ModelInput {
  model: string;
  questions: { id: string; text: string }[];
  evidence: { id: number; label: string; text: string }[];
  /** The whole user prompt, as sent. */
  prompt: string;
}

/** The user prompt of an OpenAI chat request body. */
export function userPrompt(body: Record<string, unknown>): string {
  const messages = (body.messages as { role: string; content: string }[] | undefined) ?? [];
  return messages
    .filter((m) => m.role === 'user')
    .map((m) => m.content)
    .join('\n');
}

/**
 * A questionnaire request read back: the `[qN] text` questions of a batch (or the `Question:` of a single
 * one) and the `<evidence id=N>` blocks (src/service/llm/grounding.ts `evidenceBlocks`: a label line in
 * parentheses, then the passage).
 */
export function modelInput(body: Record<string, unknown>): ModelInput {
  const prompt = userPrompt(body);
  const batch = [...prompt.matchAll(/^\[(q\d+)\] (.*)$/gm)].map((m) => ({ id: m[1]!, text: m[2]!.trim() }));
  const single = /^Question: (.*)$/m.exec(prompt);
  const questions = batch.length ? batch : single ? [{ id: 'q1', text: single[1]!.trim() }] : [];
  const evidence = [...prompt.matchAll(/<evidence id=(\d+)>\n\((.*)\)\n([\s\S]*?)\n<\/evidence>/g)].map((m) => ({
    id: Number(m[1]),
    label: m[2]!,
    text: m[3]!,
  }));
  return { model: String(body.model ?? ''), questions, evidence, prompt };
}

interface SlotSchema {
  properties?: Record<string, { enum?: string[] }>;
}

function slotValues(body: Record<string, unknown>): Record<string, string> {
  const format = body.response_format as
    | { json_schema?: { schema?: { properties?: { answers?: { items?: { properties?: { slots?: SlotSchema } } } } } } }
    | undefined;
  const slots = format?.json_schema?.schema?.properties?.answers?.items?.properties?.slots?.properties ?? {};
  const out: Record<string, string> = {};
  for (const [key, schema] of Object.entries(slots)) out[key] = schema.enum?.[0] ?? 'As stated in the evidence.';
  return out;
}

export async function startStubModel(options: StubModelOptions = {}): Promise<StubModel> {
  const latency = options.latencyMs ?? 0;
  const perRequest = options.tokensPerRequest ?? 100;
  let holding = options.holdAfter !== undefined;
  const heldResponses: ServerResponse[] = [];
  const stub: StubModel = {
    url: '',
    replies: 0,
    received: 0,
    tokens: 0,
    asked: new Map(),
    answered: new Set(),
    held: [],
    requests: [],
    release() {
      holding = false;
      for (const res of heldResponses.splice(0)) res.destroy();
    },
    close: async () => {
      stub.release();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw || '{}') as Record<string, unknown>;
      const input = modelInput(body);
      // Replies (and counts) are for batched questionnaire prompts only, as before recording.
      const questions = [...input.prompt.matchAll(/^\[(q\d+)\] (.*)$/gm)].map((m) => ({ id: m[1]!, text: m[2]!.trim() }));
      stub.requests.push(input);
      stub.received++;
      for (const q of questions) stub.asked.set(q.text, (stub.asked.get(q.text) ?? 0) + 1);
      if (holding && stub.received > (options.holdAfter ?? 0)) {
        stub.held.push(questions.map((q) => q.text));
        heldResponses.push(res);
        return;
      }
      const slots = slotValues(body);
      const content = JSON.stringify({ answers: questions.map((q) => ({ id: q.id, answer: 'Yes', slots, citations: [1] })) });
      setTimeout(() => {
        if (res.destroyed) return;
        stub.replies++;
        stub.tokens += perRequest;
        for (const q of questions) stub.answered.add(q.text);
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ model: String(body.model), choices: [{ message: { role: 'assistant', content } }], usage: { total_tokens: perRequest } }));
      }, latency);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stub.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return stub;
}
