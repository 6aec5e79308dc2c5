/**
 * Where the chat endpoint lives and how to authenticate, for OpenAI, Azure OpenAI (deployment URL +
 * `api-version`, key in `api-key`) and OpenAI-compatible local servers (Ollama `/v1`, vLLM, llama.cpp).
 */
import { readConfig, type Env } from '../config/read';

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

/**
 * The endpoint's limits from the configuration: `QFILL_LLM_*`, or for embeddings `QFILL_EMBEDDINGS_*` falling
 * back to the `QFILL_LLM_*` value (one Azure resource usually serves both). A bad value throws `ConfigError`.
 */
export function chatEndpointFrom(
  base: { baseUrl: string; model: string; apiKey?: string },
  env: Env = process.env,
  prefix: 'QFILL_LLM' | 'QFILL_EMBEDDINGS' = 'QFILL_LLM',
): ChatEndpoint {
  if (prefix === 'QFILL_LLM') {
    const c = readConfig(env, ['QFILL_LLM_API_VERSION', 'QFILL_LLM_CONCURRENCY', 'QFILL_LLM_TIMEOUT_SECONDS', 'QFILL_LLM_TOKEN_BUDGET']);
    return {
      ...base,
      apiVersion: c.QFILL_LLM_API_VERSION,
      concurrency: c.QFILL_LLM_CONCURRENCY,
      timeoutMs: c.QFILL_LLM_TIMEOUT_SECONDS * 1000,
      tokenBudget: c.QFILL_LLM_TOKEN_BUDGET,
    };
  }
  const c = readConfig(env, [
    'QFILL_EMBEDDINGS_API_VERSION',
    'QFILL_EMBEDDINGS_CONCURRENCY',
    'QFILL_EMBEDDINGS_TIMEOUT_SECONDS',
    'QFILL_LLM_API_VERSION',
    'QFILL_LLM_CONCURRENCY',
    'QFILL_LLM_TIMEOUT_SECONDS',
    'QFILL_LLM_TOKEN_BUDGET',
  ]);
  return {
    ...base,
    apiVersion: c.QFILL_EMBEDDINGS_API_VERSION,
    concurrency: c.QFILL_EMBEDDINGS_CONCURRENCY,
    timeoutMs: c.QFILL_EMBEDDINGS_TIMEOUT_SECONDS * 1000,
    tokenBudget: c.QFILL_LLM_TOKEN_BUDGET,
  };
}
