/** Clustered unit vectors for the nearest-neighbour tests: the shape real embeddings have (topics). */
export function clusteredVectors(count: number, dim: number, clusters: number, seed = 7): Float32Array[] {
  let s = seed >>> 0;
  const random = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  const gaussian = () => Math.sqrt(-2 * Math.log(random() + 1e-12)) * Math.cos(2 * Math.PI * random());
  const unit = (v: Float32Array) => {
    let norm = 0;
    for (const x of v) norm += x * x;
    const scale = 1 / Math.sqrt(norm);
    return v.map((x) => x * scale);
  };
  const centres = Array.from({ length: clusters }, () => unit(Float32Array.from({ length: dim }, gaussian)));
  return Array.from({ length: count }, () => {
    const centre = centres[Math.floor(random() * clusters)]!;
    return unit(centre.map((x) => x + ((0.35 * gaussian()) / Math.sqrt(dim)) * 4));
  });
}

/** The ids of the `k` vectors with the largest dot product with `query` (the exact answer). */
export function exactNearest(vectors: Map<number, Float32Array>, query: Float32Array, k: number): number[] {
  const scored = [...vectors].map(([id, v]) => {
    let dot = 0;
    for (let j = 0; j < v.length; j++) dot += v[j]! * query[j]!;
    return { id, dot };
  });
  return scored
    .sort((a, b) => b.dot - a.dot)
    .slice(0, k)
    .map((x) => x.id);
}
