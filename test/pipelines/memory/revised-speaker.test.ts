import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { extractedFactId } from '../../../pipelines/memory/consolidate.js';
import { MemoryIndexer } from '../../../pipelines/memory/memory-indexer.js';
import { factWithdrawn } from '../../../graph/memory-store.js';
import { movedFacts, SPEAKER_REVISED, withdrawMoved } from '../../../pipelines/memory/revised-speaker.js';
import { sqliteRevisions } from '../../helpers/revised-speaker-fixture.js';

describe('a consolidated turn given to another speaker: its memories follow it (SQLite)', { timeout: 300_000 }, () => {
  const c = sqliteRevisions();

  test('the old speaker\'s fact is withdrawn, what it replaced is current again, the new speaker gets it; a second run changes nothing', async () => {
    const s = await c.fx.scene();
    assert.deepEqual(await movedFacts(c.stores, c.fx.tenant, (await c.stores.graph.getUtterance(c.fx.tenant, s.lisbonUid))!, [s.lisbon.id]), [], 'not moved yet');
    await c.fx.move(s);
    const ops = (await c.fx.run(s.sessionId, s.lisbonUid)).flat();
    const ben = await c.fx.expectRevised(s);
    assert.deepEqual(ops, [
      { op: 'DELETE', memory_id: s.lisbon.id, text: s.lisbon.content, reason: SPEAKER_REVISED },
      { op: 'ADD', memory_id: s.porto.id, text: s.porto.content, reason: SPEAKER_REVISED },
      { op: 'ADD', memory_id: ben.id, text: ben.content },
    ]);
    assert.match(ben.content, /^Ben /, 'written for the new speaker');
    assert.deepEqual(await c.fx.run(s.sessionId, s.lisbonUid), [], 'run again: only re-indexed, no ops');
    await c.fx.expectRevised(s);
  });

  test('a turn moved after its first run was cut short: what that run stored is withdrawn and its kept extraction not replayed', async () => {
    const s = await c.fx.scene(true);
    await c.fx.move(s);
    const ops = (await c.fx.run(s.sessionId, s.lisbonUid)).flat();
    const ben = await c.fx.expectRevised(s);
    assert.deepEqual(ops.map((o) => [o.op, o.memory_id, o.reason]), [
      ['DELETE', s.lisbon.id, SPEAKER_REVISED], ['ADD', s.porto.id, SPEAKER_REVISED], ['ADD', ben.id, undefined],
    ]);
  });

  test('a turn whose first run was cut short, then merged into another speaker (not moved): the kept extraction is replayed', async () => {
    const s = await c.fx.scene(true);
    await c.stores.graph.mergeParticipants(c.fx.tenant, s.ana, s.ben);
    await c.stores.memory.relabelParticipant(c.fx.tenant, s.ana, s.ben);
    const ops = (await c.fx.run(s.sessionId, s.lisbonUid)).flat();
    assert.deepEqual(ops.filter((o) => o.reason), [], 'nothing withdrawn');
    assert.deepEqual(await c.stores.memory.processedFacts(c.fx.tenant, s.lisbonUid), [s.lisbon.id], 'the fact the cut run stored, finished');
    const lisbon = await c.stores.memory.getFact(c.fx.tenant, s.lisbon.id);
    assert.deepEqual([lisbon?.validTo, lisbon?.speakerId], [null, s.ben]);
  });

  test('a fact a later one already replaced stays as the old speaker\'s history; the new speaker still gets it', async () => {
    const s = await c.fx.scene();
    const madridUid = await c.fx.say(s.sessionId, s.ana, s.ben, 'I moved to Madrid.');
    await c.fx.run(s.sessionId, madridUid);
    const [madrid] = await c.stores.memory.listFacts(c.fx.tenant, { subjectId: s.ana, slot: 'lives_in' });
    assert.equal(madrid?.value, 'Madrid');
    await c.fx.move(s);
    const ops = (await c.fx.run(s.sessionId, s.lisbonUid)).flat();
    assert.deepEqual(ops.filter((o) => o.reason === SPEAKER_REVISED), [], 'nothing current to withdraw or reopen');
    assert.equal((await c.stores.memory.getFact(c.fx.tenant, s.lisbon.id))?.supersededBy, madrid.id);
    assert.deepEqual((await c.stores.memory.listFacts(c.fx.tenant, { subjectId: s.ana, slot: 'lives_in' })).map((f) => f.value), ['Madrid']);
    assert.deepEqual((await c.stores.memory.listFacts(c.fx.tenant, { subjectId: s.ben })).map((f) => [f.value, f.speakerId]), [['Lisbon', s.ben]]);
  });

  test('a fact of other turns too only loses the moved one from its sources and stays current', async () => {
    const s = await c.fx.scene();
    const [shared] = await c.stores.memory.addFacts(c.fx.tenant, [{ ...s.lisbon, id: undefined, content: 'Ana likes trams', slot: null, value: null,
      kind: 'preference', referIds: [s.porto.referIds[0]!, s.lisbonUid], supersedes: null }]);
    assert.ok(shared);
    await c.fx.move(s);
    const u = (await c.stores.graph.getUtterance(c.fx.tenant, s.lisbonUid))!;
    const moved = await movedFacts(c.stores, c.fx.tenant, u, [shared.id]);
    assert.deepEqual(moved.map((f) => f.id), [shared.id]);
    const indexer = new MemoryIndexer(c.stores.vectors, c.stores.lexical, c.embedder, 'auto');
    assert.deepEqual(await withdrawMoved(c.stores, indexer, c.fx.tenant, u, moved, new AbortController().signal), []);
    const after = await c.stores.memory.getFact(c.fx.tenant, shared.id);
    assert.deepEqual([after?.validTo, after?.referIds, after?.speakerId], [null, [s.porto.referIds[0]], s.ana]);
  });

  test('withdrawn means closed where it began and replaced by nothing', () => {
    const at = '2026-12-01T10:00:00.000Z';
    assert.equal(factWithdrawn({ validFrom: at, validTo: at, supersededBy: null }), true);
    assert.equal(factWithdrawn({ validFrom: at, validTo: null, supersededBy: null }), false);
    assert.equal(factWithdrawn({ validFrom: at, validTo: '2026-12-02T10:00:00.000Z', supersededBy: null }), false, 'deleted later');
    assert.equal(factWithdrawn({ validFrom: at, validTo: at, supersededBy: 'f_x' }), false, 'replaced at once');
  });

  test('the same words from the same turn under another speaker make another fact id', () => {
    const f = { subjectId: 'entity:lisbon', slot: null, value: null, content: 'Lisbon has trams' };
    assert.notEqual(extractedFactId('t', 'u_1', { ...f, speakerId: 'p_a' }), extractedFactId('t', 'u_1', { ...f, speakerId: 'p_b' }));
    assert.equal(extractedFactId('t', 'u_1', { ...f, speakerId: 'p_a' }), extractedFactId('t', 'u_1', { ...f, speakerId: 'p_a' }));
  });
});
