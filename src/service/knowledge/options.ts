/** Endpoint configuration from the environment (both optional: without them answers are extractive). */
import { readConfig, type Env } from '../config/read';
import type { KnowledgeOptions } from './knowledge-base';

export function knowledgeOptionsFromEnv(env: Env = process.env): KnowledgeOptions {
  const c = readConfig(env, [
    'QFILL_LLM_BASE_URL',
    'QFILL_LLM_MODEL',
    'QFILL_LLM_API_KEY',
    'QFILL_EMBEDDINGS_BASE_URL',
    'QFILL_EMBEDDINGS_MODEL',
    'QFILL_EMBEDDINGS_API_KEY',
  ]);
  const endpoint = (baseUrl: string | undefined, model: string | undefined, apiKey: string | undefined) => {
    if (!baseUrl || !model) return null;
    return apiKey ? { baseUrl, model, apiKey } : { baseUrl, model };
  };
  return {
    llm: endpoint(c.QFILL_LLM_BASE_URL, c.QFILL_LLM_MODEL, c.QFILL_LLM_API_KEY),
    embeddings: endpoint(c.QFILL_EMBEDDINGS_BASE_URL, c.QFILL_EMBEDDINGS_MODEL, c.QFILL_EMBEDDINGS_API_KEY),
  };
}
