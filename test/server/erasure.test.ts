import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fixtureSamples, loadAudioFixtures } from '../../pipelines/audio/fixtures.js';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { clientFor, startVoiceTestApp, type TestApp } from '../helpers/app.js';
import { deployments } from '../helpers/deployments.js';
import { TestWsClient } from '../helpers/ws-client.js';

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });
}

for (const deployment of deployments('erase')) describe(`erasure of a person, ${deployment.name}`, { skip: deployment.skip }, () => {
  let t: TestApp;
  const { tenant, headers } = deployment;
  before(async () => {
    t = await startVoiceTestApp(deployment.env);
  });
  after(async () => {
    await t?.close();
    await deployment.cleanup();
  });

  test('leaves nothing of them in any store or file: name, words, ids, audio', async () => {
    // Their voice: three utterances with audio spans and a voiceprint.
    const awb = loadAudioFixtures().find((f) => f.file === 'awb.wav')!;
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=erase-voice`, headers, { pacing: 'realtime', frameMs: 100, speed: 2.5 });
    await c.next('session.started');
    await c.speak(fixtureSamples(awb));
    c.sendJson({ type: 'session.end' });
    await c.next('session.ended', () => true, 120_000);
    const finals = c.events.filter((e) => e.type === 'transcript.final');
    assert.ok(finals.length >= 1);
    const id = (finals[0]!.speaker as { id: string }).id;
    const api = clientFor(t, deployment.headers);
    assert.equal((await api.updateParticipant(id, { name: 'Zephyrine Quaxley' })).name, 'Zephyrine Quaxley');
    // Their words, and someone else's that must stay.
    const posted = await api.postUtterances('erase-text', [
      { speaker: 'Zephyrine Quaxley', text: 'I keep bees in Oaxwellton and I work as a glassblower.' },
      { speaker: 'Zephyrine Quaxley', text: 'My sister Brindlemoor lives in Tarrowick.' },
      { speaker: 'Ben', text: 'That sounds lovely, thanks for telling me.' },
    ]);
    await api.postUtterances('erase-other', [{ speaker: 'Ben', text: 'I moved to Lisbon last year.' }]);
    const [u1, u2] = posted.utterance_ids;
    await drainConsolidation(t.app.stores.queue, 120_000);
    const before = await api.memories({ include_history: true });
    assert.ok(before.some((m) => /Oaxwellton|glassblower/i.test(m.text)), `memories were made first: ${before.map((m) => m.text).join(' | ')}`);

    assert.ok(await t.app.stores.voiceprints.countByParticipant(tenant, id) >= 1, 'their voiceprint was stored');
    const erased = await api.eraseParticipant(id);
    assert.equal(erased.erased_utterances, finals.length + 2);

    const secrets = ['Quaxley', 'Oaxwellton', 'glassblower', 'Brindlemoor', 'Tarrowick', id, u1!, u2!,
      ...finals.map((f) => String(f.utterance_id))];
    const leaks: string[] = [];
    for (const file of filesUnder(t.config.dataDir)) {
      const bytes = readFileSync(file);
      for (const s of secrets) {
        if (bytes.includes(Buffer.from(s)) || bytes.includes(Buffer.from(s.toLowerCase()))) leaks.push(`${path.relative(t.config.dataDir, file)}: ${s}`);
      }
    }
    assert.deepEqual(leaks, [], 'nothing of the person is left in the data directory');
    if (deployment.networked) {
      // Every node of the tenant in Neo4j: graph, memories, entities, vectors, keywords, voiceprints.
      // (What Neo4j's own store files keep of deleted records is Neo4j's business: this checks content.)
      const dump = await deployment.dumpNeo4j();
      assert.match(dump, /Lisbon|lisbon/, 'the dump holds what others said');
      const inNeo4j = secrets.filter((s) => dump.includes(s) || dump.includes(s.toLowerCase()));
      assert.deepEqual(inNeo4j, [], 'nothing of the person is left in Neo4j');
      assert.equal(await t.app.stores.voiceprints.countByParticipant(tenant, id), 0);
    }
    const audio = filesUnder(t.config.dataDir).filter((f) => f.endsWith('.wav'));
    assert.deepEqual(audio, [], 'their audio spans are deleted');
    const answer = await api.query({ question: 'who keeps bees in Oaxwellton?' });
    assert.ok(!JSON.stringify(answer).includes('Oaxwellton'));
    const left = await api.memories({ include_history: true });
    assert.ok(left.some((m) => /Lisbon/.test(m.text)), 'other people keep their memories');
    // Ben's reply to them stays, searchable, without them as its addressee.
    const said = await api.interactions({ session_id: 'erase-text' });
    assert.deepEqual(said.map((u) => [u.text, u.addressees.length]), [['That sounds lovely, thanks for telling me.', 0]]);
    const hits = await t.app.stores.lexical.search(tenant, 'lovely', 5);
    assert.equal(hits.length, 1);
  });

  test('a consolidation job indexing their utterance while the erasure runs leaves nothing behind', async () => {
    const api = clientFor(t, deployment.headers);
    const posted = await api.postUtterances('erase-race', [{ speaker: 'Orsolya Ventrik', text: 'I breed axolotls in Quenwick.' }]);
    await drainConsolidation(t.app.stores.queue, 120_000);
    const id = (await api.interactions({ session_id: 'erase-race' }))[0]!.speaker.id;
    const uttId = posted.utterance_ids[0]!;
    // A job that read the utterance before the erasure began writes its keyword entry mid-way.
    const memory = t.app.stores.memory;
    const realDelete = memory.deleteParticipant.bind(memory);
    memory.deleteParticipant = async (...args: Parameters<typeof memory.deleteParticipant>) => {
      await t.app.stores.lexical.index(tenant, [{ id: uttId, text: 'I breed axolotls in Quenwick.', layer: 'interaction', sessionId: 'erase-race', speakerId: id, addresseeIds: [] }]);
      return realDelete(...args);
    };
    try {
      await api.eraseParticipant(id);
    } finally {
      memory.deleteParticipant = realDelete;
    }
    assert.deepEqual(await t.app.stores.lexical.search(tenant, 'axolotls Quenwick', 5), []);
  });

  test('an erasure cut short by a failing store leaves the person in place, and repeating it finishes', async () => {
    const api = clientFor(t, deployment.headers);
    const posted = await api.postUtterances('erase-retry', [
      { speaker: 'Quillon Varbeck', text: 'I repair harpsichords in Dunmorrow and I volunteer at the lighthouse.' },
      { speaker: 'Ben', text: 'Quillon, that is a rare trade.', addressees: ['Quillon Varbeck'] },
    ]);
    await drainConsolidation(t.app.stores.queue, 120_000);
    const id = (await api.interactions({ session_id: 'erase-retry' })).find((u) => u.text.startsWith('I repair'))!.speaker.id;
    assert.ok((await api.memories({ include_history: true })).some((m) => /harpsichord|Dunmorrow/i.test(m.text)), 'memories were made first');

    // The vector store fails once, part-way through the erasure.
    const vectors = t.app.stores.vectors;
    const realDelete = vectors.delete.bind(vectors);
    let failures = 0;
    vectors.delete = async (...args: Parameters<typeof vectors.delete>) => {
      if (failures++ === 0) throw new Error('vector store unreachable (injected)');
      return realDelete(...args);
    };
    try {
      await assert.rejects(api.eraseParticipant(id), (err: { status?: number }) => err.status === 500);
    } finally {
      vectors.delete = realDelete;
    }
    assert.equal((await api.participant(id)).id, id, 'the person is still there, so the erasure can be asked again');

    const erased = await api.eraseParticipant(id);
    assert.equal(erased.erased_utterances, 1);
    await assert.rejects(api.participant(id), (err: { status?: number }) => err.status === 404);
    const left = JSON.stringify(await api.memories({ include_history: true }));
    assert.doesNotMatch(left, /harpsichord|Dunmorrow|Quillon|Varbeck/i);
    assert.deepEqual(await t.app.stores.lexical.search(tenant, 'harpsichords Dunmorrow lighthouse', 5), []);
    const [vector] = await t.app.models.textEmbedder.embed(['I repair harpsichords in Dunmorrow']);
    for (const collection of ['interaction', 'fact', 'profile'].map((l) => `memory_${l}`)) {
      const near = await t.app.stores.vectors.search(tenant, collection, vector!, 10).catch(() => []);
      assert.ok(!near.some((h) => h.id === posted.utterance_ids[0]), `${collection} still finds the erased utterance`);
    }
    const said = await api.interactions({ session_id: 'erase-retry' });
    assert.deepEqual(said.map((u) => [u.text, u.addressees.length]), [['[erased], that is a rare trade.', 0]], 'his given name is redacted in Ben\'s reply');
  });
});
