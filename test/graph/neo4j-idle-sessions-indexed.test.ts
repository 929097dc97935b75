/**
 * Neo4j's idle-session sweep (`GraphStore.idleSessions`, every minute on every server) seeks the open sessions
 * through an index, not by reading every session ever stored: its work does not grow with the ended sessions.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Neo4jGraphStore } from '../../graph/neo4j/neo4j-graph-store.js';
import { hitsOf, operatorsOf, profiledReads, type ProfiledPlan } from '../helpers/neo4j-profile.js';
import { neo4jStoreParts } from '../helpers/neo4j-store-parts.js';
import { NEO4J_SKIP, neo4jTestOptions } from '../helpers/stores.js';

const at = (minutes: number): string => new Date(Date.UTC(2026, 11, 5, 10, minutes)).toISOString();

describe('Neo4j: idle sessions by index', { skip: NEO4J_SKIP }, () => {
  test('idleSessions seeks the open sessions by index; its database hits do not grow with the ended sessions', async () => {
    const store = new Neo4jGraphStore(neo4jTestOptions('test-idle-index'));
    try {
      await store.init();
      for (const id of ['idle-1', 'idle-2']) {
        await store.openSession('t1', id, at(0));
        await store.updateSession('t1', id, { activeAt: at(20) });
      }
      const sweep = async (): Promise<ProfiledPlan> => {
        let found: unknown;
        const [plan] = await profiledReads(store, async () => { found = await store.idleSessions(at(30), 200); });
        assert.deepEqual(found, [{ tenant: 't1', id: 'idle-1' }, { tenant: 't1', id: 'idle-2' }]);
        return plan!;
      };
      const before = await sweep();
      const operators = operatorsOf(before);
      assert.ok(operators.some((o) => o.startsWith('NodeIndexSeekByRange')), operators.join(' > '));
      assert.ok(!operators.some((o) => o.startsWith('NodeByLabelScan') || o.startsWith('AllNodesScan')), operators.join(' > '));
      // Many sessions that ended, all last active before the open ones: the sweep does not read them.
      for (let i = 0; i < 60; i += 1) {
        await store.openSession('t1', `ended-${i}`, at(0));
        await store.updateSession('t1', `ended-${i}`, { activeAt: at(1) });
        await store.endSession('t1', `ended-${i}`, at(2));
      }
      const after = await sweep();
      assert.ok(hitsOf(after) <= hitsOf(before) + 5, `db hits ${hitsOf(before)} with no ended session, ${hitsOf(after)} with 60`);
    } finally {
      await store.eraseAll();
      await store.close();
    }
  });

  test('a database from before the index: its open sessions are backfilled once at start and found idle; ended ones are not', async () => {
    const { options, store, driver, tenant, db } = neo4jStoreParts('test-idle-backfill');
    let restarted: Neo4jGraphStore | undefined;
    try {
      await store.init();
      // As an earlier version left them: activeAt only, and no mark of the backfill.
      await driver.executeQuery(`
        CREATE (:Session {tenant: $tenant, id: 'old-open', startedAt: $t0, metadata: '{}', lastEventSeq: 0, activeAt: $t5})
        CREATE (:Session {tenant: $tenant, id: 'old-ended', startedAt: $t0, metadata: '{}', lastEventSeq: 0, activeAt: $t5, endedAt: $t6})`,
      { tenant, t0: at(0), t5: at(5), t6: at(6) }, db);
      await driver.executeQuery("MATCH (m:ParleyMigration {name: 'session-open-active-at'}) DELETE m", {}, db);
      assert.deepEqual(await store.idleSessions(at(30), 10), [], 'not in the index yet (this process backfilled before)');
      restarted = new Neo4jGraphStore(options);
      assert.deepEqual(await restarted.idleSessions(at(30), 10), [{ tenant: 't1', id: 'old-open' }]);
    } finally {
      await restarted?.close();
      await store.eraseAll();
      await store.close();
    }
  });
});
