/**
 * Embeddings from an OpenAI-compatible endpoint, unit-normalised (so cosine is a dot product). The
 * knowledge index stores them and finds the nearest. The requests go through the same client as chat
 * (src/service/llm/client.ts): concurrency limit, timeout, retries on 429/5xx, Azure paths and headers.
 */
import { ChatClient } from '../llm/client';
import { chatEndpointFrom } from '../llm/endpoint';

export interface EndpointConfig {
  baseUrl: string;
  model: string;
  apiKey?: string;
}

const BATCH = 64;

export class Embedder {
  readonly client: ChatClient;

  constructor(config: EndpointConfig, env: NodeJS.ProcessEnv = process.env, baseDelayMs?: number) {
    this.client = new ChatClient(chatEndpointFrom(config, env, 'QFILL_EMBEDDINGS'), baseDelayMs);
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += BATCH) {
      const batch = texts.slice(i, i + BATCH).map((t) => t.slice(0, 8000));
      for (const vector of await this.client.embed(batch)) out.push(normalise(Float32Array.from(vector)));
    }
    return out;
  }
}

function normalise(v: Float32Array): Float32Array {
  let sum = 0;
  for (const x of v) sum += x * x;
  const norm = Math.sqrt(sum) || 1;
  for (let i = 0; i < v.length; i++) v[i]! /= norm;
  return v;
}
