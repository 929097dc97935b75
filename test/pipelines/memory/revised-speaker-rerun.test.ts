import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { NEO4J_SKIP } from '../../helpers/stores.js';
import { gatedJobStores, neo4jJobStores, sqliteJobStores, type OpenJobStores } from '../../helpers/job-stores.js';
import { revisions, WRITES } from '../../helpers/revised-speaker-fixture.js';

/*
 * The job of a turn given to another speaker after it was consolidated, cut short and run again, must end where an
 * uncut run ends. The cut is exact: every store write the job makes is counted, and from the k-th on every write
 * throws, as if the worker had died; then the same job runs again on the real stores. Every k a whole run reaches,
 * on SQLite and on the real Neo4j (every store in Neo4j) when `NEO4J_URI` is set.
 */


function rerunSuite(name: string, open: () => OpenJobStores, skip?: string): void {
  describe(`speaker-revised consolidation re-run after a partial write: ${name}`, { skip, timeout: 600_000 }, () => {
    const c = revisions(open);

    for (const firstCut of [false, true]) {
      const what = firstCut ? ', the turn\'s first run cut before it recorded the turn' : '';
      test(`every interruption point: the re-run ends as an uncut run does${what}`, { timeout: 600_000 }, async (t) => {
        const control = await c.fx.scene(firstCut);
        await c.fx.move(control);
        let writes = 0;
        await c.fx.run(control.sessionId, control.lisbonUid, gatedJobStores(c.stores, WRITES, () => { writes += 1; }));
        await c.fx.expectRevised(control);
        t.diagnostic(`a whole run of the moved turn's job makes ${writes} store writes`);
        assert.ok(writes >= 8, `${writes} writes`);

        const cut = async (k: number): Promise<void> => {
          const s = await c.fx.scene(firstCut);
          await c.fx.move(s);
          let made = 0;
          const dying = gatedJobStores(c.stores, WRITES, () => {
            made += 1;
            if (made >= k) throw new Error(`worker killed before write ${k}`);
          });
          await assert.rejects(c.fx.run(s.sessionId, s.lisbonUid, dying), /worker killed/, `cut before write ${k}`);
          await c.fx.run(s.sessionId, s.lisbonUid);
          await c.fx.expectRevised(s);
        };
        const points = Array.from({ length: writes }, (_, i) => i + 1);
        for (let i = 0; i < points.length; i += 4) await Promise.all(points.slice(i, i + 4).map(cut));
      });
    }
  });
}

rerunSuite('SQLite', sqliteJobStores);
rerunSuite('Neo4j (every store)', () => neo4jJobStores('test-revised-rerun'), NEO4J_SKIP);
