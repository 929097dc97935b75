import type { EmbeddingSpace } from '../../graph/vector-store.js';

/**
 * Turns texts into dense vectors of one embedding space. Implementations: USE-lite in a worker
 * thread (embedded default), any OpenAI-compatible `/embeddings` endpoint.
 */
export interface TextEmbedder {
  /** The model and dimension every vector from this embedder has. */
  readonly space: EmbeddingSpace;
  /** One vector per text, in order. Vectors are L2-normalised. */
  embed(texts: string[]): Promise<Float32Array[]>;
  /**
   * A vector of `text` in this space got without embedding it (a stored one, reused by a re-index): an embedder that
   * keeps recent vectors (`RecentEmbeddings`) keeps it too, so a later step of the same job (affect) finds it.
   */
  remember?(text: string, vector: Float32Array): void;
  close(): Promise<void>;
}

/** Scale `v` to unit length in place (zero vectors stay zero); returns `v`. */
export function l2normalise(v: Float32Array): Float32Array {
  let sum = 0;
  for (const x of v) sum += x * x;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i] = (v[i] ?? 0) / norm;
  return v;
}

/** Cosine similarity of two vectors of equal length. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
