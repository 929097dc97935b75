import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Neo4jLexicalIndex } from '../../graph/neo4j/neo4j-lexical-index.js';
import { Neo4jVectorStore } from '../../graph/neo4j/neo4j-vector-store.js';
import { Neo4jVoiceprintStore } from '../../graph/neo4j/neo4j-voiceprint-store.js';
import { collectionFor } from '../../pipelines/memory/collections.js';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { ParleyClient, type MemoryItem } from '../../clients/typescript/src/index.js';
import { clientFor, startTestApp, type TestApp } from '../helpers/app.js';
import { deployments } from '../helpers/deployments.js';

for (const deployment of deployments('qm')) describe(`POST /v1/query answers from memory: facts with their validity, not only turns (real consolidation), ${deployment.name}`, { skip: deployment.skip }, () => {
  let t: TestApp;
  const { tenant } = deployment;
  let api: ParleyClient;
  const ask = async (question: string): Promise<MemoryItem[]> => (await api.query({ question })).evidence;

  before(async () => {
    t = await startTestApp(deployment.env);
    api = clientFor(t, deployment.headers);
    await api.postUtterances('demo', [
      { speaker: 'Ana', text: 'Ben, I will send you the draft on Friday.', time: '2026-11-02T10:00:00Z' },
      { speaker: 'Ben', text: 'Thanks Ana. I am flying to Lisbon next week.', time: '2026-11-02T10:00:30Z' },
    ]);
    await api.postUtterances('lena-1', [
      { speaker: 'Lena', addressees: ['Omar'], text: 'I live in Richmond, close to the marina.', time: '2026-03-01T09:00:00Z' },
      { speaker: 'Omar', addressees: ['Lena'], text: 'Nice, I love the marina in spring.', time: '2026-03-01T09:01:00Z' },
    ]);
    await api.postUtterances('lena-2', [
      { speaker: 'Lena', addressees: ['Omar'], text: 'Big news: I moved to Berkeley last month.', time: '2026-10-05T09:00:00Z' },
      { speaker: 'Omar', addressees: ['Lena'], text: 'Congratulations on the new place!', time: '2026-10-05T09:01:00Z' },
    ]);
    await drainConsolidation(t.app.stores.queue, 60_000);
  });
  after(async () => {
    await t?.close();
    await deployment.cleanup();
  });

  test('"What did Ana promise Ben?" puts the commitment Ana made, as a fact item, first', async () => {
    const [top] = await ask('What did Ana promise Ben?');
    assert.ok(top);
    assert.equal(top.layer, 'fact');
    assert.match(top.text, /^Ana will send Ben the draft on Friday/);
    assert.equal(top.speaker?.name, 'Ana');
    assert.deepEqual(top.addressees.map((a) => a.name), ['Ben']);
    assert.equal(top.superseded, false);
    assert.equal(top.valid_to, null);
    assert.equal(top.valid_from, '2026-11-02T10:00:00.000Z');
    assert.equal(top.event_time, '2026-11-06', 'the Friday it names, as a field');
    const [source] = await t.app.stores.graph.getTranscript(tenant, 'demo');
    assert.deepEqual(top.refer_ids, [source?.id], 'the fact names the turn it came from');
  });

  test('"Where does Lena live now?" serves Berkeley, and nothing superseded', async () => {
    const evidence = await ask('Where does Lena live now?');
    const berkeley = evidence.findIndex((i) => /Berkeley/.test(i.text));
    assert.ok(berkeley >= 0, JSON.stringify(evidence));
    assert.ok(evidence.every((i) => !/Richmond/.test(i.text) || berkeley < evidence.indexOf(i)), 'Berkeley above Richmond');
    assert.ok(evidence.every((i) => !i.superseded && i.valid_to === null), 'a question about now gets no replaced memory');
    assert.ok(['profile', 'fact'].includes(evidence[berkeley]!.layer));
  });

  test('with no temporal cue, Berkeley comes first and Richmond, if served, is marked superseded', async () => {
    const evidence = await ask('Where does Lena live?');
    const berkeley = evidence.findIndex((i) => /Berkeley/.test(i.text));
    const richmond = evidence.findIndex((i) => /Richmond/.test(i.text));
    assert.ok(berkeley >= 0);
    assert.ok(richmond === -1 || richmond > berkeley);
    if (richmond >= 0) assert.equal(evidence[richmond]!.superseded, true);
  });

  test('"When did Lena move to Berkeley?": the month her words name ("last month") is the item\'s event_time, not when she said it', async () => {
    const evidence = await ask('When did Lena move to Berkeley?');
    const moved = evidence.filter((i) => /moved to Berkeley/.test(i.source_text ?? i.text));
    assert.ok(moved.length > 0, evidence.map((i) => i.text).join(' | '));
    for (const i of moved) assert.equal(i.event_time, '2026-09', `${i.layer}: ${i.text}`);
    assert.ok(evidence.filter((i) => /marina in spring/.test(i.text)).every((i) => i.event_time === null), 'a turn naming no date has none');
  });

  test('"Where did Lena live before?" serves the replaced fact first, marked superseded with its validity', async () => {
    const evidence = await ask('Where did Lena live before?');
    const [top] = evidence;
    assert.ok(top);
    assert.match(top.text, /Richmond/);
    assert.equal(top.superseded, true);
    assert.equal(top.valid_from, '2026-03-01T09:00:00.000Z');
    assert.equal(top.valid_to, '2026-10-05T09:00:00.000Z', 'closed when the move was said');
    assert.ok(evidence.some((i) => /Berkeley/.test(i.text) && !i.superseded), 'what replaced it is there too');
  });

  test('live retrieval (memory.context) marks a turn whose facts were all replaced as superseded', async () => {
    const r = await t.app.retriever.retrieve({ tenant, text: 'Lena, do you still live in Richmond near the marina?', k: 10 });
    const richmond = r.items.find((i) => i.layer === 'interaction' && /I live in Richmond/.test(i.text));
    assert.ok(richmond, JSON.stringify(r.items.map((i) => i.text)));
    assert.equal(richmond.superseded, true);
    assert.equal(richmond.valid_to, '2026-10-05T09:00:00.000Z');
    const marina = r.items.find((i) => /love the marina/.test(i.text) && i.layer === 'interaction');
    if (marina) assert.equal(marina.superseded, false, 'a turn whose facts hold is not superseded');
  });

  if (deployment.networked) {
    test('every store is the Neo4j one, and the vectors and keywords of the tenant are in Neo4j', async () => {
      const { stores } = t.app;
      assert.ok(stores.vectors instanceof Neo4jVectorStore);
      assert.ok(stores.lexical instanceof Neo4jLexicalIndex);
      assert.ok(stores.voiceprints instanceof Neo4jVoiceprintStore);
      assert.ok(await stores.vectors.count(tenant, collectionFor('fact')) > 0);
      assert.ok(await stores.vectors.count(tenant, collectionFor('interaction')) >= 6);
      assert.ok((await stores.lexical.search(tenant, 'Berkeley', 5)).length > 0);
    });
  }

  test('a speaker filter keeps every layer to that speaker', async () => {
    const omar = (await t.app.stores.graph.findParticipantsByName(tenant, 'Omar'))[0];
    assert.ok(omar);
    const evidence = (await api.query({ question: 'What does Lena think of the marina?', speaker: omar.id })).evidence;
    assert.ok(evidence.length > 0);
    assert.ok(evidence.every((i) => i.speaker?.id === omar.id), JSON.stringify(evidence.map((i) => [i.layer, i.speaker])));
  });
});
