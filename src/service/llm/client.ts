/**
 * One model endpoint, used politely: a concurrency limit, a per-request timeout, retries with exponential
 * backoff + jitter on 429 (honouring Retry-After) and 5xx, token usage counted, and structured output
 * (json_schema) requested until the server says once that it does not support it. Chat completions and
 * embeddings both go through `post`, so both are bounded the same way.
 */
import { authHeaders, endpointUrl, type ChatEndpoint } from './endpoint';

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

/** Requests made and tokens used by one piece of work (e.g. one batch of questions), retries included. */
export interface Meter {
  requests: number;
  tokens: number;
}

export interface ClientOptions {
  /** First backoff delay; doubled per attempt, with jitter. */
  baseDelayMs?: number;
  /** Tries per request (1 = no retry), e.g. 1 for `qfill doctor`, which reports rather than waits. */
  maxAttempts?: number;
}

export class ChatClient {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  /** null = not known yet; learnt from the first 400 about response_format. */
  structuredOutput: boolean | null = null;
  requests = 0;
  tokens = 0;

  private readonly baseDelayMs: number;
  private readonly maxAttempts: number;

  constructor(
    readonly endpoint: ChatEndpoint,
    options: ClientOptions | number = {},
  ) {
    const o = typeof options === 'number' ? { baseDelayMs: options } : options;
    this.baseDelayMs = o.baseDelayMs ?? 500;
    this.maxAttempts = o.maxAttempts ?? 4;
  }

  async complete(messages: ChatMessage[], schema?: { name: string; schema: object }, meter?: Meter): Promise<ChatReply> {
    await this.acquire();
    try {
      if (schema && this.structuredOutput !== false) {
        try {
          const reply = await this.send(messages, schema, meter);
          this.structuredOutput = true;
          return reply;
        } catch (error) {
          if (!(error instanceof LlmHttpError) || error.status !== 400 || !/response_format|json_schema|schema/i.test(error.body)) throw error;
          this.structuredOutput = false;
        }
      }
      return await this.send(messages, undefined, meter);
    } finally {
      this.release();
    }
  }

  private async send(messages: ChatMessage[], schema?: { name: string; schema: object }, meter?: Meter): Promise<ChatReply> {
    const body: Record<string, unknown> = { model: this.endpoint.model, temperature: 0, messages };
    if (schema) body.response_format = { type: 'json_schema', json_schema: { name: schema.name, strict: true, schema: schema.schema } };
    const json = (await this.post('chat/completions', body, meter)) as { model?: string; choices?: { message?: { content?: string } }[] };
    const content = json.choices?.[0]?.message?.content;
    if (typeof content !== 'string' || !content.trim()) throw new Error('the language model returned an empty reply');
    return { content, model: json.model || this.endpoint.model, tokens: usageTokens(json) };
  }

  /** Embedding vectors for `input`, in input order, under the same limits as chat. */
  async embed(input: string[]): Promise<number[][]> {
    await this.acquire();
    try {
      const json = (await this.post('embeddings', { model: this.endpoint.model, input, encoding_format: 'float' })) as {
        data?: { index?: number; embedding?: unknown }[];
      };
      const data = Array.isArray(json.data) ? [...json.data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0)) : [];
      if (data.length !== input.length) throw new Error(`embeddings endpoint returned ${data.length} vectors for ${input.length} inputs`);
      return data.map((d) => {
        if (!Array.isArray(d.embedding) || !d.embedding.every((x) => typeof x === 'number'))
          throw new Error('embeddings endpoint returned a vector that is not a list of numbers');
        return d.embedding as number[];
      });
    } finally {
      this.release();
    }
  }

  /** One JSON POST to `path` under the endpoint, retried on 429/5xx/no answer; counts requests and tokens. */
  private async post(path: string, body: object, meter?: Meter): Promise<unknown> {
    for (let attempt = 1; ; attempt++) {
      let response: Response;
      this.requests++;
      if (meter) meter.requests++;
      try {
        response = await fetch(endpointUrl(this.endpoint, path), {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...authHeaders(this.endpoint) },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(this.endpoint.timeoutMs),
        });
      } catch (error) {
        if (attempt >= this.maxAttempts) throw new Error(`the language model endpoint did not answer: ${describeFetchError(error)}`);
        await sleep(this.backoff(attempt));
        continue;
      }
      const text = await response.text();
      if (response.ok) {
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          throw new Error(`the language model endpoint answered HTTP ${response.status} with something that is not JSON: ${text.slice(0, 120)}`);
        }
        this.tokens += usageTokens(json);
        if (meter) meter.tokens += usageTokens(json);
        return json;
      }
      const retryable = response.status === 429 || response.status >= 500;
      if (!retryable || attempt >= this.maxAttempts) throw new LlmHttpError(response.status, text);
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

function usageTokens(json: unknown): number {
  const usage = (json as { usage?: { total_tokens?: unknown } } | null)?.usage;
  return typeof usage?.total_tokens === 'number' && Number.isFinite(usage.total_tokens) ? usage.total_tokens : 0;
}

/** fetch's "fetch failed" hides the reason (refused, DNS, TLS) in `cause`. */
function describeFetchError(error: unknown): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError') return 'timed out (QFILL_LLM_TIMEOUT_SECONDS)';
  const cause = e.cause?.code ?? e.cause?.message;
  return cause ? `${e.message ?? 'fetch failed'} (${cause})` : (e.message ?? String(error));
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
