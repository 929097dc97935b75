import type { Logger } from 'pino';
import type { LexicalIndex } from '../../graph/lexical-index.js';
import type { TenantId, Utterance } from '../../graph/types.js';
import type { VectorStore } from '../../graph/vector-store.js';
import type { TextEmbedder } from '../embeddings/text-embedder.js';
import { doubtfulSpeech } from '../memory/doubtful-speech.js';
import { MemoryIndexer } from '../memory/memory-indexer.js';

/** What {@link TurnVectors} needs. */
export interface TurnVectorsDeps {
  vectors: VectorStore;
  lexical: LexicalIndex;
  /** The text embedder consolidation and retrieval use (one embedding space). */
  embedder: TextEmbedder;
  /** Lowest ASR confidence of a turn that feeds memory (`PARLEY_MEMORY_MIN_ASR_CONFIDENCE`): doubtful turns get no vector. */
  minAsrConfidence: number;
  logger: Pick<Logger, 'warn'>;
}

/** A turn's vector, or null where it gets none at store time (doubtful speech, or the embedder failed). */
export type TurnVector = Float32Array | null;

/**
 * Vector entries of turns written as they are stored, so that a question asked before their consolidation jobs ran
 * (a busy machine, the last minute of a conversation) finds them by meaning as well as by keyword. The texts are
 * embedded before the commit (`embed`), the points written inside it (`write`); the job later writes the same points
 * again, reusing these vectors (`MemoryIndexer.vectorsFor`), and erasure removes them by utterance id as it removes
 * the job's. A failure here never fails the store: the job indexes the turn as before.
 */
export class TurnVectors {
  readonly #indexer: MemoryIndexer;

  constructor(private readonly deps: TurnVectorsDeps) {
    this.#indexer = new MemoryIndexer(deps.vectors, deps.lexical, deps.embedder);
  }

  /** One vector per turn about to be stored, in order; all null when embedding failed. */
  async embed(turns: Array<{ text: string; confidence?: number | null }>): Promise<TurnVector[]> {
    const kept = turns.filter((t) => !doubtfulSpeech({ confidence: t.confidence ?? null }, this.deps.minAsrConfidence));
    if (kept.length === 0) return turns.map(() => null);
    try {
      await this.#indexer.ensureCollections();
      const vectors = await this.deps.embedder.embed(kept.map((t) => t.text));
      let next = 0;
      return turns.map((t) => (kept.includes(t) ? vectors[next++] ?? null : null));
    } catch (err) {
      this.deps.logger.warn({ err: (err as Error).message }, 'turn vectors not written at store time; the consolidation job writes them');
      return turns.map(() => null);
    }
  }

  /** Write the vectors of `stored` (in the order `embed` was given their inputs). */
  async write(tenant: TenantId, stored: Utterance[], vectors: TurnVector[]): Promise<void> {
    const items = stored.flatMap((utterance, i) => {
      const vector = vectors[i];
      return vector ? [{ utterance, vector }] : [];
    });
    try {
      await this.#indexer.indexUtteranceVectors(tenant, items);
    } catch (err) {
      this.deps.logger.warn({ tenant, err: (err as Error).message }, 'turn vectors not written at store time; the consolidation job writes them');
    }
  }
}
