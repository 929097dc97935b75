/**
 * Scenes of speaker revisions the first version left wrong (issue #17 item 2), each prepared up to the moment its moved
 * turn's job runs, with the state a whole run of that job must leave: a turn given back to its first speaker, a moved
 * turn whose only decision was KEEP, and a moved retraction.
 */
import assert from 'node:assert/strict';
import type { Fact } from '../../graph/memory-store.js';
import { shownAttributes } from '../../pipelines/interaction/participant-attributes.js';
import { collectionFor } from '../../pipelines/memory/collections.js';
import type { RevisionFixture, Scene } from './revised-speaker-fixture.js';

/** A prepared scene: `uid` is the moved turn, whose job is to run next. */
export interface Prepared {
  s: Scene;
  uid: string;
  /** Ben's fact from the turn before it was given back (the scene `back` only). */
  bens?: Fact;
}

/** One scene: how to prepare it and what a whole run of the moved turn's job leaves. */
export interface BackScene {
  name: string;
  prepare(fx: RevisionFixture): Promise<Prepared>;
  expect(fx: RevisionFixture, p: Prepared): Promise<void>;
}

async function home(fx: RevisionFixture, id: string): Promise<unknown> {
  return shownAttributes((await fx.stores.graph.getParticipant(fx.tenant, id))?.attributes ?? {}).lives_in;
}

async function profileHits(fx: RevisionFixture, ids: string[]): Promise<string[]> {
  const [vector] = await fx.embedder.embed(['lives in Lisbon']);
  return (await fx.stores.vectors.search(fx.tenant, collectionFor('profile'), vector as Float32Array, 10, { ids })).map((h) => h.id);
}

/** A new scene where Ana then says `text`, consolidated as one `op` on her Lisbon; that turn is then given to Ben. */
async function saidThenMoved(fx: RevisionFixture, text: string, op: 'KEEP' | 'DELETE'): Promise<Prepared> {
  const s = await fx.scene();
  const uid = await fx.say(s.sessionId, s.ana, s.ben, text);
  const first = (await fx.run(s.sessionId, uid)).flat();
  assert.deepEqual(first.map((o) => [o.op, o.memory_id]), [[op, s.lisbon.id]], `Ana's turn: a ${op} of her Lisbon`);
  assert.ok(await fx.stores.graph.setUtteranceSpeaker(fx.tenant, uid, s.ben));
  return { s, uid };
}

/** Lisbon said by Ana, given to Ben, then given back to Ana. */
export const back: BackScene = {
  name: 'a turn given back to its first speaker',
  async prepare(fx) {
    const s = await fx.scene();
    await fx.move(s);
    await fx.run(s.sessionId, s.lisbonUid);
    const bens = await fx.expectRevised(s);
    assert.ok(await fx.stores.graph.setUtteranceSpeaker(fx.tenant, s.lisbonUid, s.ana));
    return { s, uid: s.lisbonUid, bens };
  },
  async expect(fx, { s, bens }) {
    const { memory } = fx.stores;
    const lisbon = await memory.getFact(fx.tenant, s.lisbon.id);
    assert.deepEqual([lisbon?.validTo, lisbon?.supersedes, lisbon?.speakerId], [null, s.porto.id, s.ana], "Ana's Lisbon is back, replacing Porto");
    const porto = await memory.getFact(fx.tenant, s.porto.id);
    assert.deepEqual([porto?.validTo !== null, porto?.supersededBy], [true, s.lisbon.id], 'Porto closed by it again');
    assert.deepEqual((await memory.listFacts(fx.tenant, { subjectId: s.ben })).map((f) => f.id), [], "Ben's Lisbon withdrawn");
    assert.deepEqual(await memory.processedFacts(fx.tenant, s.lisbonUid), [s.lisbon.id]);
    assert.deepEqual([await home(fx, s.ana), await home(fx, s.ben)], ['Lisbon', undefined], 'derived attributes follow');
    assert.deepEqual(await profileHits(fx, [s.lisbon.id, s.porto.id, bens!.id]), [s.lisbon.id], "searched again; Porto and Ben's are out");
  },
};

/** Ana says Lisbon again (a KEEP of her Lisbon); that turn is given to Ben. */
export const keepOnly: BackScene = {
  name: 'a moved turn whose only decision was KEEP',
  prepare: (fx) => saidThenMoved(fx, 'I moved to Lisbon last month.', 'KEEP'),
  async expect(fx, { s, uid }) {
    const { memory } = fx.stores;
    const bens = await memory.listFacts(fx.tenant, { subjectId: s.ben });
    assert.deepEqual(bens.map((f) => [f.slot, f.value, f.referIds]), [['lives_in', 'Lisbon', [uid]]], 'Ben lives in Lisbon');
    assert.equal((await memory.getFact(fx.tenant, s.lisbon.id))?.validTo, null, "Ana's Lisbon untouched");
    assert.equal((await memory.processedBy(fx.tenant, uid))?.speakerId, s.ben);
    assert.deepEqual([await home(fx, s.ana), await home(fx, s.ben)], ['Lisbon', 'Lisbon']);
  },
};

/** Ana retracts her Lisbon ("I don't live in Lisbon any more"); that turn is given to Ben. */
export const retraction: BackScene = {
  name: 'a moved retraction',
  prepare: (fx) => saidThenMoved(fx, "I don't live in Lisbon any more.", 'DELETE'),
  async expect(fx, { s, uid }) {
    const { memory } = fx.stores;
    const lisbon = await memory.getFact(fx.tenant, s.lisbon.id);
    assert.deepEqual([lisbon?.validTo, lisbon?.supersededBy], [null, null], "Ana's Lisbon is current again");
    const bens = await memory.listFacts(fx.tenant, { subjectId: s.ben, includeHistory: true });
    assert.deepEqual(bens.map((f) => [f.speakerId, f.referIds, f.validTo]), [[s.ben, [uid], null]], 'decided again for Ben (he had no Lisbon to delete)');
    assert.deepEqual([await home(fx, s.ana), await home(fx, s.ben)], ['Lisbon', undefined], 'derived attributes follow');
    assert.deepEqual(await profileHits(fx, [s.lisbon.id]), [s.lisbon.id], 'searched again');
    assert.equal((await memory.processedBy(fx.tenant, uid))?.speakerId, s.ben);
  },
};

/** Every scene. */
export const BACK_SCENES: readonly BackScene[] = [back, keepOnly, retraction];
