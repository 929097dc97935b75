/**
 * Speaker revisions the first version left wrong (issue #17 item 2): a turn given back to its first speaker, and a
 * moved turn whose decisions were all KEEP. SQLite, the real USE-lite embedder and the embedded extractor.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { shownAttributes } from '../../../pipelines/interaction/participant-attributes.js';
import { collectionFor } from '../../../pipelines/memory/collections.js';
import { SPEAKER_REVISED } from '../../../pipelines/memory/revised-speaker.js';
import { sqliteRevisions } from './revised-speaker-fixture.js';

describe('a revised turn given back, or moved with only KEEPs (SQLite)', { timeout: 300_000 }, () => {
  const c = sqliteRevisions();

  test('a turn given back to its first speaker: the fact withdrawn from them is current again under its old id', async () => {
    const s = await c.fx.scene();
    await c.fx.move(s);
    await c.fx.run(s.sessionId, s.lisbonUid);
    const ben = await c.fx.expectRevised(s);
    assert.ok(await c.stores.graph.setUtteranceSpeaker(c.fx.tenant, s.lisbonUid, s.ana));
    const ops = (await c.fx.run(s.sessionId, s.lisbonUid)).flat();
    const { memory, graph } = c.stores;
    const T = c.fx.tenant;
    const lisbon = await memory.getFact(T, s.lisbon.id);
    assert.deepEqual([lisbon?.validTo, lisbon?.supersedes, lisbon?.speakerId], [null, s.porto.id, s.ana], "Ana's Lisbon is back, replacing Porto");
    const porto = await memory.getFact(T, s.porto.id);
    assert.deepEqual([porto?.validTo !== null, porto?.supersededBy], [true, s.lisbon.id], 'Porto closed by it again');
    assert.deepEqual((await memory.listFacts(T, { subjectId: s.ben })).map((f) => f.id), [], "Ben's Lisbon withdrawn");
    assert.deepEqual(await memory.processedFacts(T, s.lisbonUid), [s.lisbon.id]);
    assert.deepEqual(ops.map((o) => [o.op, o.memory_id, o.reason]), [
      ['DELETE', ben.id, SPEAKER_REVISED], ['UPDATE', s.lisbon.id, undefined],
    ]);
    const home = async (id: string): Promise<unknown> => shownAttributes((await graph.getParticipant(T, id))?.attributes ?? {}).lives_in;
    assert.deepEqual([await home(s.ana), await home(s.ben)], ['Lisbon', undefined], 'derived attributes follow');
    const [vector] = await c.embedder.embed(['lives in Lisbon']);
    const hits = await c.stores.vectors.search(T, collectionFor('profile'), vector as Float32Array, 10, { ids: [s.lisbon.id, s.porto.id, ben.id] });
    assert.deepEqual(hits.map((h) => h.id), [s.lisbon.id], 'searched again; Porto and Ben\'s are out');
    assert.deepEqual(await c.fx.run(s.sessionId, s.lisbonUid), [], 'run again: nothing more');
  });

  test('a moved turn whose only decision was KEEP is extracted for its new speaker', async () => {
    const s = await c.fx.scene();
    const again = await c.fx.say(s.sessionId, s.ana, s.ben, 'I moved to Lisbon last month.');
    const first = (await c.fx.run(s.sessionId, again)).flat();
    assert.deepEqual(first.map((o) => [o.op, o.memory_id]), [['KEEP', s.lisbon.id]], 'said again: a KEEP of what Ana said before');
    assert.ok(await c.stores.graph.setUtteranceSpeaker(c.fx.tenant, again, s.ben));
    const ops = (await c.fx.run(s.sessionId, again)).flat();
    const bens = await c.stores.memory.listFacts(c.fx.tenant, { subjectId: s.ben });
    assert.deepEqual(bens.map((f) => [f.slot, f.value, f.referIds]), [['lives_in', 'Lisbon', [again]]], 'Ben lives in Lisbon');
    assert.deepEqual(ops.map((o) => [o.op, o.memory_id]), [['ADD', bens[0]?.id]]);
    assert.equal((await c.stores.memory.getFact(c.fx.tenant, s.lisbon.id))?.validTo, null, "Ana's Lisbon untouched");
    assert.equal((await c.stores.memory.processedBy(c.fx.tenant, again))?.speakerId, s.ben);
    assert.deepEqual(await c.fx.run(s.sessionId, again), [], 'run again: nothing more');
  });

  test('a moved retraction: what it deleted of the old speaker is current again, and it is decided again for the new one', async () => {
    const s = await c.fx.scene();
    const T = c.fx.tenant;
    const { memory, graph } = c.stores;
    const retract = await c.fx.say(s.sessionId, s.ana, s.ben, "I don't live in Lisbon any more.");
    const first = (await c.fx.run(s.sessionId, retract)).flat();
    assert.deepEqual(first.map((o) => [o.op, o.memory_id]), [['DELETE', s.lisbon.id]], 'Ana retracts her Lisbon');
    assert.ok(await graph.setUtteranceSpeaker(T, retract, s.ben));
    const ops = (await c.fx.run(s.sessionId, retract)).flat();
    const lisbon = await memory.getFact(T, s.lisbon.id);
    assert.deepEqual([lisbon?.validTo, lisbon?.supersededBy], [null, null], "Ana's Lisbon is current again");
    const bens = await memory.listFacts(T, { subjectId: s.ben });
    assert.deepEqual(bens.map((f) => [f.speakerId, f.referIds]), [[s.ben, [retract]]], 'decided again for Ben (he had no Lisbon to delete)');
    assert.deepEqual(ops, [
      { op: 'ADD', memory_id: s.lisbon.id, text: s.lisbon.content, reason: SPEAKER_REVISED },
      { op: 'ADD', memory_id: bens[0]?.id, text: bens[0]?.content },
    ]);
    const home = async (id: string): Promise<unknown> => shownAttributes((await graph.getParticipant(T, id))?.attributes ?? {}).lives_in;
    assert.deepEqual([await home(s.ana), await home(s.ben)], ['Lisbon', undefined], 'derived attributes follow');
    const [vector] = await c.embedder.embed(['lives in Lisbon']);
    const hits = await c.stores.vectors.search(T, collectionFor('profile'), vector as Float32Array, 10, { ids: [s.lisbon.id] });
    assert.deepEqual(hits.map((h) => h.id), [s.lisbon.id], 'searched again');
    assert.deepEqual((await memory.processedBy(T, retract))?.speakerId, s.ben);
    assert.deepEqual(await c.fx.run(s.sessionId, retract), [], 'run again: nothing more');
  });
});
