/**
 * Two servers on one store erasing the same person at once (`DELETE /v1/participants/{id}` on each): a new erasure is
 * recorded already claimed, in one step, so the second server's request is a 409 that writes nothing, or, once the
 * first is done, a 404; the work runs once.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { openStores } from '../../graph/open-stores.js';
import type { PendingErasure } from '../../graph/pending-erasures.js';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { eraseParticipant, type ErasureDeps } from '../../pipelines/interaction/erase-participant.js';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { deployments } from '../helpers/deployments.js';
import { tempDir } from '../helpers/temp-dir.js';

const SAID = 'I repair lighthouse lenses in Quessant and my gate code is 5512.';

/** A gate a hook waits at until the test opens it, and a promise of the hook reaching it. */
function gate(): { reached: Promise<void>; arrive(): Promise<void>; open(): void } {
  let reach = (): void => undefined;
  let open = (): void => undefined;
  const reached = new Promise<void>((r) => { reach = r; });
  const opened = new Promise<void>((r) => { open = r; });
  return { reached, arrive: async () => { reach(); await opened; }, open: () => open() };
}

for (const deployment of deployments('erase-concurrent')) describe(`two servers erasing one person at once, ${deployment.name}`, { skip: deployment.skip }, () => {
  const dirs: { remove(): void }[] = [];
  const { tenant: T, headers } = deployment;
  after(async () => {
    for (const d of dirs) d.remove();
    await deployment.cleanup();
  });

  test('the second server\'s DELETE, begun before the first recorded the erasure, is a 409 that writes nothing; once done, a 404', async () => {
    const tmp = tempDir('parley-erase-concurrent-');
    dirs.push(tmp);
    const config = loadConfig({ DATA_DIR: tmp.dir, PORT: '0', LOG_LEVEL: 'silent', ...deployment.env });
    const app: FastifyInstance = await buildApp(config, { logger: pino({ level: 'silent' }) });
    // The second server: its own stores (its own connections) on the same data directory, or the same Neo4j.
    const other = openStores(config, pino({ level: 'silent' }));
    const a = app.stores;
    const realDelete = a.graph.deleteParticipant.bind(a.graph);
    const realQuery = other.graph.queryInteractions.bind(other.graph);
    try {
      const posted = await app.inject({ method: 'POST', url: '/v1/sessions/concurrent/utterances', headers, payload: { utterances: [{ speaker: 'Ysolt Carrow', text: SAID }] } });
      assert.equal(posted.statusCode, 201, posted.body);
      await drainConsolidation(a.queue, 120_000);
      const [person] = await a.graph.findParticipantsByName(T, 'Ysolt Carrow');
      assert.ok(person);
      const facts = await a.memory.listFacts(T, { participantId: person.id, includeHistory: true, limit: 100 });
      assert.ok(facts.length > 0, 'the person has facts to erase');

      // Server A stops once it has recorded the erasure and deleted the memories, before the participant goes.
      const aHolds = gate();
      a.graph.deleteParticipant = async (...args) => {
        await aHolds.arrive();
        return realDelete(...args);
      };
      // Server B has read that no erasure of them is pending; it goes on once A holds.
      const bRead = gate();
      let first = true;
      other.graph.queryInteractions = async (...args) => {
        if (first) {
          first = false;
          await bRead.arrive();
        }
        return realQuery(...args);
      };
      const deps: ErasureDeps = { stores: other, audioSpans: null, embedder: app.models.textEmbedder, minAsrConfidence: 'auto' };
      const byB = eraseParticipant(deps, T, person.id, { owner: 'server-b', leaseMs: 600_000 }).then(
        () => { throw new Error('server B erased beside server A'); },
        (err: { code?: string }) => err,
      );
      await bRead.reached;
      const byA = app.inject({ method: 'DELETE', url: `/v1/participants/${person.id}`, headers });
      await aHolds.reached;
      const [recorded] = await a.graph.pendingErasures(T);
      assert.ok(recorded?.owner && recorded.owner !== 'server-b', 'A recorded the erasure, claimed');
      assert.ok((JSON.parse(recorded.plan) as { factIds: string[] }).factIds.length > 0, 'with the ids of the facts it deleted');
      bRead.open();
      const refused = await byB;
      assert.equal(refused.code, 'PARLEY_ERR_CONFLICT', String(refused));
      const after: PendingErasure[] = await a.graph.pendingErasures(T);
      assert.deepEqual(after, [recorded], 'B wrote nothing to the record A holds (its plan still lists what A deleted)');
      aHolds.open();
      const erased = await byA;
      assert.equal(erased.statusCode, 200, erased.body);
      assert.deepEqual(await a.graph.pendingErasures(T), []);
      assert.equal(await eraseParticipant(deps, T, person.id, { owner: 'server-b', leaseMs: 600_000 }), null, 'B asked again sees it done (404)');
      const again = await app.inject({ method: 'DELETE', url: `/v1/participants/${person.id}`, headers });
      assert.equal(again.statusCode, 404, again.body);
    } finally {
      a.graph.deleteParticipant = realDelete;
      other.graph.queryInteractions = realQuery;
      await other.close();
      await app.close();
    }
  });
});
