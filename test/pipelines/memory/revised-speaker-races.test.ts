import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TextEmbedder } from '../../../pipelines/embeddings/text-embedder.js';
import type { ExtractionInput, Extractor } from '../../../pipelines/memory/extractor.js';
import type { MemoryOp } from '../../../pipelines/memory/consolidate.js';
import { MemoryIndexer } from '../../../pipelines/memory/memory-indexer.js';
import { SPEAKER_REVISED, withdrawMoved } from '../../../pipelines/memory/revised-speaker.js';
import { sqliteRevisions } from '../../helpers/revised-speaker-fixture.js';

/** `fn` whose first call waits until `release` is called; `reached` resolves when that call is made. */
function firstCallHeld<A, R>(fn: (a: A) => Promise<R>): { fn: (a: A) => Promise<R>; reached: Promise<void>; release: () => void } {
  let arrive = (): void => {};
  let release = (): void => {};
  const reached = new Promise<void>((r) => { arrive = r; });
  const gate = new Promise<void>((r) => { release = r; });
  let first = true;
  const held = async (a: A): Promise<R> => {
    if (first) {
      first = false;
      arrive();
      await gate;
    }
    return fn(a);
  };
  return { fn: held, reached, release };
}

/** `embedder` whose first `embed` call is held (`firstCallHeld`). */
function heldEmbedder(embedder: TextEmbedder): { embedder: TextEmbedder; reached: Promise<void>; release: () => void } {
  const h = firstCallHeld((texts: string[]) => embedder.embed(texts));
  return { embedder: { space: embedder.space, embed: h.fn, close: async () => {} }, reached: h.reached, release: h.release };
}

/** `extractor` whose first `extract` call is held (`firstCallHeld`). */
function heldExtractor(extractor: Extractor): { extractor: Extractor; reached: Promise<void>; release: () => void } {
  const h = firstCallHeld((input: ExtractionInput) => extractor.extract(input));
  return { extractor: { source: extractor.source, extract: h.fn }, reached: h.reached, release: h.release };
}

