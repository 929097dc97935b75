import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryIndexer } from '../../../pipelines/memory/memory-indexer.js';
import { reopenClosed, reopenVectors } from '../../../pipelines/interaction/reopen-forgotten.js';
import { memoryFixture } from '../../helpers/memory-fixture.js';

const T = 't_reopen_prepared';

test('reopening writes nothing when a memory due reads otherwise than when it was embedded; embedded again, it reopens', async () => {
  const f = await memoryFixture(T, ['Nora', 'Ben']);
  try {
    await f.say('s1', 'Nora', ['Ben'], 'I live in Richmond.', '2026-12-01T10:00:00.000Z');
    await f.say('s1', 'Nora', ['Ben'], 'I moved to Berkeley.', '2026-12-01T10:05:00.000Z');
    const homes = await f.memory.listFacts(T, { subjectId: f.people.Nora!, slot: 'lives_in', includeHistory: true });
    const richmond = homes.find((x) => x.value === 'Richmond')!;
    const berkeley = homes.find((x) => x.value === 'Berkeley')!;
    assert.equal(richmond.supersededBy, berkeley.id);
    const indexer = new MemoryIndexer(f.vectors, f.lexical, f.embedder, 'auto');
    const due = [{ id: richmond.id, by: berkeley.id }];
    const forgotten = new Set([berkeley.id]);
    // Embedded as it read before a rename rewrote it: under the lock it reads otherwise.
    const [vector] = await f.embedder.embed(['Nora lived in Richmond.']);
    const old = new Map([[richmond.id, { text: 'Nora lived in Richmond.', vector: vector as Float32Array }]]);
    const first = await reopenClosed(f.memory, indexer, T, due, forgotten, old);
    assert.deepEqual(first.stale.map((x) => x.id), [richmond.id]);
    assert.deepEqual(first.current, []);
    assert.notEqual((await f.memory.getFact(T, richmond.id))?.validTo, null, 'still closed: nothing written');
    const prepared = await reopenVectors(indexer, T, first.stale, old);
    const second = await reopenClosed(f.memory, indexer, T, due, forgotten, prepared);
    assert.deepEqual(second.stale, []);
    assert.deepEqual(second.current.map((x) => x.id), [richmond.id]);
    assert.equal((await f.memory.getFact(T, richmond.id))?.validTo, null, 'current again');
  } finally {
    await f.close();
  }
});
