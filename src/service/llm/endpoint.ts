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

/** `path` (e.g. "chat/completions", "embeddings") under the base URL, with Azure's api-version. */
export function endpointUrl(endpoint: Pick<ChatEndpoint, 'baseUrl' | 'apiVersion'>, path: string): string {
  const url = new URL(`${endpoint.baseUrl.replace(/\/+$/, '')}/${path}`);
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

/**
 * The endpoint's limits from the environment: `QFILL_LLM_*`, or for embeddings `QFILL_EMBEDDINGS_*` falling
 * back to the `QFILL_LLM_*` value (one Azure resource usually serves both).
 */
export function chatEndpointFrom(
  base: { baseUrl: string; model: string; apiKey?: string },
  env: NodeJS.ProcessEnv = process.env,
  prefix: 'QFILL_LLM' | 'QFILL_EMBEDDINGS' = 'QFILL_LLM',
): ChatEndpoint {
  const read = (name: string) => env[`${prefix}_${name}`]?.trim() || env[`QFILL_LLM_${name}`]?.trim() || undefined;
  return {
    ...base,
    apiVersion: read('API_VERSION'),
    concurrency: Math.floor(positive(read('CONCURRENCY'), 4)),
    timeoutMs: positive(read('TIMEOUT_SECONDS'), 60) * 1000,
    tokenBudget: Math.floor(positive(read('TOKEN_BUDGET'), 0)),
  };
}