describe('speaker revisions racing consolidation and merges (SQLite)', { timeout: 300_000 }, () => {
  const c = sqliteRevisions();

  test('a job that read the turn before it was moved writes nothing once the move\'s job has consolidated it', async () => {
    const s = await c.fx.scene();
    const uid = await c.fx.say(s.sessionId, s.ana, s.ben, 'I moved to Madrid.');
    const hold = heldEmbedder(c.embedder);
    const ops: MemoryOp[][] = [];
    // The first job read the turn as Ana's and extracted it; it waits on the embedder.
    const first = c.fx.run(s.sessionId, uid, c.stores, ops, { embedder: hold.embedder });
    await hold.reached;
    assert.ok(await c.stores.graph.setUtteranceSpeaker(c.fx.tenant, uid, s.ben));
    await c.fx.run(s.sessionId, uid);
    const [bens] = await c.stores.memory.listFacts(c.fx.tenant, { subjectId: s.ben, slot: 'lives_in' });
    assert.ok(bens);
    assert.deepEqual([bens.value, bens.speakerId], ['Madrid', s.ben]);
    hold.release();
    await first;
    assert.deepEqual(ops, [], 'the first job sends nothing');
    const anas = await c.stores.memory.listFacts(c.fx.tenant, { subjectId: s.ana, slot: 'lives_in' });
    assert.deepEqual(anas.map((f) => f.id), [s.lisbon.id], 'Ana still lives in Lisbon');
    const now = await c.stores.memory.getFact(c.fx.tenant, bens.id);
    assert.deepEqual([now?.validTo, now?.speakerId], [null, s.ben], 'Ben\'s Madrid is not withdrawn');
    assert.deepEqual(await c.stores.memory.processedFacts(c.fx.tenant, uid), [bens.id]);
  });

  test('a job still extracting when the turn was moved keeps its extraction after the move\'s job began: that job sets it aside', async () => {
    const { fx, stores } = c;
    const s = await fx.scene();
    const uid = await fx.say(s.sessionId, s.ana, s.ben, 'I moved to Madrid.');
    const old = heldExtractor(fx.extractor);
    const first = fx.run(s.sessionId, uid, stores, [], { extractor: old.extractor });
    await old.reached;
    assert.ok(await stores.graph.setUtteranceSpeaker(fx.tenant, uid, s.ben));
    const moved = heldExtractor(fx.extractor);
    const second = fx.run(s.sessionId, uid, stores, [], { extractor: moved.extractor });
    await moved.reached;
    // The first job keeps Ana's extraction while the move's job is extracting, then writes nothing.
    old.release();
    await first;
    moved.release();
    await second;
    const [bens] = await stores.memory.listFacts(fx.tenant, { subjectId: s.ben, slot: 'lives_in' });
    assert.deepEqual([bens?.value, bens?.speakerId], ['Madrid', s.ben], 'extracted for Ben');
    assert.deepEqual((await stores.memory.listFacts(fx.tenant, { subjectId: s.ana, slot: 'lives_in' })).map((f) => f.id), [s.lisbon.id]);
    assert.deepEqual(await stores.memory.processedFacts(fx.tenant, uid), [bens?.id]);
    assert.equal(await stores.memory.keptExtraction(fx.tenant, uid), null);
  });

  test('a half-done merge (utterances re-pointed, facts not yet relabelled) is no revision: nothing is withdrawn', async () => {
    const s = await c.fx.scene();
    await c.stores.graph.mergeParticipants(c.fx.tenant, s.ana, s.ben);
    const ops = (await c.fx.run(s.sessionId, s.lisbonUid)).flat();
    assert.deepEqual(ops, [], 'only re-indexed');
    const lisbon = await c.stores.memory.getFact(c.fx.tenant, s.lisbon.id);
    assert.deepEqual([lisbon?.validTo, lisbon?.speakerId], [null, s.ana], 'still current, relabelled by the merge\'s next step');
    await c.stores.memory.relabelParticipant(c.fx.tenant, s.ana, s.ben);
    assert.equal((await c.stores.memory.getFact(c.fx.tenant, s.lisbon.id))?.speakerId, s.ben);
  });

  test('what a cut first run stored is reported withdrawn even when the re-extraction then fails', async () => {
    const s = await c.fx.scene(true);
    await c.fx.move(s);
    // Test double for an LLM extractor that is down.
    const down: Extractor = { source: 'test-double/down', extract: async () => { throw new Error('extractor down'); } };
    const ops: MemoryOp[][] = [];
    await assert.rejects(c.fx.run(s.sessionId, s.lisbonUid, c.stores, ops, { extractor: down }), /extractor down/);
    assert.deepEqual(ops.flat().map((o) => [o.op, o.memory_id, o.reason]), [
      ['DELETE', s.lisbon.id, SPEAKER_REVISED], ['ADD', s.porto.id, SPEAKER_REVISED],
    ]);
    assert.deepEqual((await c.stores.memory.listFacts(c.fx.tenant, { subjectId: s.ana, slot: 'lives_in' })).map((f) => f.id), [s.porto.id]);
  });

  test('a withdrawn fact that had closed another participant\'s plan reopens it', async () => {
    const s = await c.fx.scene();
    const uid = await c.fx.say(s.sessionId, s.ana, s.ben, 'I painted the fence.');
    const base = { addresseeIds: [s.ana], slot: null, value: null, time: s.lisbon.time, confidence: 0.9, sessionId: s.sessionId, validFrom: s.lisbon.time, source: 'test' };
    const [plan] = await c.stores.memory.addFacts(c.fx.tenant, [{ ...base, content: 'Ben will paint the fence', speakerId: s.ben, subjectId: s.ben,
      kind: 'plan', referIds: [s.porto.referIds[0]!], supersedes: null }]);
    assert.ok(plan);
    const [done] = await c.stores.memory.addFacts(c.fx.tenant, [{ ...base, content: 'Ana painted the fence', speakerId: s.ana, subjectId: s.ana,
      kind: 'statement', referIds: [uid], supersedes: plan.id }]);
    assert.ok(done);
    assert.ok(await c.stores.memory.closeFact(c.fx.tenant, plan.id, s.lisbon.time, done.id));
    const u = await c.stores.graph.setUtteranceSpeaker(c.fx.tenant, uid, s.ben);
    assert.ok(u);
    const indexer = new MemoryIndexer(c.stores.vectors, c.stores.lexical, c.embedder, 'auto');
    const ops = await withdrawMoved(c.stores, indexer, c.fx.tenant, u, [done], new AbortController().signal);
    assert.deepEqual(ops.map((o) => [o.op, o.memory_id]), [['DELETE', done.id], ['ADD', plan.id]]);
    const reopened = await c.stores.memory.getFact(c.fx.tenant, plan.id);
    assert.deepEqual([reopened?.validTo, reopened?.supersededBy], [null, null], 'Ben\'s plan is open again');
  });
});
