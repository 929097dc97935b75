import type { Fact } from '../../graph/memory-store.js';
import type { Utterance, TenantId } from '../../graph/types.js';
import type { LexicalIndex } from '../../graph/lexical-index.js';
import type { VectorStore } from '../../graph/vector-store.js';
import type { TextEmbedder } from '../embeddings/text-embedder.js';
import { collectionFor, MEMORY_LAYERS } from './collections.js';

/**
 * Writes utterances and facts into the vector store (one collection per layer, bound to the
 * embedder's space) and the lexical index, and removes closed facts from both.
 */
export class MemoryIndexer {
  #bound: Promise<void> | null = null;

  constructor(
    private readonly vectors: VectorStore,
    private readonly lexical: LexicalIndex,
    private readonly embedder: TextEmbedder,
  ) {}

  /** Bind every memory collection to the embedder's space (throws on mismatch: re-embed first). */
  ensureCollections(): Promise<void> {
    this.#bound ??= Promise.all(MEMORY_LAYERS.map((l) => this.vectors.ensureCollection(collectionFor(l), this.embedder.space)))
      .then(() => undefined)
      .catch((err: unknown) => {
        this.#bound = null;
        throw err;
      });
    return this.#bound;
  }

  async indexUtterance(tenant: TenantId, u: Utterance, vector: Float32Array): Promise<void> {
    await this.ensureCollections();
    const meta = { sessionId: u.sessionId, speakerId: u.speakerId, addresseeIds: u.addresseeIds };
    await Promise.all([
      this.vectors.upsert(tenant, collectionFor('interaction'), [
        { id: u.id, vector, payload: { layer: 'interaction', ...meta, time: u.time } },
      ]),
      this.lexical.index(tenant, [{ id: u.id, text: u.text, layer: 'interaction', ...meta }]),
    ]);
  }

  async indexFacts(tenant: TenantId, facts: Array<{ fact: Fact; vector: Float32Array }>): Promise<void> {
    if (facts.length === 0) return;
    await this.ensureCollections();
    const writes: Array<Promise<void>> = [];
    for (const layer of ['fact', 'profile'] as const) {
      const mine = facts.filter((f) => f.fact.layer === layer);
      if (mine.length === 0) continue;
      writes.push(this.vectors.upsert(tenant, collectionFor(layer), mine.map(({ fact, vector }) => ({
        id: fact.id, vector,
        payload: { layer, sessionId: fact.sessionId, speakerId: fact.speakerId, addresseeIds: fact.addresseeIds,
          time: fact.time, subjectId: fact.subjectId, kind: fact.kind },
      }))));
    }
    writes.push(this.lexical.index(tenant, facts.map(({ fact }) => ({
      id: fact.id, text: fact.content, layer: fact.layer, sessionId: fact.sessionId,
      speakerId: fact.speakerId, addresseeIds: fact.addresseeIds,
    }))));
    await Promise.all(writes);
  }

  /** Remove facts (closed or erased) from search; history stays in the memory store. */
  async removeFacts(tenant: TenantId, facts: Fact[]): Promise<void> {
    if (facts.length === 0) return;
    await Promise.all([
      this.vectors.delete(tenant, collectionFor('fact'), facts.filter((f) => f.layer === 'fact').map((f) => f.id)),
      this.vectors.delete(tenant, collectionFor('profile'), facts.filter((f) => f.layer === 'profile').map((f) => f.id)),
      this.lexical.delete(tenant, facts.map((f) => f.id)),
    ]);
  }
}
