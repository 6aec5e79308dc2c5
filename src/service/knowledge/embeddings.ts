/**
 * Embeddings from an OpenAI-compatible endpoint, unit-normalised (so cosine is a dot product). The
 * knowledge index stores them and finds the nearest.
 */
import OpenAI from 'openai';

export interface EndpointConfig {
  baseUrl: string;
  model: string;
  apiKey?: string;
}

const BATCH = 64;

export class Embedder {
  private readonly client: OpenAI;

  constructor(private readonly config: EndpointConfig) {
    this.client = new OpenAI({ baseURL: config.baseUrl, apiKey: config.apiKey || 'not-needed', maxRetries: 1, timeout: 60_000 });
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += BATCH) {
      const batch = texts.slice(i, i + BATCH).map((t) => t.slice(0, 8000));
      const response = await this.client.embeddings.create({ model: this.config.model, input: batch, encoding_format: 'float' });
      const ordered = [...response.data].sort((a, b) => a.index - b.index);
      if (ordered.length !== batch.length) throw new Error(`embeddings endpoint returned ${ordered.length} vectors for ${batch.length} inputs`);
      for (const item of ordered) out.push(normalise(Float32Array.from(item.embedding as number[])));
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
