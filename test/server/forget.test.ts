import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { NewFact } from '../../graph/memory-store.js';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { MemoryIndexer } from '../../pipelines/memory/memory-indexer.js';
import { ParleyClient, ParleyError } from '../../clients/typescript/src/index.js';
import { clientFor, startTestApp, type TestApp } from '../helpers/app.js';
import { deployments } from '../helpers/deployments.js';
import { TestWsClient } from '../helpers/ws-client.js';

for (const deployment of deployments('forget')) describe(`forgetting utterances and sessions, ${deployment.name}`, { skip: deployment.skip }, () => {
  let t: TestApp;
  let api: ParleyClient;
  const { tenant, headers } = deployment;
  before(async () => {
    t = await startTestApp(deployment.env);
    api = clientFor(t, headers);
  });
  after(async () => {
    await t?.close();
    await deployment.cleanup();
  });

  /** A memory of Ana's from `referIds`, stored and indexed as consolidation would. */
  async function storeFact(content: string, referIds: string[], sessionId: string): Promise<string> {
    const speakerId = (await t.app.stores.graph.getUtterance(tenant, referIds[0]!))!.speakerId;
    const now = new Date().toISOString();
    const fact: NewFact = {
      content, speakerId, addresseeIds: [], subjectId: speakerId, kind: 'statement', slot: null, value: null, time: now, referIds,
      validFrom: now, supersedes: null, confidence: 0.9, sessionId, source: 'test/forget',
    };
    const [stored] = await t.app.stores.memory.addFacts(tenant, [fact]);
    const indexer = new MemoryIndexer(t.app.stores.vectors, t.app.stores.lexical, t.app.models.textEmbedder, 'auto');
    const [vector] = await t.app.models.textEmbedder.embed([content]);
    await indexer.indexFacts(tenant, [{ fact: stored!, vector: vector! }]);
    return stored!.id;
  }

  test('one utterance: it, its vectors and the memory only from it go; a memory with another source keeps that one', async () => {
    const posted = await api.postUtterances('forget-one', [
      { speaker: 'Ana', text: 'I keep bees in Oaxwellton.' },
      { speaker: 'Ana', text: 'I work as a glassblower in Tarrowick.', addressees: ['Ben'] },
      { speaker: 'Ben', text: 'That sounds lovely.', addressees: ['Ana'] },
    ]);
    const [bees, glass, reply] = posted.utterance_ids as [string, string, string];
    await drainConsolidation(t.app.stores.queue, 120_000);
    const mine = await t.app.stores.memory.factsFromUtterances(tenant, [bees]);
    assert.ok(mine.some((f) => /Oaxwellton/.test(f.content)), 'consolidation made a memory of the turn');
    const twoSources = await storeFact('Ana sells honey in glass jars', [bees, glass], 'forget-one');
    const onlyBees = await storeFact('Ana has hives of Quillberry bees', [bees], 'forget-one');
    const asked = await api.query({ question: 'Who has hives of Quillberry bees?' });
    assert.ok(JSON.stringify(asked.evidence).includes('Quillberry'), 'the memory is evidence before it is forgotten');

    await api.forgetUtterance(bees);

    await assert.rejects(api.utterance(bees), (err: ParleyError) => err.status === 404);
    assert.deepEqual((await api.transcript('forget-one')).utterances.map((u) => u.id), [glass, reply]);
    const left = await api.memories({ include_history: true });
    assert.ok(!left.some((m) => m.id === onlyBees || /Oaxwellton|Quillberry/.test(m.text)), `nothing only from it is left: ${left.map((m) => m.text).join(' | ')}`);
    assert.deepEqual(left.find((m) => m.id === twoSources)?.refer_ids, [glass], 'the memory of two turns keeps the other');
    const answer = await api.query({ question: 'Who has hives of Quillberry bees in Oaxwellton?' });
    assert.ok(!JSON.stringify(answer.evidence).includes('Quillberry') && !JSON.stringify(answer.evidence).includes('Oaxwellton'));
    assert.deepEqual(await t.app.stores.lexical.search(tenant, 'Oaxwellton', 5), []);
    assert.deepEqual(await t.app.stores.memory.factsFromUtterances(tenant, [bees]), []);
    assert.ok((await api.interactions({ session_id: 'forget-one' })).some((u) => u.id === reply), 'the reply stays');
    assert.deepEqual(await t.app.stores.graph.pendingErasures(tenant), [], 'nothing is left pending');

    // Sent again: nothing is left of it, a 404 with the error shape; nothing else changes.
    const again = await t.app.inject({ method: 'DELETE', url: `/v1/utterances/${bees}`, headers });
    assert.equal(again.statusCode, 404);
    assert.equal(again.json().error.code, 'PARLEY_ERR_NOT_FOUND');
    assert.equal((await api.transcript('forget-one')).utterances.length, 2);
  });

  test('one utterance: what the persona learned only from it goes; a node with other evidence keeps that', async () => {
    const posted = await api.postUtterances('forget-persona', [
      { speaker: 'Ana', text: 'I hate my boss at Glimmerforge.' },
      { speaker: 'Ana', text: 'Mondays at Glimmerforge are grim.' },
    ]);
    const [boss, mondays] = posted.utterance_ids as [string, string];
    const ana = (await t.app.stores.graph.getUtterance(tenant, boss))!.speakerId;
    const felt = (target: string, utteranceId: string) => t.app.stores.memory.addPersonaEvidence(tenant, {
      participantId: ana, kind: 'preference', target, valence: -0.9, label: null, strength: 0.8, utteranceId,
      sessionId: 'forget-persona', time: new Date().toISOString(),
    });
    const hated = await felt('my boss at glimmerforge', boss);
    const work = await felt('work at glimmerforge', boss);
    await felt('work at glimmerforge', mondays);

    await api.forgetUtterance(boss);

    const { persona } = await api.persona(ana);
    assert.ok(!persona.some((n) => n.id === hated.id), 'the node only from the forgotten turn is gone');
    const kept = persona.find((n) => n.id === work.id);
    assert.deepEqual([kept?.evidence_ids, kept?.evidence_count], [[mondays], 1], 'the other node keeps only its other evidence');
    assert.ok(!JSON.stringify(persona).includes(boss));
  });

  test('bad and unknown ids: 400 and 404 with the error shape, nothing lost', async () => {
    await api.postUtterances('forget-bad', [{ speaker: 'Ana', text: 'This stays where it is.' }]);
    const cases: Array<[string, number]> = [
      [`/v1/utterances/${'x'.repeat(129)}`, 400], ['/v1/utterances/u_unknown', 404],
      ['/v1/sessions/bad%20id', 400], ['/v1/sessions/no-such-session', 404],
    ];
    for (const [url, status] of cases) {
      const res = await t.app.inject({ method: 'DELETE', url, headers });
      assert.equal(res.statusCode, status, url);
      const body = res.json() as { error: { code: string; message: string } };
      assert.equal(typeof body.error.code, 'string');
      assert.equal(typeof body.error.message, 'string');
    }
    assert.equal((await api.transcript('forget-bad')).utterances.length, 1);
  });

  test('a whole session: its utterances, memories and record go; other sessions stay', async () => {
    await api.postUtterances('forget-session', [
      { speaker: 'Cara', text: 'I restore carillons in Vessingham.' },
      { speaker: 'Cara', text: 'My locker code is 4471.' },
    ]);
    await api.postUtterances('forget-other', [{ speaker: 'Cara', text: 'I moved to Lisbon last year.' }]);
    await drainConsolidation(t.app.stores.queue, 120_000);
    assert.ok((await api.memories({ include_history: true })).some((m) => /Vessingham|carillon/i.test(m.text)));

    const res = await t.app.inject({ method: 'DELETE', url: '/v1/sessions/forget-session', headers });
    assert.equal(res.statusCode, 204);
    assert.equal(res.body, '');

    assert.equal(await t.app.stores.graph.getSession(tenant, 'forget-session'), null);
    assert.deepEqual(await t.app.stores.graph.queryInteractions(tenant, { sessionId: 'forget-session' }), []);
    await assert.rejects(api.transcript('forget-session'), (err: ParleyError) => err.status === 404);
    const left = await api.memories({ include_history: true });
    assert.ok(!left.some((m) => /Vessingham|carillon|4471/i.test(m.text)), left.map((m) => m.text).join(' | '));
    assert.ok(left.some((m) => /Lisbon/.test(m.text)), 'the other session keeps its memories');
    await assert.rejects(api.forgetSession('forget-session'), (err: ParleyError) => err.status === 404);
  });

  test('a live session is refused with 409 until it has ended', async () => {
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=forget-live`, headers);
    try {
      await c.next('session.started');
      c.sendJson({ type: 'utterance', speaker: 'Dana', text: 'Forget what I just said.' });
      await c.next('transcript.final');
      const refused = await t.app.inject({ method: 'DELETE', url: '/v1/sessions/forget-live', headers });
      assert.equal(refused.statusCode, 409);
      assert.equal(refused.json().error.code, 'PARLEY_ERR_CONFLICT');
      assert.match(refused.json().error.message, /live.*end it first/);
      assert.equal((await api.transcript('forget-live')).utterances.length, 1, 'nothing was forgotten');
      c.sendJson({ type: 'session.end' });
      await c.next('session.ended', () => true, 120_000);
    } finally {
      c.close();
    }
    await api.forgetSession('forget-live');
    assert.deepEqual(await t.app.stores.graph.queryInteractions(tenant, { sessionId: 'forget-live' }), []);
  });
});
