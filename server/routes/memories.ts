import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { GraphStore } from '../../graph/graph-store.js';
import type { Fact } from '../../graph/memory-store.js';
import { NameResolver } from '../../graph/name-resolver.js';
import type { TenantId } from '../../graph/types.js';
import { MemoryIndexer } from '../../pipelines/memory/memory-indexer.js';
import { ParleyError } from '../../graph/core/errors.js';
import {
  errorResponse, errorResponses, FactView, IdParams, MemoriesCursor, MemoriesResponse, MemoryDeletedResponse, MemoryPatch, ref,
} from '../protocol/http-schemas.js';
import { ownerFilter, resolveMemoryOwner } from '../../pipelines/interaction/named-memories.js';
import { NON_BLANK } from '../protocol/ws-messages.js';
import { derivedSlotOf, rederiveAttributes } from '../../pipelines/interaction/derived-attributes.js';
import { memoryEdit } from '../../pipelines/interaction/memory-edits.js';
import { decodeOffsetCursor, nextOffsetCursor } from '../protocol/offset-cursor.js';

export { FactView } from '../protocol/http-schemas.js';

const NOT_FOUND = errorResponse('PARLEY_ERR_NOT_FOUND: no such memory');
const BAD_REQUEST = errorResponse('PARLEY_ERR_BAD_REQUEST: invalid parameters or body');

/** What a memories cursor pages (an interactions cursor is refused here). */
const LISTING = 'memories';

/** How deep `GET /v1/memories?q=` pages through a search's ranking. */
const SEARCH_DEPTH = 10_000;

const MemoriesQuery = Type.Object(
  {
    participant: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: NON_BLANK, description: 'participant id, external_id or name (not blank): facts this participant said, is the subject of, or was told (see role); '
      + 'a name no participant holds but stored memories name (someone others talk about) gives the facts naming it, as their subject' })),
    role: Type.Optional(Type.Union([Type.Literal('any'), Type.Literal('subject'), Type.Literal('speaker'), Type.Literal('addressee')], {
      default: 'any',
      description: 'how the facts relate to `participant`: `any` (default) facts they said, are the subject of, or that others addressed to them; '
        + '`subject` facts about them; `speaker` facts they said; `addressee` facts said to them',
    })),
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
    layer: Type.Optional(Type.Union([Type.Literal('fact'), Type.Literal('profile')])),
    include_history: Type.Optional(Type.Boolean({ default: false })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
    cursor: Type.Optional(MemoriesCursor),
  },
  { additionalProperties: false },
);
type MemoriesQuery = Static<typeof MemoriesQuery>;

/** Facts as the API shows them, with participant names resolved (`GET /v1/memories`, MCP `get_participant`). */
export async function factViews(graph: GraphStore, tenant: TenantId, facts: Fact[]): Promise<FactView[]> {
  const names = new NameResolver(graph, tenant);
  const ref = (id: string) => names.ref(id);
  const out: FactView[] = [];
  for (const f of facts) {
    out.push({
      id: f.id, layer: f.layer, text: f.content, kind: f.kind, slot: f.slot, value: f.value, speaker: await ref(f.speakerId),
      addressees: await Promise.all(f.addresseeIds.map(ref)), subject_id: f.subjectId, refer_ids: f.referIds,
      session_id: f.sessionId, time: f.time, valid_from: f.validFrom, valid_to: f.validTo, valid_until: f.validUntil, event_time: f.eventTime,
      supersedes: f.supersedes, superseded_by: f.supersededBy, confidence: f.confidence, source: f.source,
    });
  }
  return out;
}

