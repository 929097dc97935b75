import crypto from 'node:crypto';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ExtractionResult } from '../../../pipelines/memory/extractor.js';
import { extractedFactId } from '../../../pipelines/memory/consolidate.js';
import { gatedJobStores, sqliteJobStores, type OpenJobStores } from '../../helpers/job-stores.js';
import { sqliteRevisions } from '../../helpers/revised-speaker-fixture.js';

/** A fact id as builds before the speaker was hashed made it: tenant, utterance, subject, what it fills. */
function oldBuildId(tenant: string, uid: string, ef: ExtractionResult['facts'][number]): string {
  const what = ef.slot !== null ? ['slot', ef.slot, (ef.value ?? '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim()]
    : ['text', ef.content.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim()];
  return `f_${crypto.createHash('sha256').update([tenant, uid, ef.subjectId, ...what].join('\u0000')).digest('hex').slice(0, 32)}`;
}

describe('a job cut short by a build before fact ids hashed the speaker, run again after the upgrade (SQLite)', { timeout: 300_000 }, () => {
  const c = sqliteRevisions();

  test('the fact it stored under the old id is finished, not stored a second time', async () => {
    const s = await c.fx.scene();
    const uid = await c.fx.say(s.sessionId, s.ana, s.ben, 'I moved to Madrid.');
    // The old build's run: Madrid stored, then killed before it closed Lisbon.
    const dying = gatedJobStores(c.stores, new Set(['closeFact']), () => { throw new Error('worker killed'); });
    await assert.rejects(c.fx.run(s.sessionId, uid, dying), /worker killed/);
    const kept = JSON.parse((await c.stores.memory.keptExtraction(c.fx.tenant, uid))!) as ExtractionResult;
    const [ef] = kept.facts;
    assert.ok(ef);
    const stored = await c.stores.memory.getFact(c.fx.tenant, extractedFactId(c.fx.tenant, uid, ef));
    assert.ok(stored);
    // As the old build stored it: the same fact under the id without the speaker.
    const legacy = oldBuildId(c.fx.tenant, uid, ef);
    assert.ok(await c.stores.memory.deleteFact(c.fx.tenant, stored.id));
    await c.stores.memory.addFacts(c.fx.tenant, [{ ...stored, id: legacy }]);
    assert.equal((await c.stores.memory.getFact(c.fx.tenant, s.lisbon.id))?.validTo, null, 'Lisbon not yet closed');

    await c.fx.run(s.sessionId, uid);
    const homes = await c.stores.memory.listFacts(c.fx.tenant, { subjectId: s.ana, slot: 'lives_in' });
    assert.deepEqual(homes.map((f) => [f.id, f.value]), [[legacy, 'Madrid']], 'one Madrid, the one stored before the upgrade');
    assert.equal((await c.stores.memory.getFact(c.fx.tenant, s.lisbon.id))?.supersededBy, legacy);
    assert.deepEqual(await c.stores.memory.processedFacts(c.fx.tenant, uid), [legacy]);
  });
});
