/** Endpoint configuration from the environment (both optional: without them answers are extractive). */
import type { KnowledgeOptions } from './knowledge-base';

export function knowledgeOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): KnowledgeOptions {
  const endpoint = (prefix: string) => {
    const baseUrl = env[`${prefix}_BASE_URL`]?.trim();
    const model = env[`${prefix}_MODEL`]?.trim();
    if (!baseUrl || !model) return null;
    const apiKey = env[`${prefix}_API_KEY`]?.trim();
    return apiKey ? { baseUrl, model, apiKey } : { baseUrl, model };
  };
  return { llm: endpoint('QFILL_LLM'), embeddings: endpoint('QFILL_EMBEDDINGS') };
}
