/**
 * A batched Neo4j merge (`mergeParticipantBatched`) holds both participants from its check to its last transaction:
 * another merge touching either, an erasure of either and a change of either's external id are refused with 409 while
 * it runs (its `merging` marker), each batch stops when either participant is gone, and a merge cut short is finished
 * by the same merge sent again while others stay refused until then. Interleavings are injected by wrapping the
 * merging store's `db.write` (no timing).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { NewUtterance } from '../../graph/graph-store.js';
import type { Participant } from '../../graph/types.js';
import { Neo4jGraphStore } from '../../graph/neo4j/neo4j-graph-store.js';
import type { Neo4jRunner } from '../../graph/neo4j/neo4j-connection.js';
import { backfillParticipantNames } from '../../graph/neo4j/neo4j-participant-names.js';
import { neo4jStoreParts } from '../helpers/neo4j-store-parts.js';
import { NEO4J_SKIP } from '../helpers/stores.js';

const say = (sessionId: string, speakerId: string, text: string, addresseeIds: string[] = []): NewUtterance => ({
  sessionId, speakerId, addresseeIds, text, startMs: null, endMs: null, time: '2026-12-01T00:00:00.000Z', confidence: null, audioRef: null,
});

type Write = Neo4jRunner['write'];

/** Run `before` (once) when `store` is about to run its write transaction named `what`. */
function beforeWrite(store: Neo4jGraphStore, what: string, before: () => Promise<void>): void {
  const db = (store as unknown as { db: Neo4jRunner }).db;
  const write = db.write.bind(db) as Write;
  let done = false;
  db.write = (async (name: string, work: Parameters<Write>[1]) => {
    if (name === what && !done) {
      done = true;
      await before();
    }
    return write(name, work);
  }) as Write;
}

const code = (expected: string) => (err: unknown) => (err as { code?: string }).code === expected;

/**
 * Run `body` on a fresh tenant with Xena (who spoke five turns), an unnamed Y and Zed: `other` is a store that acts
 * beside `merger`, whose writes a test may wrap (`beforeWrite`). Everything goes afterwards.
 */
async function withThree(label: string, body: (s: {
  parts: ReturnType<typeof neo4jStoreParts>; other: Neo4jGraphStore; merger: Neo4jGraphStore; x: Participant; y: Participant; z: Participant; spoken: string[];
}) => Promise<void>): Promise<void> {
  const parts = neo4jStoreParts(label);
  const other = parts.store;
  const merger = new Neo4jGraphStore(parts.options);
  try {
    const x = await other.createParticipant('t1', { name: 'Xena' });
    const y = await other.createParticipant('t1', {});
    const z = await other.createParticipant('t1', { name: 'Zed' });
    const spoken = (await other.addUtterances('t1', Array.from({ length: 5 }, (_, i) => say('s1', x.id, `line ${i}`)))).map((u) => u.id);
    await body({ parts, other, merger, x, y, z, spoken });
  } finally {
    await other.eraseAll();
    await merger.close();
    await other.close();
  }
}

