import { createHash } from 'node:crypto';
import type { Fact } from '../../graph/memory-store.js';
import type { Utterance, TenantId } from '../../graph/types.js';
import type { LexicalDoc, LexicalIndex } from '../../graph/lexical-index.js';
import type { VectorStore } from '../../graph/vector-store.js';
import type { TextEmbedder } from '../embeddings/text-embedder.js';
import { collectionFor, MEMORY_LAYERS, type IndexedLayer } from './collections.js';
import { doubtfulSpeech, type MinAsrConfidence } from './doubtful-speech.js';

/** A text to index again: its point's id, its layer, and the text as it reads now. */
export interface IndexedText {
  id: string;
  layer: IndexedLayer;
  text: string;
}

/** The digest of an indexed text, kept in its point's payload (`textHash`): equal digests, same text. */
export function textHash(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

/**
 * The keyword entries of those of `us` that search may find: none for doubtful speech (`doubtfulSpeech` under `min`).
 * What ingest indexes at once and `MemoryIndexer.indexUtterance` writes, so every keyword entry of a turn is gated alike.
 */
export function utteranceKeywordEntries(us: readonly Utterance[], min: MinAsrConfidence): LexicalDoc[] {
  return us.filter((u) => !doubtfulSpeech(u, min)).map((u) => ({
    id: u.id, text: u.text, layer: 'interaction', sessionId: u.sessionId, speakerId: u.speakerId, addresseeIds: u.addresseeIds,
  }));
}

/**
 * Writes utterances and facts into the vector store (one collection per layer, bound to the
 * embedder's space) and the lexical index, and removes closed facts from both. Each point's payload
 * keeps the digest of the text its vector embeds (`textHash`), so a re-index reuses the vector of a
 * text that did not change (`vectorsFor`). Every utterance indexed goes through `indexUtterance`, which leaves doubtful
 * speech (`doubtfulSpeech` under `PARLEY_MEMORY_MIN_ASR_CONFIDENCE`, given as `minAsrConfidence`) out of search.
 */
export class MemoryIndexer {
  #bound: Promise<void> | null = null;

  constructor(
    private readonly vectors: VectorStore,
    private readonly lexical: LexicalIndex,
    private readonly embedder: TextEmbedder,
    /** `memory.minAsrConfidence` (`PARLEY_MEMORY_MIN_ASR_CONFIDENCE`): the doubtful-speech gate of `indexUtterance`. */
    private readonly minAsrConfidence: MinAsrConfidence,
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

  /**
   * The vectors of `items`, in order: the stored one where its point's payload says it embeds the text as it reads
   * now (its layer's collection is bound to this embedder's space, so the vector is the one the embedder would give),
   * else embedded, all those in one embedder call. Points written before payloads kept `textHash` are embedded.
   */
  async vectorsFor(tenant: TenantId, items: IndexedText[]): Promise<Float32Array[]> {
    await this.ensureCollections();
    const stored = new Map<string, Float32Array>();
    for (const layer of new Set(items.map((i) => i.layer))) {
      const mine = items.filter((i) => i.layer === layer);
      const wanted = new Map(mine.map((i) => [i.id, textHash(i.text)]));
      for (const p of await this.vectors.get(tenant, collectionFor(layer), [...wanted.keys()])) {
        if (p.payload.textHash === wanted.get(p.id)) stored.set(`${layer}\u0000${p.id}`, p.vector);
      }
    }
    const vectors = items.map((i) => stored.get(`${i.layer}\u0000${i.id}`));
    const missing = items.filter((_, n) => vectors[n] === undefined);
    const embedded = missing.length > 0 ? await this.embedder.embed(missing.map((i) => i.text)) : [];
    items.forEach((item, n) => { if (vectors[n]) this.embedder.remember?.(item.text, vectors[n]); });
    let next = 0;
    return vectors.map((v) => v ?? (embedded[next++] as Float32Array));
  }

  /**
   * Write `u`'s vector and keyword entry, unless it is doubtful speech (`doubtfulSpeech` under `minAsrConfidence`): then
   * any entry it has (indexed under another setting, or before the gate) is removed and nothing is written. Whether it
   * was written.
   */
  async indexUtterance(tenant: TenantId, u: Utterance, vector: Float32Array): Promise<boolean> {
    await this.ensureCollections();
    const entries = utteranceKeywordEntries([u], this.minAsrConfidence);
    if (entries.length === 0) {
      await Promise.all([this.vectors.delete(tenant, collectionFor('interaction'), [u.id]), this.lexical.delete(tenant, [u.id])]);
      return false;
    }
    await Promise.all([
      this.vectors.upsert(tenant, collectionFor('interaction'), [{ id: u.id, vector, payload: {
        layer: 'interaction', sessionId: u.sessionId, speakerId: u.speakerId, addresseeIds: u.addresseeIds, time: u.time, textHash: textHash(u.text),
      } }]),
      this.lexical.index(tenant, entries),
    ]);
    return true;
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
          time: fact.time, subjectId: fact.subjectId, kind: fact.kind, textHash: textHash(fact.content) },
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
