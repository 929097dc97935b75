/**
 * Speaker revisions the first version left wrong (issue #17 item 2): a turn given back to its first speaker, a moved
 * turn whose decisions were all KEEP, and a moved retraction. Real stores (SQLite; Neo4j when `NEO4J_URI` is set), the
 * real USE-lite embedder and the embedded extractor.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SPEAKER_REVISED } from '../../../pipelines/memory/revised-speaker.js';
import { NEO4J_SKIP } from '../../helpers/stores.js';
import { neo4jJobStores, sqliteJobStores, type OpenJobStores } from '../../helpers/job-stores.js';
import { back, keepOnly, retraction } from '../../helpers/revised-speaker-back-scenes.js';
import { revisions } from '../../helpers/revised-speaker-fixture.js';

function backSuite(name: string, open: () => OpenJobStores, skip?: string): void {
  describe(`a revised turn given back, moved with only KEEPs, or a moved retraction: ${name}`, { skip, timeout: 300_000 }, () => {
    const c = revisions(open);

    test('a turn given back to its first speaker: the fact withdrawn from them is current again under its old id', async () => {
      const p = await back.prepare(c.fx);
      const ops = (await c.fx.run(p.s.sessionId, p.uid)).flat();
      await back.expect(c.fx, p);
      assert.deepEqual(ops.map((o) => [o.op, o.memory_id, o.reason]), [
        ['DELETE', p.bens?.id, SPEAKER_REVISED], ['UPDATE', p.s.lisbon.id, undefined],
      ]);
      assert.deepEqual(await c.fx.run(p.s.sessionId, p.uid), [], 'run again: nothing more');
    });

    test('a moved turn whose only decision was KEEP is extracted for its new speaker', async () => {
      const p = await keepOnly.prepare(c.fx);
      const ops = (await c.fx.run(p.s.sessionId, p.uid)).flat();
      await keepOnly.expect(c.fx, p);
      const [ben] = await c.stores.memory.listFacts(c.fx.tenant, { subjectId: p.s.ben });
      assert.deepEqual(ops.map((o) => [o.op, o.memory_id]), [['ADD', ben?.id]]);
      assert.deepEqual(await c.fx.run(p.s.sessionId, p.uid), [], 'run again: nothing more');
    });

    test('a moved retraction: what it deleted of the old speaker is current again, and it is decided again for the new one', async () => {
      const p = await retraction.prepare(c.fx);
      const ops = (await c.fx.run(p.s.sessionId, p.uid)).flat();
      await retraction.expect(c.fx, p);
      const [ben] = await c.stores.memory.listFacts(c.fx.tenant, { subjectId: p.s.ben });
      assert.deepEqual(ops, [
        { op: 'ADD', memory_id: p.s.lisbon.id, text: p.s.lisbon.content, reason: SPEAKER_REVISED },
        { op: 'ADD', memory_id: ben?.id, text: ben?.content },
      ]);
      assert.deepEqual(await c.fx.run(p.s.sessionId, p.uid), [], 'run again: nothing more');
    });

    test('a moved "I\'m Ana": the name, or the alias, it taught leaves the old speaker and names the new one', async () => {
      const { graph } = c.stores;
      const T = c.fx.tenant;
      const sid = `s-name-${Date.now()}`;
      await graph.openSession(T, sid, '2026-12-01T09:00:00.000Z');
      const [nobody, zoe, other] = [await graph.createParticipant(T, {}), await graph.createParticipant(T, { name: 'Zoe' }), await graph.createParticipant(T, {})];
      const said = [await c.fx.say(sid, nobody.id, other.id, "Hi, I'm Ana."), await c.fx.say(sid, zoe.id, other.id, "Hi, I'm Ana.")];
      for (const uid of said) await c.fx.run(sid, uid);
      const names = async (id: string): Promise<unknown[]> => {
        const p = await graph.getParticipant(T, id);
        return [p?.name, p?.aliases];
      };
      assert.deepEqual([await names(nobody.id), await names(zoe.id)], [['Ana', []], ['Zoe', ['Ana']]], 'taught by the turns');
      for (const uid of said) {
        assert.ok(await graph.setUtteranceSpeaker(T, uid, other.id));
        await c.fx.run(sid, uid);
      }
      assert.deepEqual([await names(nobody.id), await names(zoe.id)], [[null, []], ['Zoe', []]], 'taken away from the old speakers');
      assert.deepEqual(await names(other.id), ['Ana', []], 'the new speaker is named by the re-extraction');
      const [ana] = await c.stores.memory.listFacts(T, { subjectId: other.id, slot: 'name' });
      assert.equal(ana?.value, 'Ana');
    });
  });
}

backSuite('SQLite', sqliteJobStores);
backSuite('Neo4j (every store)', () => neo4jJobStores('test-revised-back'), NEO4J_SKIP);