describe('Neo4j: a batched merge holds both participants', { skip: NEO4J_SKIP }, () => {
  test('another merge, an erasure or an external-id change of either is refused while it runs', () => withThree('test-merge-guard', async ({ other, merger, x, y, z, spoken }) => {
    beforeWrite(merger, 'mergeParticipants.speakers', async () => {
      await assert.rejects(other.mergeParticipants('t1', y.id, z.id), code('PARLEY_ERR_CONFLICT'));
      await assert.rejects(other.mergeParticipants('t1', z.id, x.id), code('PARLEY_ERR_CONFLICT'));
      await assert.rejects(other.deleteParticipant('t1', y.id), code('PARLEY_ERR_CONFLICT'));
      await assert.rejects(other.beginClaimedErasure('t1', x.id, '{}', [], { owner: 'o', now: new Date().toISOString(), until: new Date(Date.now() + 60_000).toISOString() }),
        code('PARLEY_ERR_CONFLICT'));
      await assert.rejects(other.updateParticipant('t1', y.id, { externalId: 'crm-1' }), code('PARLEY_ERR_CONFLICT'));
      // What does not touch the merge still works.
      assert.equal((await other.updateParticipant('t1', z.id, { externalId: 'crm-2' }))?.externalId, 'crm-2');
    });
    await merger.mergeParticipants('t1', x.id, y.id);

    assert.equal(await other.getParticipant('t1', x.id), null);
    assert.deepEqual(await other.retiredParticipant('t1', x.id), { mergedInto: y.id });
    assert.equal((await other.getParticipant('t1', y.id))?.name, 'Xena');
    assert.ok((await other.getUtterances('t1', spoken)).every((u) => u.speakerId === y.id));
    assert.deepEqual(await other.pendingErasures('t1'), []);
    // Done: the marker is gone, so the survivor merges, and is erased, as any participant.
    assert.equal((await other.updateParticipant('t1', y.id, { externalId: 'crm-1' }))?.externalId, 'crm-1');
    await other.updateParticipant('t1', z.id, { externalId: null });
    await other.mergeParticipants('t1', z.id, y.id);
    assert.deepEqual(await other.retiredParticipant('t1', z.id), { mergedInto: y.id });
    assert.deepEqual(await other.deleteParticipant('t1', y.id), spoken);
  }));

  test('a merge whose survivor disappears part-way stops with 404 and moves nothing more to it', () => withThree('test-merge-gone', async ({ parts, other, merger, x, y, spoken }) => {
    const { driver, tenant, db } = parts;
    // What any path that ignored the marker (or a store without it) would do: the survivor removed between two batches.
    beforeWrite(merger, 'mergeParticipants.speakers', async () => {
      await driver.executeQuery('MATCH (p:Participant {tenant: $tenant, id: $id}) DETACH DELETE p', { tenant, id: y.id }, db);
    });
    await assert.rejects(merger.mergeParticipants('t1', x.id, y.id), code('PARLEY_ERR_NOT_FOUND'));
    assert.ok((await other.getUtterances('t1', spoken)).every((u) => u.speakerId === x.id), 'the turns stay with the participant still there');
    assert.ok(await other.getParticipant('t1', x.id));
    assert.equal(await other.retiredParticipant('t1', x.id), null);
  }));

  test('a merge cut short keeps both held: the same merge sent again finishes it, another pair is refused until then', () => withThree('test-merge-resend', async ({ other, merger, x, y, z, spoken }) => {
    // An outage (or a crash) right after the check transaction committed.
    beforeWrite(merger, 'mergeParticipants.speakers', () => Promise.reject(new Error('connection lost')));
    await assert.rejects(merger.mergeParticipants('t1', x.id, y.id), /connection lost/);

    await assert.rejects(other.mergeParticipants('t1', y.id, z.id), code('PARLEY_ERR_CONFLICT'));
    await assert.rejects(other.mergeParticipants('t1', y.id, x.id), code('PARLEY_ERR_CONFLICT'));
    await assert.rejects(other.deleteParticipant('t1', x.id), code('PARLEY_ERR_CONFLICT'));
    assert.ok(await other.getParticipant('t1', x.id), 'nothing erased by the refused erasure');

    await other.mergeParticipants('t1', x.id, y.id);
    assert.deepEqual(await other.retiredParticipant('t1', x.id), { mergedInto: y.id });
    assert.ok((await other.getUtterances('t1', spoken)).every((u) => u.speakerId === y.id));
    await other.mergeParticipants('t1', x.id, y.id); // sent once more: nothing left to do
    await other.mergeParticipants('t1', y.id, z.id);
    assert.deepEqual(await other.retiredParticipant('t1', y.id), { mergedInto: z.id });
    assert.ok((await other.getUtterances('t1', spoken)).every((u) => u.speakerId === z.id));
  }));

  test('an erasure begun before the merge refuses it', async () => {
    const { store } = neo4jStoreParts('test-merge-erasing');
    try {
      const x = await store.createParticipant('t1', { name: 'Xena' });
      const y = await store.createParticipant('t1', { name: 'Yves' });
      const spoken = (await store.addUtterances('t1', [say('s1', x.id, 'hello')])).map((u) => u.id);
      assert.ok(await store.beginClaimedErasure('t1', y.id, '{}', [], { owner: 'o', now: new Date().toISOString(), until: new Date(Date.now() + 60_000).toISOString() }));
      await assert.rejects(store.mergeParticipants('t1', x.id, y.id), code('PARLEY_ERR_CONFLICT'));
      assert.equal((await store.getUtterance('t1', spoken[0]!))?.speakerId, x.id);
      await store.endErasure('t1', y.id);
      // The refused merge left no marker: Y is erased as any participant.
      assert.deepEqual(await store.deleteParticipant('t1', y.id), []);
    } finally {
      await store.eraseAll();
      await store.close();
    }
  });

  test('the start-up name backfill asks under the usual deadline whether there is work before taking the longer one', async () => {
    const { store, options, driver, tenant, db } = neo4jStoreParts('test-backfill-check');
    const probe = new Neo4jGraphStore(options);
    try {
      await store.init();
      const runner = (probe as unknown as { db: Neo4jRunner }).db;
      const long: string[] = [];
      const writeLong = runner.writeLong.bind(runner);
      runner.writeLong = ((what: string, work: Parameters<Neo4jRunner['writeLong']>[1]) => {
        long.push(what);
        return writeLong(what, work);
      }) as Neo4jRunner['writeLong'];
      await backfillParticipantNames(runner);
      assert.deepEqual(long, [], 'nothing to backfill: no transaction under the longer deadline');
      // A participant stored before the name keys existed: the backfill runs, under the longer deadline.
      await driver.executeQuery("CREATE (:Participant {tenant: $tenant, id: 'p_old', name: 'Olga', aliases: [], attributes: '{}', voiceprintCount: 0, createdAt: '2026-01-01T00:00:00.000Z'})", { tenant }, db);
      await backfillParticipantNames(runner);
      assert.ok(long.length > 0);
      assert.deepEqual((await probe.findParticipantsByName('t1', 'olga')).map((p) => p.id), ['p_old']);
    } finally {
      await store.eraseAll();
      await probe.close();
      await store.close();
    }
  });
});
