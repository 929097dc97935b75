import type { EmbeddingSpace } from '../../graph/vector-store.js';
import { E5_SMALL_V2_Q_MODEL } from '../models/manifest.js';
import type { OnnxTextModelSpec } from '../embeddings/onnx-text-embedder.js';
import type { TextEmbedder } from '../embeddings/text-embedder.js';

/** intfloat e5-small-v2, int8 (MIT): 384-d, mean pooling, asymmetric ("query: " / "passage: " prefixes). */
export const E5_SMALL_V2_Q: OnnxTextModelSpec = { name: E5_SMALL_V2_Q_MODEL, dimension: 384, pooling: 'mean' };

/**
 * An optional second dense channel over turns: another encoder's vectors of the turns, in their own collection
 * (payloads as the interaction collection's, so speaker / addressee / session filters hold). The agentic loop
 * searches it wherever it searches the first encoder's turn vectors, at `secondDenseWeight`.
 */
export interface SecondDenseChannel {
  /** The collection holding its turn vectors. */
  readonly collection: string;
  /** Its embedding space (the collection is bound to it). */
  readonly space: EmbeddingSpace;
  /** The vector of a question, as the model wants queries written; cached by text. */
  embedQuery(text: string): Promise<Float32Array>;
  /** The vectors of turns, as the model wants passages written. */
  embedPassages(texts: string[]): Promise<Float32Array[]>;
  /** Erasure: forget every cached question vector (keyed by text alone, so any tenant's question may name the person). */
  forget(): void;
}

/** The collection of the second dense channel's turn vectors for model `model`. */
export function secondDenseCollection(model: string): string {
  return `memory_interaction_dense2_${model.replace(/[^A-Za-z0-9]+/g, '_')}`;
}

/**
 * The second dense channel of an e5-family encoder (`embedder` loads it): queries are embedded as
 * `query: <text>`, turns as `passage: <text>`, as the model was trained.
 */
export function e5Channel(embedder: TextEmbedder): SecondDenseChannel {
  const cache = new Map<string, Promise<Float32Array>>();
  return {
    collection: secondDenseCollection(embedder.space.model),
    space: embedder.space,
    embedQuery(text: string): Promise<Float32Array> {
      const key = text.trim().toLowerCase();
      let v = cache.get(key);
      if (!v) {
        v = embedder.embed([`query: ${text}`]).then((r) => r[0] as Float32Array);
        v.catch(() => cache.delete(key));
        cache.set(key, v);
        if (cache.size > 512) cache.delete(cache.keys().next().value as string);
      }
      return v;
    },
    embedPassages: (texts: string[]) => embedder.embed(texts.map((t) => `passage: ${t}`)),
    forget: () => cache.clear(),
  };
}
