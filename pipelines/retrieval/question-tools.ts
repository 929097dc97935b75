import type { TenantId } from '../../graph/types.js';
import { collectionFor } from '../memory/collections.js';
import type { SearchFilters } from './pool-search.js';
import type { Action } from './question-policy.js';
import type { Retriever } from './retriever.js';
import type { RankedList } from './rrf.js';

/** What every action of one question shares. */
export interface ActionContext {
  retriever: Retriever;
  tenant: TenantId;
  filters: SearchFilters;
  /** The question as asked (embedded for an empty vector query). */
  question: string;
  askerId: string | null;
  /** Depth of each list. */
  depth: number;
  /** Filled by the staged action. */
  poolSize: number;
  /** Ids of the turns from the time the question names (actions scoped `time` search only these). */
  timePool: string[];
  signal?: AbortSignal;
}

/**
 * Run one action and return its ranked list of utterance ids: fact and profile hits are replaced
 * by the turns they came from (`refer_ids`), persona hits are dropped, duplicates keep their best rank.
 * A BM25 or vector search also returns each id's score (a turn a fact stands for: the fact's), for fusions that read
 * scores (`fuseRanked`); the staged search, ranks only.
 */
export async function runAction(ctx: ActionContext, a: Action): Promise<RankedList> {
  const { retriever, tenant } = ctx;
  const depth = a.depth ?? ctx.depth;
  const { stores } = retriever;
  const filters: SearchFilters & { ids?: string[] } = {
    ...ctx.filters, ...(a.speakerId ? { speakerId: a.speakerId } : {}), ...(a.addresseeId ? { addresseeId: a.addresseeId } : {}), ...(a.scope === 'time' ? { ids: ctx.timePool } : {}),
  };
  if (filters.ids?.length === 0) return { ids: [], weight: a.weight };
  let ids: string[] = [];
  let hits: Hit[] | null = null;
  if (a.tool === 'staged') {
    const r = await retriever.retrieve({
      tenant, text: ctx.question, k: 15, askerId: ctx.askerId, onePerTurn: false, ...filters, ...(ctx.signal ? { signal: ctx.signal } : {}),
    });
    ctx.poolSize = r.poolSize;
    ids = r.items.flatMap((i) => (i.layer === 'persona' ? [] : i.layer === 'interaction' ? [i.id] : i.refer_ids));
  } else if (a.tool === 'vector2') {
    const second = retriever.secondDense;
    const vector = second ? await second.embedQuery(a.query || ctx.question).catch(() => null) : null;
    if (!second || !vector) return { ids: [], weight: a.weight };
    hits = await stores.vectors.search(tenant, second.collection, vector, depth, filters);
  } else if (a.tool === 'vector') {
    const vector = a.vector ?? await retriever.embed(a.query || ctx.question).catch(() => null);
    if (!vector) return { ids: [], weight: a.weight };
    const layers = a.layer === 'interaction' ? ['interaction' as const] : ['fact' as const, 'profile' as const];
    const lists = await Promise.all(layers.map((l) => stores.vectors.search(tenant, collectionFor(l), vector, depth, filters)));
    hits = await toTurns(retriever, tenant, lists.flat().sort((x, y) => y.score - x.score), a.layer);
  } else {
    const layer = a.layer === 'interaction' ? 'interaction' : ['fact', 'profile'];
    hits = await toTurns(retriever, tenant, await stores.lexical.search(tenant, a.query, depth, { ...filters, layer }), a.layer);
  }
  if (hits) {
    const best = new Map<string, number>();
    for (const h of hits) if (!best.has(h.id)) best.set(h.id, h.score);
    ids = [...best.keys()];
    if (a.perSession) ids = await bestPerSession(retriever, tenant, ids);
    return { ids, scores: ids.map((id) => best.get(id)!), weight: a.weight };
  }
  ids = [...new Set(ids)];
  return { ids: a.perSession ? await bestPerSession(retriever, tenant, ids) : ids, weight: a.weight };
}

/** A search hit: an id with its score, higher is better. */
interface Hit {
  id: string;
  score: number;
}

/** The first (best-ranked) turn of each session among `ids`, in rank order; a turn that cannot be read is dropped. */
async function bestPerSession(retriever: Retriever, tenant: TenantId, ids: string[]): Promise<string[]> {
  const sessionOf = new Map((await retriever.stores.graph.getUtterances(tenant, ids)).map((u) => [u.id, u.sessionId]));
  const seen = new Set<string | null>();
  return ids.filter((id) => {
    if (!sessionOf.has(id)) return false;
    const s = sessionOf.get(id) ?? null;
    if (seen.has(s)) return false;
    seen.add(s);
    return true;
  });
}

/** Fact / profile hits → their source utterances, in rank order, each with its fact's score. */
async function toTurns(retriever: Retriever, tenant: TenantId, hits: Hit[], layer: Action['layer']): Promise<Hit[]> {
  if (layer === 'interaction' || hits.length === 0) return hits;
  const ids = hits.map((h) => h.id);
  const facts = await retriever.stores.memory.listFacts(tenant, { ids, limit: ids.length });
  const byId = new Map(facts.map((f) => [f.id, f.referIds]));
  return hits.flatMap((h) => (byId.get(h.id) ?? []).map((id) => ({ id, score: h.score })));
}
