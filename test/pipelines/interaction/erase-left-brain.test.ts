import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eraseLeftBrainTraces, livingNamesLike } from '../../../pipelines/interaction/erase-left-brain.js';
import { ENTITY_COLLECTION } from '../../../pipelines/retrieval/left-brain-job.js';
import { FALLBACK_SCHEMA_ID } from '../../../pipelines/retrieval/schemas.js';
import { embeddedMemory, type EmbeddedMemory } from '../../helpers/memory-fixture.js';

const T = 't_erase_left_brain';

/** An entity with the given memories (utterance ids), indexed by its description. */
async function entity(m: EmbeddedMemory, name: string, description: string, utteranceIds: string[], schemaId = FALLBACK_SCHEMA_ID) {
  const e = await m.entities.upsertEntity(T, { name, description, schemaId });
  await m.entities.addMemories(T, e.id, { utteranceIds });
  const [vector] = await m.embedder.embed([description]);
  await m.vectors.upsert(T, ENTITY_COLLECTION, [{ id: e.id, vector: vector!, payload: { layer: 'entity', schemaId, name: e.key } }]);
  return e;
}

async function keys(m: EmbeddedMemory): Promise<string[]> {
  return (await m.entities.listNames(T)).map((e) => e.key).sort();
}

describe('erasing a person\'s left-brain traces spares what others own', () => {
  let m: EmbeddedMemory;
  before(async () => {
    m = embeddedMemory();
    await m.vectors.ensureCollection(ENTITY_COLLECTION, m.embedder.space);
  });
  after(async () => m.close());

  test('a living namesake\'s and a city\'s entities stay; words of the name go only with all their memories', async () => {
    const smith = await m.graph.createParticipant(T, { name: 'Ben Smith' });
    await m.graph.createParticipant(T, { name: 'Ben Jones' });
    const hilton = await m.graph.createParticipant(T, { name: 'Paris Hilton', aliases: ['PH'] });
    const trip = await m.entities.addSchema(T, { name: 'trip to paris', description: 'flights to paris in june', origin: 'emergent' });
    const fans = await m.entities.addSchema(T, { name: 'Paris Hilton fans', description: 'who likes her', origin: 'emergent' });
    await entity(m, 'Ben', 'Ben: Ben Jones will bring the cake tomorrow.', ['u_jones']);
    await entity(m, 'Ben Smith', 'Ben Smith: see you soon', ['u_smith']);
    await entity(m, 'Smith', 'Smith: the smith forged it', ['u_smith']);
    const paris = await entity(m, 'Paris', 'Paris: we fly to Paris in June', ['u_ana', 'u_hilton'], trip.id);
    await entity(m, 'Hilton', 'Hilton: the hotel', ['u_hilton']);
    await entity(m, 'Fan', 'Fan: a fan', ['u_fan'], fans.id);
    assert.deepEqual(await livingNamesLike(m.graph, T, smith.id, ['Ben Smith']), ['Ben Jones']);

    await eraseLeftBrainTraces(m, T, {
      names: ['Ben Smith'], living: await livingNamesLike(m.graph, T, smith.id, ['Ben Smith']), texts: [], memoryIds: ['u_smith'],
    });
    assert.deepEqual(await keys(m), ['ben', 'fan', 'hilton', 'paris'], 'Ben Jones\'s "ben" stays; "ben smith" and "smith" (only erased memories) go');

    await eraseLeftBrainTraces(m, T, {
      names: ['Paris Hilton', 'PH'], living: await livingNamesLike(m.graph, T, hilton.id, ['Paris Hilton', 'PH']), texts: [], memoryIds: ['u_hilton'],
    });
    assert.deepEqual(await keys(m), ['ben', 'fan', 'paris'], 'the city stays; "hilton" goes');
    assert.deepEqual((await m.entities.memoriesOf(T, [paris.id], 10)).utteranceIds, ['u_ana'], 'the erased memory is dropped from the city');
    assert.deepEqual((await m.entities.listSchemas(T)).filter((s) => s.origin === 'emergent').map((s) => s.name), ['trip to paris'],
      'a schema naming the full name goes, one naming only the city stays');
  });

  test('a short utterance ("ok") rewrites no one else\'s entity; their quoted turn is rewritten', async () => {
    const shop = await entity(m, 'bookshop', 'bookshop: I love the bookshop on the corner, ok?', ['u_ana2']);
    const lisbon = await entity(m, 'Lisbon', 'Lisbon: I am flying to Lisbon next week.', ['u_ok2']);
    const book = await m.entities.addSchema(T, { name: 'books', description: 'the bookshop, ok', origin: 'emergent' });
    await entity(m, 'novel', 'novel: a novel', ['u_ana3'], book.id);
    await eraseLeftBrainTraces(m, T, {
      names: ['Olga'], living: [], texts: ['ok', 'Yes.', 'I am flying to Lisbon next week.'], memoryIds: ['u_ok1', 'u_ok2'],
    });
    const now = await m.entities.getEntities(T, [shop.id, lisbon.id]);
    const shopNow = now.find((e) => e.id === shop.id);
    const lisbonNow = now.find((e) => e.id === lisbon.id);
    assert.equal(shopNow?.description, 'bookshop: I love the bookshop on the corner, ok?', 'another\'s entity quoting "ok" stays as it was');
    assert.equal(lisbonNow?.description, 'Lisbon', 'the entity quoting their turn is described by its name alone');
    assert.ok((await m.entities.listSchemas(T)).some((s) => s.id === book.id), 'a schema containing "ok" stays');
  });
});
