/**
 * Dense retrieval through an OpenAI-compatible embeddings endpoint. Vectors are stored as Float32 BLOBs
 * and compared by cosine in memory (a per-org matrix cached until that org's content changes).
 */
import OpenAI from 'openai';
import type { KnowledgeStore } from './store';

export interface EndpointConfig {
  baseUrl: string;
  model: string;
  apiKey?: string;
}

const BATCH = 64;

export class Embedder {
  private readonly client: OpenAI;
  private readonly cache = new Map<string, { ids: number[]; vectors: Float32Array[] }>();

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

  invalidate(orgId: number): void {
    this.cache.delete(`p:${orgId}`);
    this.cache.delete(`q:${orgId}`);
  }

  /** Ids of the org's passages (or Q&A entries) nearest to `query`, best first. */
  nearest(store: KnowledgeStore, orgId: number, kind: 'p' | 'q', query: Float32Array, k: number): number[] {
    const key = `${kind}:${orgId}`;
    let matrix = this.cache.get(key);
    if (!matrix) {
      const rows = (kind === 'p' ? store.passageEmbeddings : store.qaEmbeddings).all({ org: orgId });
      matrix = { ids: rows.map((r) => r.id), vectors: rows.map((r) => fromBlob(r.embedding)) };
      this.cache.set(key, matrix);
    }
    const scored: [number, number][] = [];
    for (let i = 0; i < matrix.ids.length; i++) {
      const vector = matrix.vectors[i]!;
      if (vector.length !== query.length) continue;
      let dot = 0;
      for (let j = 0; j < vector.length; j++) dot += vector[j]! * query[j]!;
      scored.push([matrix.ids[i]!, dot]);
    }
    scored.sort((a, b) => b[1] - a[1]);
    return scored.slice(0, k).map(([id]) => id);
  }
}

function normalise(v: Float32Array): Float32Array {
  let sum = 0;
  for (const x of v) sum += x * x;
  const norm = Math.sqrt(sum) || 1;
  for (let i = 0; i < v.length; i++) v[i]! /= norm;
  return v;
}

export function toBlob(v: Float32Array): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

function fromBlob(blob: Buffer): Float32Array {
  const copy = new Uint8Array(blob.byteLength);
  copy.set(blob);
  return new Float32Array(copy.buffer);
}
