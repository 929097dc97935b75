import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { cosine } from '../../pipelines/embeddings/text-embedder.js';
import { ENTITY_COLLECTION } from '../../pipelines/retrieval/left-brain-job.js';
import { clientFor, startTestApp, type TestApp } from '../helpers/app.js';
import { deployments, type Deployment } from '../helpers/deployments.js';
import { leaksOf, neo4jRows, sqliteRows, type ErasedPerson, type ScannedRow } from '../helpers/erasure-scan.js';

/** The README's demo batch, and more of the same people, so entities, links and an emergent schema get built. */
const SAID = [
  { speaker: 'Ana', text: 'Ben, I will send you the draft on Friday.' },
  { speaker: 'Ben', text: 'Thanks Ana. I am flying to Lisbon next week.' },
  { speaker: 'Ben', text: 'My flight to Lisbon leaves on Tuesday with Marisol.' },
  { speaker: 'Ana', text: 'The draft covers the Lisbon budget and the venue.' },
];
const QUESTIONS = ['what did Ana promise Ben?', 'when does Ben fly to Lisbon?', 'who flies to Lisbon with Ben?', 'what does the Lisbon draft cover?'];

async function storedRows(t: TestApp, deployment: Deployment): Promise<ScannedRow[]> {
  return deployment.networked ? neo4jRows(await deployment.dumpNeo4j()) : sqliteRows(t.app.stores.sqlite);
}

/**
 * Every entity is indexed by its description as it reads (a batch embeds a little differently from one text alone,
 * hence not 1): two left-brain jobs making one entity at once must not leave one's description with the other's
 * vector. Returns how many entities there are.
 */
async function vectorsMatchDescriptions(t: TestApp, tenant: string): Promise<number> {
  const entities = t.app.stores.entities;
  const all = await entities.getEntities(tenant, (await entities.listNames(tenant)).map((e) => e.id));
  const points = new Map((await t.app.stores.vectors.get(tenant, ENTITY_COLLECTION, all.map((e) => e.id))).map((p) => [p.id, p.vector]));
  const fresh = await t.app.models.textEmbedder.embed(all.map((e) => e.description));
  all.forEach((e, i) => {
    const score = cosine(points.get(e.id)!, fresh[i]!);
    assert.ok(score > 0.99, `entity ${e.key}'s vector is of its description "${e.description}" (cosine ${score})`);
  });
  return all.length;
}

for (const deployment of deployments('erase-derived')) describe(`erasure of what was derived from a person, ${deployment.name}`, { skip: deployment.skip }, () => {
  let t: TestApp;
  const { tenant } = deployment;
  before(async () => {
    t = await startTestApp({ PARLEY_INFERENCE_WORKERS: '1', ...deployment.env });
  });
  after(async () => {
    await t?.close();
    await deployment.cleanup();
  });

  test('entities, their vectors and schemas built from their words and questions about them go; others\' words stay', async () => {
    const api = clientFor(t, deployment.headers);
    const posted = await api.postUtterances('erase-derived', SAID);
    await drainConsolidation(t.app.stores.queue, 120_000);
    for (const question of [...QUESTIONS, ...QUESTIONS]) await api.query({ question });
    const entities = t.app.stores.entities;
    for (let i = 0; i < 100 && !(await entities.listSchemas(tenant)).some((s) => s.origin === 'emergent'); i++) await new Promise((r) => setTimeout(r, 50));
    const emergent = (await entities.listSchemas(tenant)).filter((s) => s.origin === 'emergent');
    assert.ok(emergent.some((s) => /\bBen\b/.test(`${s.name} ${s.description}`)), `a schema about Ben emerged first: ${JSON.stringify(emergent)}`);
    assert.ok((await entities.findByNames(tenant, ['ben'])).length > 0, 'an entity named Ben was made first');

    await vectorsMatchDescriptions(t, tenant);
    const said = await api.interactions({ session_id: 'erase-derived' });
    const byBen = said.filter((u) => u.speaker.name === 'Ben');
    const benId = byBen[0]!.speaker.id;
    assert.equal((await api.eraseParticipant(benId)).erased_utterances, 2);
    const ana = said.filter((u) => u.speaker.name === 'Ana').map((u) => ({ id: u.id, text: u.text }));
    const ben: ErasedPerson = { name: 'Ben', secrets: [...byBen.map((u) => u.text), ...byBen.map((u) => u.id), benId, 'Marisol'], surviving: ana };
    assert.deepEqual(leaksOf(await storedRows(t, deployment), ben), [], 'nothing of Ben is left');
    assert.deepEqual((await api.interactions({ session_id: 'erase-derived' })).map((u) => u.text),
      ana.map((u) => u.text.replace(/\bBen\b/g, '[erased]')), 'Ana\'s words about Ben stay, his name redacted');

    // A rewritten entity was embedded again.
    assert.ok(await vectorsMatchDescriptions(t, tenant) > 0, 'entities of Ana\'s words stay');

    // Then Ana: nothing of either is left, and the questions they were asked about went with them.
    const anaId = said.find((u) => u.speaker.name === 'Ana')!.speaker.id;
    await api.eraseParticipant(anaId);
    const both: ErasedPerson = { ...ben, name: 'Ana', secrets: [...ben.secrets, ...SAID.map((u) => u.text), ...posted.utterance_ids, anaId, ...QUESTIONS], surviving: [] };
    assert.deepEqual(leaksOf(await storedRows(t, deployment), both), [], 'nothing of Ana or Ben is left');
    assert.deepEqual(leaksOf(await storedRows(t, deployment), { ...both, name: 'Ben' }), []);
  });
});
