import OpenAI from 'openai';
import { ParleyError } from '../../graph/core/errors.js';
import type { EmbeddingSpace } from '../../graph/vector-store.js';
import { l2normalise, type TextEmbedder } from './text-embedder.js';

/** Options for `OpenAiEmbedder`. */
export interface OpenAiEmbedderOptions {
  /** OpenAI-compatible base URL, e.g. `https://api.openai.com/v1`. */
  baseURL: string;
  apiKey: string;
  model: string;
  /** Vector length the model returns (checked on every reply). */
  dimension: number;
  /** Most texts per request; default 128. */
  maxBatch?: number;
  /** Retries of a failed request, with exponential backoff in the client; default 3. */
  maxRetries?: number;
  /** Per-request timeout in milliseconds; default 30000. */
  timeoutMs?: number;
}

/** Embeddings from any OpenAI-compatible `/embeddings` endpoint. */
export class OpenAiEmbedder implements TextEmbedder {
  readonly space: EmbeddingSpace;
  readonly #client: OpenAI;
  readonly #model: string;
  readonly #maxBatch: number;
  /** Prompt tokens consumed so far (for metrics). */
  promptTokens = 0;

  constructor(options: OpenAiEmbedderOptions) {
    this.space = { model: options.model, dimension: options.dimension };
    this.#model = options.model;
    this.#maxBatch = options.maxBatch ?? 128;
    this.#client = new OpenAI({
      baseURL: options.baseURL,
      apiKey: options.apiKey,
      maxRetries: options.maxRetries ?? 3,
      timeout: options.timeoutMs ?? 30_000,
    });
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += this.#maxBatch) {
      const batch = texts.slice(i, i + this.#maxBatch);
      let res: OpenAI.Embeddings.CreateEmbeddingResponse;
      try {
        res = await this.#client.embeddings.create({ model: this.#model, input: batch, encoding_format: 'float' });
      } catch (err) {
        throw new ParleyError('PARLEY_ERR_UPSTREAM', 'embeddings request failed', { cause: err });
      }
      this.promptTokens += res.usage?.prompt_tokens ?? 0;
      const sorted = [...res.data].sort((a, b) => a.index - b.index);
      if (sorted.length !== batch.length) throw new ParleyError('PARLEY_ERR_UPSTREAM', 'embeddings reply has the wrong count');
      for (const d of sorted) {
        if (d.embedding.length !== this.space.dimension) {
          throw new ParleyError('PARLEY_ERR_EMBEDDING_MISMATCH', `expected ${this.space.dimension}-d vectors, got ${d.embedding.length}`);
        }
        out.push(l2normalise(Float32Array.from(d.embedding)));
      }
    }
    return out;
  }

  async close(): Promise<void> {}
}
