import type { FastifyInstance } from 'fastify';
import { collectionFor } from '../pipelines/memory/collections.js';
import { ENTITY_COLLECTION } from '../pipelines/retrieval/left-brain-job.js';
import { SEED_SCHEMAS } from '../pipelines/retrieval/schemas.js';

/** Nouns the fixture speech talks about, so live turns hit real entities. */
const REAL = ['weather', 'sister', 'morning', 'coffee', 'cup', 'meeting', 'cat', 'couch', 'bread', 'milk', 'train', 'platform',
  'book', 'night', 'children', 'park', 'window', 'store', 'doctor', 'rest', 'call', 'clock'];
const PHRASES = ['again last week', 'and it went well', 'but nobody agreed', 'with a lot of excitement', 'for the third time',
  'during the holidays', 'while driving home', 'after the long day', 'and promised to follow up', 'over dinner'];

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * Fill one tenant with `n` synthetic interaction memories straight into the stores (not through the
 * API): utterances of `people` participants (default 20; turn i is said by Person(i mod people) to the next one),
 * vectors composed from a few real embeddings plus noise, BM25 docs, and a left brain of `entities` entities with
 * links. Returns the time it took, ms.
 */
export async function synthesiseMemories(app: FastifyInstance, tenant: string, n: number, entities: number, people = 20): Promise<number> {
  const t0 = performance.now();
  const { stores, retriever, entityIndex } = app;
  const embedder = retriever.embedder;
  const rand = seeded(7);
  await stores.vectors.ensureCollection(collectionFor('interaction'), embedder.space);
  await stores.vectors.ensureCollection(ENTITY_COLLECTION, embedder.space);
  await entityIndex.ensureSchemas(tenant, [...SEED_SCHEMAS]);
  const names = Array.from({ length: entities }, (_, i) => (i < REAL.length ? REAL[i]! : `project ${i}`));
  const baseVecs = await embedder.embed(names.map((nm) => `the ${nm}`));
  const phraseVecs = await embedder.embed(PHRASES);
  const ids: string[] = [];
  for (let i = 0; i < people; i++) ids.push((await stores.graph.createParticipant(tenant, { name: `Person${i}` })).id);
  const entityIds: string[] = [];
  for (const [i, nm] of names.entries()) {
    const schema = SEED_SCHEMAS[i % SEED_SCHEMAS.length]!;
    const e = await entityIndex.upsertEntity(tenant, { name: nm, description: `the ${nm}`, schemaId: schema.id });
    entityIds.push(e.id);
  }
  await stores.vectors.upsert(tenant, ENTITY_COLLECTION, entityIds.map((id, i) => ({ id, vector: baseVecs[i]!, payload: { layer: 'entity' } })));
  const batch = 2000;
  const memoriesOf = new Map<string, string[]>();
  for (let start = 0; start < n; start += batch) {
    const sessionId = `synth-${Math.floor(start / 100)}`;
    await stores.graph.openSession(tenant, sessionId, new Date().toISOString());
    const rows = [];
    const meta: { e: number; p: number }[] = [];
    for (let i = start; i < Math.min(n, start + batch); i++) {
      const e = Math.floor(rand() * entities);
      const p = Math.floor(rand() * PHRASES.length);
      const speaker = ids[i % people]!;
      meta.push({ e, p });
      rows.push({ sessionId: `synth-${Math.floor(i / 100)}`, speakerId: speaker, addresseeIds: [ids[(i + 1) % people]!],
        text: `Person${i % people} talked about the ${names[e]} ${PHRASES[p]}`, startMs: null, endMs: null,
        time: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(), confidence: null, audioRef: null });
    }
    for (const s of new Set(rows.map((r) => r.sessionId))) await stores.graph.openSession(tenant, s, new Date().toISOString());
    const stored = await stores.graph.addUtterances(tenant, rows);
    await stores.vectors.upsert(tenant, collectionFor('interaction'), stored.map((u, j) => {
      const { e, p } = meta[j]!;
      const v = new Float32Array(baseVecs[e]!.length);
      for (let d = 0; d < v.length; d++) v[d] = baseVecs[e]![d]! + 0.6 * phraseVecs[p]![d]! + (rand() - 0.5) * 0.05;
      return { id: u.id, vector: v, payload: { layer: 'interaction', sessionId: u.sessionId, speakerId: u.speakerId, addresseeIds: u.addresseeIds, time: u.time } };
    }));
    await stores.lexical.index(tenant, stored.map((u) => ({ id: u.id, text: u.text, layer: 'interaction', sessionId: u.sessionId, speakerId: u.speakerId, addresseeIds: u.addresseeIds })));
    stored.forEach((u, j) => {
      const id = entityIds[meta[j]!.e]!;
      const list = memoriesOf.get(id) ?? [];
      list.push(u.id);
      memoriesOf.set(id, list);
    });
  }
  for (const [id, ids] of memoriesOf) await entityIndex.addMemories(tenant, id, { utteranceIds: ids });
  for (let i = 0; i < entities; i++) {
    await entityIndex.link(tenant, entityIds[i]!, entityIds[(i + 1) % entities]!, 'strong');
    await entityIndex.link(tenant, entityIds[i]!, entityIds[Math.floor(rand() * entities)]!, 'weak');
  }
  return performance.now() - t0;
}
