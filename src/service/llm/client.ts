/**
 * One chat endpoint, used politely: a concurrency limit, a per-request timeout, retries with exponential
 * backoff + jitter on 429 (honouring Retry-After) and 5xx, token usage counted, and structured output
 * (json_schema) requested until the server says once that it does not support it.
 */
import { authHeaders, chatUrl, type ChatEndpoint } from './endpoint';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatReply {
  content: string;
  model: string;
  tokens: number;
}

export class LlmHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`the language model endpoint answered HTTP ${status}: ${body.slice(0, 200)}`);
  }
}

const MAX_ATTEMPTS = 4;

export class ChatClient {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  /** null = not known yet; learnt from the first 400 about response_format. */
  structuredOutput: boolean | null = null;
  requests = 0;
  tokens = 0;

  constructor(
    readonly endpoint: ChatEndpoint,
    private readonly baseDelayMs = 500,
  ) {}

  async complete(messages: ChatMessage[], schema?: { name: string; schema: object }): Promise<ChatReply> {
    await this.acquire();
    try {
      if (schema && this.structuredOutput !== false) {
        try {
          const reply = await this.send(messages, schema);
          this.structuredOutput = true;
          return reply;
        } catch (error) {
          if (!(error instanceof LlmHttpError) || error.status !== 400 || !/response_format|json_schema|schema/i.test(error.body)) throw error;
          this.structuredOutput = false;
        }
      }
      return await this.send(messages);
    } finally {
      this.release();
    }
  }

  private async send(messages: ChatMessage[], schema?: { name: string; schema: object }): Promise<ChatReply> {
    const body: Record<string, unknown> = { model: this.endpoint.model, temperature: 0, messages };
    if (schema) body.response_format = { type: 'json_schema', json_schema: { name: schema.name, strict: true, schema: schema.schema } };
    for (let attempt = 1; ; attempt++) {
      let response: Response;
      this.requests++;
      try {
        response = await fetch(chatUrl(this.endpoint), {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...authHeaders(this.endpoint) },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(this.endpoint.timeoutMs),
        });
      } catch (error) {
        if (attempt >= MAX_ATTEMPTS) throw new Error(`the language model endpoint did not answer: ${(error as Error).message}`);
        await sleep(this.backoff(attempt));
        continue;
      }
      const text = await response.text();
      if (response.ok) {
        const json = JSON.parse(text) as { model?: string; choices?: { message?: { content?: string } }[]; usage?: { total_tokens?: number } };
        this.tokens += json.usage?.total_tokens ?? 0;
        const content = json.choices?.[0]?.message?.content;
        if (typeof content !== 'string' || !content.trim()) throw new Error('the language model returned an empty reply');
        return { content, model: json.model || this.endpoint.model, tokens: json.usage?.total_tokens ?? 0 };
      }
      const retryable = response.status === 429 || response.status >= 500;
      if (!retryable || attempt >= MAX_ATTEMPTS) throw new LlmHttpError(response.status, text);
      await sleep(retryAfterMs(response.headers.get('retry-after')) ?? this.backoff(attempt));
    }
  }

  private backoff(attempt: number): number {
    const base = this.baseDelayMs * 2 ** (attempt - 1);
    return base / 2 + Math.random() * base;
  }

  private async acquire(): Promise<void> {
    if (this.active < this.endpoint.concurrency) {
      this.active++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }
}

function retryAfterMs(header: string | null): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.min(Math.max(0, seconds * 1000), 60_000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.min(Math.max(0, at - Date.now()), 60_000);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
