/**
 * Where the chat endpoint lives and how to authenticate, for OpenAI, Azure OpenAI (deployment URL +
 * `api-version`, key in `api-key`) and OpenAI-compatible local servers (Ollama `/v1`, vLLM, llama.cpp).
 */
export interface ChatEndpoint {
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Azure OpenAI's `api-version` query parameter (QFILL_LLM_API_VERSION). */
  apiVersion?: string;
  concurrency: number;
  timeoutMs: number;
  /** Tokens one questionnaire may spend (QFILL_LLM_TOKEN_BUDGET); 0 = unlimited. */
  tokenBudget: number;
}

export function isAzure(endpoint: Pick<ChatEndpoint, 'baseUrl'>): boolean {
  return /\.openai\.azure\.com\//i.test(endpoint.baseUrl) || /\/openai\/deployments\//i.test(endpoint.baseUrl);
}

export function chatUrl(endpoint: ChatEndpoint): string {
  const url = new URL(`${endpoint.baseUrl.replace(/\/+$/, '')}/chat/completions`);
  if (endpoint.apiVersion) url.searchParams.set('api-version', endpoint.apiVersion);
  return url.toString();
}

export function authHeaders(endpoint: ChatEndpoint): Record<string, string> {
  if (!endpoint.apiKey) return {};
  return isAzure(endpoint) ? { 'api-key': endpoint.apiKey } : { authorization: `Bearer ${endpoint.apiKey}` };
}

function positive(raw: string | undefined, fallback: number): number {
  const n = Number(raw);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

export function chatEndpointFrom(base: { baseUrl: string; model: string; apiKey?: string }, env: NodeJS.ProcessEnv = process.env): ChatEndpoint {
  return {
    ...base,
    apiVersion: env.QFILL_LLM_API_VERSION || undefined,
    concurrency: Math.floor(positive(env.QFILL_LLM_CONCURRENCY, 4)),
    timeoutMs: positive(env.QFILL_LLM_TIMEOUT_SECONDS, 60) * 1000,
    tokenBudget: Math.floor(positive(env.QFILL_LLM_TOKEN_BUDGET, 0)),
  };
}
