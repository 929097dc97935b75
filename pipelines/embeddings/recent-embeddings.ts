import type { EmbeddingSpace } from '../../graph/vector-store.js';
import type { TextEmbedder } from './text-embedder.js';

export interface RecentEmbeddingsOptions {
  /** Texts remembered, least recently used dropped first; default 64. */
  maxTexts?: number;
}

/**
 * A `TextEmbedder` that remembers the vectors of the last few texts it embedded, so the steps of
 * one job that embed the same text (consolidation and affect both embed the turn) run the model
 * once (a re-index that reuses a stored vector hands it over with `remember`). Small on purpose: it
 * spans the jobs running now, not a history. Vectors are shared with every caller that asks for
 * the same text: callers must not modify them.
 */
export class RecentEmbeddings implements TextEmbedder {
  readonly #inner: TextEmbedder;
  readonly #max: number;
  readonly #vectors = new Map<string, Float32Array>();

  constructor(inner: TextEmbedder, options: RecentEmbeddingsOptions = {}) {
    this.#inner = inner;
    this.#max = Math.max(1, options.maxTexts ?? 64);
  }

  get space(): EmbeddingSpace {
    return this.#inner.space;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const found = new Map<string, Float32Array>();
    for (const t of texts) {
      const v = this.#vectors.get(t);
      if (v) found.set(t, v);
    }
    const missing = [...new Set(texts.filter((t) => !found.has(t)))];
    if (missing.length > 0) {
      const vectors = await this.#inner.embed(missing);
      missing.forEach((t, i) => found.set(t, vectors[i] as Float32Array));
    }
    for (const [t, v] of found) this.remember(t, v);
    return texts.map((t) => found.get(t) as Float32Array);
  }

  /** Forget every vector; the inner embedder is the caller's to close. */
  async close(): Promise<void> {
    this.forget();
  }

  /** Forget every text and vector (erasure: the texts are people's words, kept by text alone, of any tenant). */
  forget(): void {
    this.#vectors.clear();
  }

  /** How many texts are kept now. */
  get size(): number {
    return this.#vectors.size;
  }

  remember(text: string, vector: Float32Array): void {
    this.#vectors.delete(text);
    this.#vectors.set(text, vector);
    if (this.#vectors.size > this.#max) {
      const oldest = this.#vectors.keys().next();
      if (!oldest.done) this.#vectors.delete(oldest.value);
    }
  }
}
