/**
 * Speaker revisions the review of revfacts3 found wrong (issue #17 item 2): a moved retraction whose slot a later fact
 * took, a turn given back after its old speaker said something newer, and a moved "I'm Ana" of someone the client named. Real stores (SQLite; Neo4j when
 * `NEO4J_URI` is set), the real USE-lite embedder and the embedded extractor.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { shownAttributes } from '../../../pipelines/interaction/participant-attributes.js';
import { NEO4J_SKIP } from '../../helpers/stores.js';
import { neo4jJobStores, sqliteJobStores, type OpenJobStores } from '../../helpers/job-stores.js';
import { revisions } from '../../helpers/revised-speaker-fixture.js';

function newerSuite(name: string, open: () => OpenJobStores, skip?: string): void {
  describe(`a speaker revision that meets a newer fact: ${name}`, { skip, timeout: 300_000 }, () => {
    const c = revisions(open);
    const homes = async (id: string): Promise<unknown[]> =>
      (await c.stores.memory.listFacts(c.fx.tenant, { subjectId: id, slot: 'lives_in' })).map((f) => f.value);
    const home = async (id: string): Promise<unknown> =>
      shownAttributes((await c.stores.graph.getParticipant(c.fx.tenant, id))?.attributes ?? {}).lives_in;

    test('a moved retraction does not reopen what a later fact replaced: it stays history, closed by that fact', async () => {
      const { memory, graph } = c.stores;
      const s = await c.fx.scene();
      const uid = await c.fx.say(s.sessionId, s.ana, s.ben, "I don't live in Lisbon any more.");
      await c.fx.run(s.sessionId, uid);
      const madridUid = await c.fx.say(s.sessionId, s.ana, s.ben, 'I live in Madrid.');
      await c.fx.run(s.sessionId, madridUid);
      assert.deepEqual(await homes(s.ana), ['Madrid']);
      const [madrid] = await memory.listFacts(c.fx.tenant, { subjectId: s.ana, slot: 'lives_in' });
      assert.ok(await graph.setUtteranceSpeaker(c.fx.tenant, uid, s.ben));
      const ops = (await c.fx.run(s.sessionId, uid)).flat();
      assert.deepEqual(await homes(s.ana), ['Madrid'], 'Ana lives in Madrid only, not in Lisbon too');
      const lisbon = await memory.getFact(c.fx.tenant, s.lisbon.id);
      assert.deepEqual([lisbon?.validTo, lisbon?.supersededBy], [madrid?.validFrom, madrid?.id], 'Lisbon: history, replaced by Madrid');
      assert.ok(!ops.some((o) => o.memory_id === s.lisbon.id), 'no op brings Lisbon back');
      assert.equal(await home(s.ana), 'Madrid');
      assert.deepEqual(await c.fx.run(s.sessionId, uid), [], 'run again: nothing more');
      assert.deepEqual(await homes(s.ana), ['Madrid']);
    });

    test('a turn given back after a newer fact of its speaker does not replace it: restored as history, closed where it began', async () => {
      const { memory, graph } = c.stores;
      const s = await c.fx.scene();
      await c.fx.move(s);
      await c.fx.run(s.sessionId, s.lisbonUid);
      const madridUid = await c.fx.say(s.sessionId, s.ana, s.ben, 'I live in Madrid.');
      await c.fx.run(s.sessionId, madridUid);
      const [madrid] = await memory.listFacts(c.fx.tenant, { subjectId: s.ana, slot: 'lives_in' });
      assert.equal(madrid?.value, 'Madrid');
      assert.ok(await graph.setUtteranceSpeaker(c.fx.tenant, s.lisbonUid, s.ana));
      const ops = (await c.fx.run(s.sessionId, s.lisbonUid)).flat();
      const madridNow = await memory.getFact(c.fx.tenant, madrid!.id);
      assert.deepEqual([madridNow?.validTo, madridNow?.supersededBy], [null, null], 'Madrid stays current');
      assert.deepEqual(await homes(s.ana), ['Madrid']);
      const lisbon = await memory.getFact(c.fx.tenant, s.lisbon.id);
      assert.deepEqual([lisbon?.validTo, lisbon?.supersededBy], [madrid?.validFrom, madrid?.id], 'Lisbon: history, replaced by Madrid');
      assert.ok(!ops.some((o) => o.memory_id === s.lisbon.id || o.memory_id === madrid?.id), 'neither is sent as changed');
      assert.deepEqual(await memory.processedFacts(c.fx.tenant, s.lisbonUid), [s.lisbon.id]);
      assert.deepEqual([await home(s.ana), await home(s.ben)], ['Madrid', undefined]);
      assert.deepEqual(await c.fx.run(s.sessionId, s.lisbonUid), [], 'run again: nothing more');
    });

    test('a moved "I\'m Ana" leaves a name the client set at creation; one it taught is taken back', async () => {
      const { graph } = c.stores;
      const T = c.fx.tenant;
      const sid = `s-client-name-${Date.now()}`;
      await graph.openSession(T, sid, '2026-12-01T09:00:00.000Z');
      const [named, nobody, other] = [await graph.createParticipant(T, { name: 'Ana' }), await graph.createParticipant(T, {}), await graph.createParticipant(T, {})];
      const said = [await c.fx.say(sid, named.id, other.id, "Hi, I'm Ana."), await c.fx.say(sid, nobody.id, other.id, "Hi, I'm Cleo.")];
      for (const uid of said) await c.fx.run(sid, uid);
      assert.deepEqual([(await graph.getParticipant(T, named.id))?.name, (await graph.getParticipant(T, nobody.id))?.name], ['Ana', 'Cleo']);
      for (const uid of said) {
        assert.ok(await graph.setUtteranceSpeaker(T, uid, other.id));
        await c.fx.run(sid, uid);
      }
      const p = await graph.getParticipant(T, named.id);
      assert.deepEqual([p?.name, p?.aliases], ['Ana', []], 'the name the client gave stays');
      assert.equal((await graph.getParticipant(T, nobody.id))?.name, null, 'the name the turn taught is taken back');
      assert.deepEqual(Object.keys(shownAttributes(p?.attributes ?? {})), [], 'the record of taught names is never shown');
    });

    test('a turn moved away from a speaker erased before its job ran is extracted for its new speaker', async () => {
      const { memory, graph } = c.stores;
      const T = c.fx.tenant;
      const s = await c.fx.scene();
      await c.fx.move(s);
      await memory.deleteParticipant(T, s.ana);
      assert.ok(await graph.deleteParticipant(T, s.ana));
      await c.fx.run(s.sessionId, s.lisbonUid);
      const bens = await memory.listFacts(T, { subjectId: s.ben });
      assert.deepEqual(bens.map((f) => [f.slot, f.value, f.referIds]), [['lives_in', 'Lisbon', [s.lisbonUid]]], 'Ben lives in Lisbon');
      assert.equal((await memory.processedBy(T, s.lisbonUid))?.speakerId, s.ben);
      assert.deepEqual(await c.fx.run(s.sessionId, s.lisbonUid), [], 'run again: nothing more');
    });
  });
}

newerSuite('SQLite', sqliteJobStores);
newerSuite('Neo4j (every store)', () => neo4jJobStores('test-revised-newer'), NEO4J_SKIP);
