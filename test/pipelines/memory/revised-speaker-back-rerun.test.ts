import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { NEO4J_SKIP } from '../../helpers/stores.js';
import { gatedJobStores, neo4jJobStores, sqliteJobStores, type OpenJobStores } from '../../helpers/job-stores.js';
import { BACK_SCENES } from '../../helpers/revised-speaker-back-scenes.js';
import { revisions, WRITES } from '../../helpers/revised-speaker-fixture.js';

/*
 * As revised-speaker-rerun.test.ts, for the scenes of revised-speaker-back-scenes.ts (a turn given back, a moved turn
 * of KEEPs only, a moved retraction): the moved turn's job cut before each of its store writes in turn, then run again,
 * ends where an uncut run ends. SQLite, and the real Neo4j (every store) when `NEO4J_URI` is set.
 */
function backRerunSuite(name: string, open: () => OpenJobStores, skip?: string): void {
  describe(`revised turns given back, of KEEPs only, or retractions, re-run after a partial write: ${name}`, { skip, timeout: 900_000 }, () => {
    const c = revisions(open);

    for (const scene of BACK_SCENES) {
      test(`${scene.name}: every interruption point ends as an uncut run does`, { timeout: 600_000 }, async (t) => {
        const control = await scene.prepare(c.fx);
        let writes = 0;
        await c.fx.run(control.s.sessionId, control.uid, gatedJobStores(c.stores, WRITES, () => { writes += 1; }));
        await scene.expect(c.fx, control);
        t.diagnostic(`a whole run makes ${writes} store writes`);
        assert.ok(writes >= 4, `${writes} writes`);
        const cut = async (k: number): Promise<void> => {
          const p = await scene.prepare(c.fx);
          let made = 0;
          const dying = gatedJobStores(c.stores, WRITES, () => {
            made += 1;
            if (made >= k) throw new Error(`worker killed before write ${k}`);
          });
          await assert.rejects(c.fx.run(p.s.sessionId, p.uid, dying), /worker killed/, `cut before write ${k}`);
          await c.fx.run(p.s.sessionId, p.uid);
          await scene.expect(c.fx, p);
        };
        const points = Array.from({ length: writes }, (_, i) => i + 1);
        for (let i = 0; i < points.length; i += 4) await Promise.all(points.slice(i, i + 4).map(cut));
      });
    }
  });
}

backRerunSuite('SQLite', sqliteJobStores);
backRerunSuite('Neo4j (every store)', () => neo4jJobStores('test-revised-back-rerun'), NEO4J_SKIP);
