import { ERRORS, ParleyError, type ErrorCode } from '../core/errors.js';
import type { LexicalDoc, LexicalFilter, LexicalHit, LexicalIndex } from '../lexical-index.js';
import type { TenantId } from '../types.js';
import type { EmbeddingSpace, VectorFilter, VectorHit, VectorPayload, VectorPoint, VectorStore } from '../vector-store.js';
import type { OutboxForwarder, OutboxHandler } from './outbox-forwarder.js';
import type { Outbox } from './outbox.js';

export const VECTORS_TARGET = 'vectors';
export const LEXICAL_TARGET = 'lexical';

interface StoredPoint { id: string; vector: number[]; payload: VectorPayload }

/** The forwarder's handler that replays recorded vector writes. */
export function vectorOutboxHandler(store: VectorStore): OutboxHandler {
  return async (operation, payload) => {
    const p = payload as { tenant: string; collection: string; points?: StoredPoint[]; ids?: string[] };
    if (operation === 'upsert') {
      await store.upsert(p.tenant, p.collection, (p.points ?? []).map((x) => ({ ...x, vector: Float32Array.from(x.vector) })));
    } else if (operation === 'delete') {
      await store.delete(p.tenant, p.collection, p.ids ?? []);
    } else {
      throw new ParleyError('PARLEY_ERR_INTERNAL', `unknown vector outbox operation ${operation}`);
    }
  };
}

/** The forwarder's handler that replays recorded lexical-index writes. */
export function lexicalOutboxHandler(index: LexicalIndex): OutboxHandler {
  return async (operation, payload) => {
    const p = payload as { tenant: string; docs?: LexicalDoc[]; ids?: string[] };
    if (operation === 'index') await index.index(p.tenant, p.docs ?? []);
    else if (operation === 'delete') await index.delete(p.tenant, p.ids ?? []);
    else throw new ParleyError('PARLEY_ERR_INTERNAL', `unknown lexical outbox operation ${operation}`);
  };
}

/** Record a write, try to deliver it now; resolve once it is durable, reject if the backend refused it. */
async function writeThrough(outbox: Outbox, forwarder: OutboxForwarder, target: string, operation: string, payload: unknown): Promise<void> {
  const { id, inSection } = await outbox.gated(() => ({ id: outbox.record(target, operation, payload), inSection: outbox.inTransaction() }));
  // Inside `Stores.atomically`: committed with the transaction, forwarded after it (see `OutboxJobQueue.enqueue`).
  if (inSection) {
    forwarder.drainAfterCommit(target);
    return;
  }
  const outcome = await forwarder.forward(target, id);
  if (outcome.state !== 'dead') return;
  const match = /^(PARLEY_ERR_[A-Z_]+): ([\s\S]*)$/.exec(outcome.error);
  const code = match && match[1]! in ERRORS ? (match[1] as ErrorCode) : 'PARLEY_ERR_BAD_REQUEST';
  throw new ParleyError(code, match ? match[2]! : outcome.error);
}

/**
 * A networked vector store whose writes go through the outbox: `upsert` and `delete` resolve once
 * the write is committed locally, and reach the backend now or, during an outage, as soon as it is
 * back, in order. Reads and collection management go straight to the backend.
 */
export class OutboxVectorStore implements VectorStore {
  constructor(private readonly inner: VectorStore, private readonly outbox: Outbox, private readonly forwarder: OutboxForwarder) {}

  ensureCollection(collection: string, space: EmbeddingSpace): Promise<void> {
    return this.inner.ensureCollection(collection, space);
  }

  collectionSpace(collection: string): Promise<EmbeddingSpace | null> {
    return this.inner.collectionSpace(collection);
  }

  async upsert(tenant: TenantId, collection: string, points: { id: string; vector: Float32Array; payload: VectorPayload }[]): Promise<void> {
    if (points.length === 0) return;
    const stored: StoredPoint[] = points.map((p) => ({ id: p.id, vector: Array.from(p.vector), payload: p.payload }));
    await writeThrough(this.outbox, this.forwarder, VECTORS_TARGET, 'upsert', { tenant, collection, points: stored });
  }

  get(tenant: TenantId, collection: string, ids: string[]): Promise<VectorPoint[]> {
    return this.inner.get(tenant, collection, ids);
  }

  search(tenant: TenantId, collection: string, vector: Float32Array, k: number, filter?: VectorFilter): Promise<VectorHit[]> {
    return this.inner.search(tenant, collection, vector, k, filter);
  }

  async delete(tenant: TenantId, collection: string, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await writeThrough(this.outbox, this.forwarder, VECTORS_TARGET, 'delete', { tenant, collection, ids });
  }

  dropCollection(collection: string): Promise<void> {
    return this.inner.dropCollection(collection);
  }

  count(tenant: TenantId, collection: string): Promise<number> {
    return this.inner.count(tenant, collection);
  }

  ready(): Promise<boolean> {
    return this.inner.ready();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/** A networked lexical index whose writes go through the outbox (see `OutboxVectorStore`). */
export class OutboxLexicalIndex implements LexicalIndex {
  constructor(private readonly inner: LexicalIndex, private readonly outbox: Outbox, private readonly forwarder: OutboxForwarder) {}

  async index(tenant: TenantId, docs: LexicalDoc[]): Promise<void> {
    if (docs.length === 0) return;
    await writeThrough(this.outbox, this.forwarder, LEXICAL_TARGET, 'index', { tenant, docs });
  }

  search(tenant: TenantId, query: string, k: number, filter?: LexicalFilter): Promise<LexicalHit[]> {
    return this.inner.search(tenant, query, k, filter);
  }

  async delete(tenant: TenantId, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await writeThrough(this.outbox, this.forwarder, LEXICAL_TARGET, 'delete', { tenant, ids });
  }

  ready(): Promise<boolean> {
    return this.inner.ready();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
