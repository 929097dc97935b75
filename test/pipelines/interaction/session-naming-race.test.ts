/**
 * A self-introduction records the name as taught, and address evidence is recorded, by a write of that attribute alone,
 * from its value as stored then: attributes written meanwhile survive, and evidence recorded at once all counts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { GraphStore } from '../../../graph/graph-store.js';
import { openDatabase } from '../../../graph/sqlite/database.js';
import { SqliteGraphStore } from '../../../graph/sqlite/sqlite-graph-store.js';
import { NAME_EVIDENCE, TAUGHT_NAMES } from '../../../pipelines/interaction/participant-attributes.js';
import { ParticipantResolver } from '../../../pipelines/interaction/participant-resolver.js';
import { SessionNaming } from '../../../pipelines/interaction/session-naming.js';
import { patchBeforeFirstWrite } from '../../doubles/patch-before-write.js';

const T = 't_naming_race';

/**
 * The store, wrapped so that every read of a participant is followed, before the caller sees it, by a client's PATCH
 * of `tier` (the stored attributes plus `tier: 'gold-N'`, N counting the reads): whatever the caller writes after
 * reading lands after that PATCH. `lastTier()`: the value the latest PATCH wrote.
 */
function racingGraph(graph: SqliteGraphStore): { graph: GraphStore; lastTier: () => string } {
  let reads = 0;
  const racing = new Proxy(graph, {
    get(target, prop) {
      if (prop !== 'getParticipant') {
        const v = Reflect.get(target, prop, target) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      }
      return async (tenant: string, id: string) => {
        const read = await target.getParticipant(tenant, id);
        const now = await target.getParticipant(tenant, id);
        reads += 1;
        if (now) await target.updateParticipant(tenant, id, { attributes: { ...now.attributes, tier: `gold-${reads}` } });
        return read;
      };
    },
  });
  return { graph: racing, lastTier: () => `gold-${reads}` };
}

/** A store holding one participant made from `init`, seen through {@link racingGraph}. */
async function racingWith(init: Parameters<SqliteGraphStore['createParticipant']>[1]) {
  const db = openDatabase(':memory:');
  const store = new SqliteGraphStore(db);
  const p = await store.createParticipant(T, init);
  const stored = async () => (await store.getParticipant(T, p.id))!;
  return { ...racingGraph(store), p, stored, close: () => db.close() };
}

describe('SessionNaming.selfIntroduction and concurrent attribute writes', () => {
  test('an attribute PATCHed between the read and the write survives; the name is recorded as taught', async () => {
    const { graph, lastTier, p: speaker, stored: read, close } = await racingWith({ attributes: { city: 'Porto' } });
    const updated = await new SessionNaming(graph).selfIntroduction(T, new ParticipantResolver(graph, T), speaker, "Hi, I'm Ana.", [speaker]);
    assert.equal(updated.name, 'Ana');
    const stored = await read();
    assert.equal(stored.name, 'Ana');
    assert.deepEqual(stored.attributes[TAUGHT_NAMES], ['ana']);
    assert.equal(stored.attributes.tier, lastTier(), 'the latest concurrent PATCH is not reverted');
    assert.equal(stored.attributes.city, 'Porto');
    close();
  });

  // "call me Ana": a name asked for; a plain "I'm Ana" from someone self-introduced as Grace is refused (name-conflict.test.ts).
  test('a named speaker gains the alias, added to the names already taught', async () => {
    const { graph, lastTier, p: speaker, stored: read, close } = await racingWith({ name: 'Grace', attributes: { [TAUGHT_NAMES]: ['grace'] } });
    await new SessionNaming(graph).selfIntroduction(T, new ParticipantResolver(graph, T), speaker, 'Please call me Ana.', [speaker]);
    const stored = await read();
    assert.deepEqual(stored.aliases, ['Ana']);
    assert.deepEqual(stored.attributes[TAUGHT_NAMES], ['ana', 'grace']);
    assert.equal(stored.attributes.tier, lastTier());
    close();
  });
});

describe('SessionNaming.record and concurrent attribute writes', () => {
  test('recording address evidence never reverts an attribute PATCHed between its read and its write', async () => {
    const db = openDatabase(':memory:');
    const store = new SqliteGraphStore(db);
    const p = await store.createParticipant(T, { attributes: { city: 'Porto' } });
    const racing = patchBeforeFirstWrite(store, T, p.id, { tier: 'gold' });
    await new SessionNaming(racing.graph).record(T, 's_1', new ParticipantResolver(racing.graph, T), p.id, ['ana'], 'addressed', [p]);
    assert.equal(racing.patches(), 1, 'the PATCH ran before the evidence was written');
    const stored = (await store.getParticipant(T, p.id))!;
    assert.ok(NAME_EVIDENCE in stored.attributes, 'the evidence is recorded');
    assert.equal(stored.attributes.tier, 'gold', 'the concurrent PATCH is not reverted');
    assert.equal(stored.attributes.city, 'Porto');
    db.close();
  });

  test('evidence recorded at once from several sessions all counts, and names the participant', async () => {
    const db = openDatabase(':memory:');
    const graph = new SqliteGraphStore(db);
    const p = await graph.createParticipant(T, {});
    const naming = new SessionNaming(graph);
    // Four live sessions hear the participant called Ana in the same moment: no record is lost to another.
    await Promise.all(['s_1', 's_2', 's_3', 's_4'].map((s) => naming.record(T, s, new ParticipantResolver(graph, T), p.id, ['ana'], 'addressed', [p])));
    const stored = (await graph.getParticipant(T, p.id))!;
    const ana = (stored.attributes[NAME_EVIDENCE] as Record<string, { events: number; sessions: string[]; score: number }>).ana!;
    assert.equal(ana.events, 4);
    assert.equal(ana.score, 4);
    assert.deepEqual([...ana.sessions].sort(), ['s_1', 's_2', 's_3', 's_4']);
    assert.equal(stored.name, 'Ana', 'the evidence that suffices names them');
    db.close();
  });
});