/** `GET /v1/memories`, `PATCH|DELETE /v1/memories/{id}`: long-term facts and profile facts. */
export async function memoryRoutes(app: FastifyInstance): Promise<void> {
  const { stores } = app;
  const indexer = new MemoryIndexer(stores.vectors, stores.lexical, app.models.textEmbedder, app.config.memoryMinAsrConfidence);

  const views = (tenant: TenantId, facts: Fact[]): Promise<FactView[]> => factViews(stores.graph, tenant, facts);

  app.get<{ Querystring: MemoriesQuery }>('/v1/memories', {
    schema: {
      operationId: 'listMemories', tags: ['memories'],
      summary: 'Current long-term memories; with include_history=true also closed (superseded or deleted) ones',
      querystring: MemoriesQuery,
      response: { 200: ref(MemoriesResponse), 400: BAD_REQUEST, 404: errorResponse('PARLEY_ERR_NOT_FOUND: no participant by that id, external_id or name, and no memory names it'), 409: errorResponse('PARLEY_ERR_CONFLICT: several participants hold that name'), ...errorResponses() },
    },
  }, async (request) => {
    const { tenant } = request;
    const q = request.query;
    const owner = q.participant ? await resolveMemoryOwner(stores, tenant, q.participant) : null;
    const limit = q.limit ?? 100;
    const offset = decodeOffsetCursor(LISTING, q.cursor);
    const filter = {
      ...(owner ? ownerFilter(owner, q.role ?? 'any') : {}),
      ...(q.layer ? { layer: q.layer } : {}),
      includeHistory: q.include_history ?? false,
    };
    if (q.q) {
      // Ranked by the search: a page is the next `limit` hits (of which the filters may keep fewer).
      // A search ranks its first `SEARCH_DEPTH` hits only: a cursor past them (forged, or paging a very broad
      // search) ends the listing instead of asking the search for millions of hits.
      const end = Math.min(offset + limit, SEARCH_DEPTH);
      const hits = end <= offset ? [] : await stores.lexical.search(tenant, q.q, end + 1, { layer: q.layer ?? ['fact', 'profile'] });
      // The hits an owner named only in memories holds (`filter.ids`): the page's other hits are not theirs.
      const owned = filter.ids ? new Set(filter.ids) : null;
      const ranked = hits.slice(offset, end).map((h) => h.id);
      const ids = owned ? ranked.filter((id) => owned.has(id)) : ranked;
      const facts = ids.length === 0 ? [] : await stores.memory.listFacts(tenant, { ...filter, ids, limit });
      const rank = new Map(ids.map((id, i) => [id, i]));
      facts.sort((a, b) => (rank.get(a.id) ?? 0) - (rank.get(b.id) ?? 0));
      return { memories: await views(tenant, facts), next_cursor: nextOffsetCursor(LISTING, offset, ranked.length, end < SEARCH_DEPTH && hits.length > end) };
    }
    const facts = await stores.memory.listFacts(tenant, { ...filter, limit, offset });
    // A full page: one more match past it says whether another page follows.
    const more = facts.length === limit && (await stores.memory.listFacts(tenant, { ...filter, limit: 1, offset: offset + limit })).length > 0;
    return { memories: await views(tenant, facts), next_cursor: nextOffsetCursor(LISTING, offset, facts.length, more) };
  });

  app.patch<{ Params: IdParams; Body: MemoryPatch }>('/v1/memories/:id', {
    schema: {
      operationId: 'updateMemory', tags: ['memories'],
      summary: 'Correct a memory (its text, value or confidence); it is re-indexed, and a profile memory\'s participant attribute follows its value',
      params: IdParams, body: ref(MemoryPatch),
      response: { 200: ref(FactView), 400: BAD_REQUEST, 404: NOT_FOUND, ...errorResponses({ body: true }) },
    },
  }, async (request) => {
    const { tenant } = request;
    const { text, value, confidence } = request.body;
    const fact = await stores.memory.getFact(tenant, request.params.id);
    if (!fact) throw new ParleyError('PARLEY_ERR_NOT_FOUND', `no memory ${request.params.id}`);
    // Text and value change together, so neither contradicts the other (memoryEdit refuses what cannot agree).
    const edit = memoryEdit(fact, text, value);
    const patched = await stores.memory.patchFact(tenant, fact.id, {
      ...edit,
      ...(confidence !== undefined ? { confidence } : {}),
    });
    if (!patched) throw new ParleyError('PARLEY_ERR_NOT_FOUND', `no memory ${request.params.id}`);
    if (edit.value !== undefined) await rederiveAttributes(stores.graph, stores.memory, tenant, derivedSlotOf(patched));
    if (edit.content !== undefined && patched.validTo === null) {
      const [vector] = await app.models.textEmbedder.embed([patched.content]);
      if (vector) await indexer.indexFacts(tenant, [{ fact: patched, vector }]);
    }
    return (await views(tenant, [patched]))[0];
  });

  app.delete<{ Params: IdParams }>('/v1/memories/:id', {
    schema: {
      operationId: 'deleteMemory', tags: ['memories'],
      summary: 'Erase a memory and its index entries; a profile memory\'s participant attribute falls back to the newest current memory of its slot, or goes',
      params: IdParams,
      response: { 200: ref(MemoryDeletedResponse), 400: errorResponse('PARLEY_ERR_BAD_REQUEST: the memory id is longer than 128 characters'), 404: NOT_FOUND, ...errorResponses() },
    },
  }, async (request) => {
    const { tenant } = request;
    const fact = await stores.memory.getFact(tenant, request.params.id);
    if (!fact) throw new ParleyError('PARLEY_ERR_NOT_FOUND', `no memory ${request.params.id}`);
    await indexer.removeFacts(tenant, [fact]);
    await stores.memory.deleteFact(tenant, fact.id);
    await rederiveAttributes(stores.graph, stores.memory, tenant, derivedSlotOf(fact));
    return { id: fact.id, deleted: true };
  });
}
