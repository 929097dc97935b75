import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TextEmbedder } from '../../../pipelines/embeddings/text-embedder.js';
import { UseLiteEmbedder } from '../../../pipelines/embeddings/use-lite-embedder.js';
import type { Extractor } from '../../../pipelines/memory/extractor.js';
import type { MemoryOp } from '../../../pipelines/memory/consolidate.js';
import { MemoryIndexer } from '../../../pipelines/memory/memory-indexer.js';
import { SPEAKER_REVISED, withdrawMoved } from '../../../pipelines/memory/revised-speaker.js';
import { sqliteJobStores, type OpenJobStores } from '../../helpers/job-stores.js';
import { RevisionFixture } from './revised-speaker-fixture.js';

/** `embedder` whose first `embed` call waits until `release` is called; `reached` resolves when it is made. */
function heldEmbedder(embedder: TextEmbedder): { embedder: TextEmbedder; reached: Promise<void>; release: () => void } {
  let arrive = (): void => {};
  let release = (): void => {};
  const reached = new Promise<void>((r) => { arrive = r; });
  const gate = new Promise<void>((r) => { release = r; });
  let first = true;
  const held: TextEmbedder = {
    space: embedder.space,
    embed: async (texts) => {
      if (first) {
        first = false;
        arrive();
        await gate;
      }
      return embedder.embed(texts);
    },
    close: async () => {},
  };
  return { embedder: held, reached, release };
}

describe('speaker revisions racing consolidation and merges (SQLite)', { timeout: 300_000 }, () => {
  let stores: OpenJobStores;
  let fx: RevisionFixture;
  const embedder = new UseLiteEmbedder();
  before(() => {
    stores = sqliteJobStores();
    fx = new RevisionFixture(stores, embedder);
  });
  after(async () => {
    await embedder.close();
    await stores.dispose();
  });

  test('a job that read the turn before it was moved writes nothing once the move\'s job has consolidated it', async () => {
    const s = await fx.scene();
    const uid = await fx.say(s.sessionId, s.ana, s.ben, 'I moved to Madrid.');
    const hold = heldEmbedder(embedder);
    const ops: MemoryOp[][] = [];
    // The first job read the turn as Ana's and extracted it; it waits on the embedder.
    const first = fx.run(s.sessionId, uid, stores, ops, { embedder: hold.embedder });
    await hold.reached;
    assert.ok(await stores.graph.setUtteranceSpeaker(fx.tenant, uid, s.ben));
    await fx.run(s.sessionId, uid);
    const [bens] = await stores.memory.listFacts(fx.tenant, { subjectId: s.ben, slot: 'lives_in' });
    assert.ok(bens);
    assert.deepEqual([bens.value, bens.speakerId], ['Madrid', s.ben]);
    hold.release();
    await first;
    assert.deepEqual(ops, [], 'the first job sends nothing');
    const anas = await stores.memory.listFacts(fx.tenant, { subjectId: s.ana, slot: 'lives_in' });
    assert.deepEqual(anas.map((f) => f.id), [s.lisbon.id], 'Ana still lives in Lisbon');
    const now = await stores.memory.getFact(fx.tenant, bens.id);
    assert.deepEqual([now?.validTo, now?.speakerId], [null, s.ben], 'Ben\'s Madrid is not withdrawn');
    assert.deepEqual(await stores.memory.processedFacts(fx.tenant, uid), [bens.id]);
  });

  test('a half-done merge (utterances re-pointed, facts not yet relabelled) is no revision: nothing is withdrawn', async () => {
    const s = await fx.scene();
    await stores.graph.mergeParticipants(fx.tenant, s.ana, s.ben);
    const ops = (await fx.run(s.sessionId, s.lisbonUid)).flat();
    assert.deepEqual(ops, [], 'only re-indexed');
    const lisbon = await stores.memory.getFact(fx.tenant, s.lisbon.id);
    assert.deepEqual([lisbon?.validTo, lisbon?.speakerId], [null, s.ana], 'still current, relabelled by the merge\'s next step');
    await stores.memory.relabelParticipant(fx.tenant, s.ana, s.ben);
    assert.equal((await stores.memory.getFact(fx.tenant, s.lisbon.id))?.speakerId, s.ben);
  });

  test('what a cut first run stored is reported withdrawn even when the re-extraction then fails', async () => {
    const s = await fx.scene(true);
    await fx.move(s);
    // Test double for an LLM extractor that is down.
    const down: Extractor = { source: 'test-double/down', extract: async () => { throw new Error('extractor down'); } };
    const ops: MemoryOp[][] = [];
    await assert.rejects(fx.run(s.sessionId, s.lisbonUid, stores, ops, { extractor: down }), /extractor down/);
    assert.deepEqual(ops.flat().map((o) => [o.op, o.memory_id, o.reason]), [
      ['DELETE', s.lisbon.id, SPEAKER_REVISED], ['ADD', s.porto.id, SPEAKER_REVISED],
    ]);
    assert.deepEqual((await stores.memory.listFacts(fx.tenant, { subjectId: s.ana, slot: 'lives_in' })).map((f) => f.id), [s.porto.id]);
  });

  test('a withdrawn fact that had closed another participant\'s plan reopens it', async () => {
    const s = await fx.scene();
    const uid = await fx.say(s.sessionId, s.ana, s.ben, 'I painted the fence.');
    const base = { addresseeIds: [s.ana], slot: null, value: null, time: s.lisbon.time, confidence: 0.9, sessionId: s.sessionId, validFrom: s.lisbon.time, source: 'test' };
    const [plan] = await stores.memory.addFacts(fx.tenant, [{ ...base, content: 'Ben will paint the fence', speakerId: s.ben, subjectId: s.ben,
      kind: 'plan', referIds: [s.porto.referIds[0]!], supersedes: null }]);
    assert.ok(plan);
    const [done] = await stores.memory.addFacts(fx.tenant, [{ ...base, content: 'Ana painted the fence', speakerId: s.ana, subjectId: s.ana,
      kind: 'statement', referIds: [uid], supersedes: plan.id }]);
    assert.ok(done);
    assert.ok(await stores.memory.closeFact(fx.tenant, plan.id, s.lisbon.time, done.id));
    const u = await stores.graph.setUtteranceSpeaker(fx.tenant, uid, s.ben);
    assert.ok(u);
    const indexer = new MemoryIndexer(stores.vectors, stores.lexical, embedder);
    const ops = await withdrawMoved(stores, indexer, fx.tenant, u, [done], new AbortController().signal);
    assert.deepEqual(ops.map((o) => [o.op, o.memory_id]), [['DELETE', done.id], ['ADD', plan.id]]);
    const reopened = await stores.memory.getFact(fx.tenant, plan.id);
    assert.deepEqual([reopened?.validTo, reopened?.supersededBy], [null, null], 'Ben\'s plan is open again');
  });
});
