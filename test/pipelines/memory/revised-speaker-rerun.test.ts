import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { UseLiteEmbedder } from '../../../pipelines/embeddings/use-lite-embedder.js';
import { NEO4J_SKIP } from '../../helpers/stores.js';
import { neo4jStores, RevisionFixture, sqliteStores, type JobStores, type OpenStores } from './revised-speaker-fixture.js';

/*
 * The job of a turn given to another speaker after it was consolidated, cut short and run again, must end where an
 * uncut run ends. The cut is exact: every store write the job makes is counted, and from the k-th on every write
 * throws, as if the worker had died; then the same job runs again on the real stores. Every k a whole run reaches,
 * on SQLite and on the real Neo4j (every store in Neo4j) when `NEO4J_URI` is set.
 */

/** Store methods that write (the rest read). */
const WRITES = new Set(['addFacts', 'closeFact', 'reopenFact', 'patchFact', 'markProcessed', 'keepExtraction', 'upsert', 'delete', 'index', 'updateParticipant']);

/** A view of `target` whose writes go through `gate` (which throws once the process is "dead"). */
function gated<T extends object>(target: T, gate: () => void): T {
  return new Proxy(target, {
    get(obj, key) {
      const value = Reflect.get(obj, key) as unknown;
      if (typeof value !== 'function') return value;
      const fn = value as (...args: unknown[]) => unknown;
      if (typeof key !== 'string' || !WRITES.has(key)) return fn.bind(obj);
      return (...args: unknown[]) => {
        gate();
        return fn.apply(obj, args);
      };
    },
  });
}

const allGated = (s: JobStores, gate: () => void): JobStores => ({
  graph: gated(s.graph, gate), memory: gated(s.memory, gate), vectors: gated(s.vectors, gate), lexical: gated(s.lexical, gate),
});

function rerunSuite(name: string, open: () => OpenStores, skip?: string): void {
  describe(`speaker-revised consolidation re-run after a partial write: ${name}`, { skip, timeout: 600_000 }, () => {
    let stores: OpenStores;
    let fx: RevisionFixture;
    const embedder = new UseLiteEmbedder();
    before(() => {
      stores = open();
      fx = new RevisionFixture(stores, embedder);
    });
    after(async () => {
      await embedder.close();
      await stores?.dispose();
    });

    test('every interruption point: the re-run ends as an uncut run does', { timeout: 600_000 }, async (t) => {
      const control = await fx.scene();
      await fx.move(control);
      let writes = 0;
      await fx.run(control.sessionId, control.lisbonUid, allGated(stores, () => { writes += 1; }));
      await fx.expectRevised(control);
      t.diagnostic(`a whole run of the moved turn's job makes ${writes} store writes`);
      assert.ok(writes >= 8, `${writes} writes`);

      const cut = async (k: number): Promise<void> => {
        const s = await fx.scene();
        await fx.move(s);
        let made = 0;
        const dying = allGated(stores, () => {
          made += 1;
          if (made >= k) throw new Error(`worker killed before write ${k}`);
        });
        await assert.rejects(fx.run(s.sessionId, s.lisbonUid, dying), /worker killed/, `cut before write ${k}`);
        await fx.run(s.sessionId, s.lisbonUid);
        await fx.expectRevised(s);
      };
      const points = Array.from({ length: writes }, (_, i) => i + 1);
      for (let i = 0; i < points.length; i += 4) await Promise.all(points.slice(i, i + 4).map(cut));
    });
  });
}

rerunSuite('SQLite', sqliteStores);
rerunSuite('Neo4j (every store)', () => neo4jStores('test-revised-rerun'), NEO4J_SKIP);
