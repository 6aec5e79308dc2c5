/**
 * A loopback OpenAI-compatible chat server that answers batched questionnaire prompts (the `[qN] text`
 * lines of src/service/knowledge/answer/llm.ts) after a set latency: every question gets the first allowed
 * value of each list slot and a comment, citing evidence 1. It counts requests, tokens and how often each
 * question (by its text) was asked, and can hold requests unanswered from some point on (to kill the
 * service while they are in flight). Used by tests and by `npm run bench`.
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
  /** Stops holding: held requests are dropped (their connections closed), new ones are answered. */
  release(): void;
  close(): Promise<void>;
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
      const messages = (body.messages as { role: string; content: string }[] | undefined) ?? [];
      const prompt = messages
        .filter((m) => m.role === 'user')
        .map((m) => m.content)
        .join('\n');
      const questions = [...prompt.matchAll(/^\[(q\d+)\] (.*)$/gm)].map((m) => ({ id: m[1]!, text: m[2]!.trim() }));
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
