/**
 * A merge a crash cut short (in the memory relabel, after the graph's part), on a server: one started after its lease
 * (`MERGE_LEASE_MS`) finishes it with nobody sending it again (the memories are relabelled and the pending merge is
 * gone, its re-indexing queued), and `DELETE /v1/participants/{survivor}` first finishes it, so the merged-away
 * participant's facts and voiceprints are erased with the survivor. Embedded stores; the crash is an error thrown in the
 * memory relabel, the age of the attempt written into the record.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pino } from 'pino';
import { openStores } from '../../graph/open-stores.js';
import { mergeParticipantsByHand } from '../../pipelines/interaction/merge-participants.js';
import { buildApp } from '../../server/app.js';
import { loadConfig, type Config } from '../../server/config.js';
import { tempDir } from '../helpers/temp-dir.js';

const T = 'default';
const AT = '2026-12-01T00:00:00.000Z';
const silent = pino({ level: 'silent' });

/** Xena (one fact, one voiceprint) merged into Yves on the stores of `config`, the merge crashing in the memory relabel. */
async function crashedMerge(config: Config, touchedAt: string): Promise<{ x: string; y: string; factId: string }> {
  const stores = openStores(config, silent);
  try {
    const x = await stores.graph.createParticipant(T, { name: 'Xena' });
    const y = await stores.graph.createParticipant(T, { name: 'Yves' });
    const [kept] = await stores.memory.addFacts(T, [{
      content: 'Xena likes green tea', speakerId: x.id, subjectId: x.id, addresseeIds: [], kind: 'statement', slot: null, value: null, time: AT,
      referIds: [], validFrom: AT, supersedes: null, confidence: 0.9, sessionId: 's1', source: 'test',
    }]);
    await stores.voiceprints.upsert(T, { participantId: x.id, modelId: 'test-model', vector: new Float32Array([1, 0]), updateCount: 1 });
    stores.memory.relabelParticipant = async () => { throw new Error('process crashed'); };
    await assert.rejects(mergeParticipantsByHand(stores, T, x.id, y.id, () => undefined), /process crashed/);
    stores.sqlite.prepare('UPDATE pending_merges SET touched_at = ?').run(touchedAt);
    return { x: x.id, y: y.id, factId: kept!.id };
  } finally {
    await stores.close();
  }
}

test('a merge abandoned by a crash is finished when a server starts', async () => {
  const tmp = tempDir();
  const config = loadConfig({ DATA_DIR: tmp.dir, PORT: '0', LOG_LEVEL: 'silent' });
  try {
    const { y, factId } = await crashedMerge(config, '2026-01-01T00:00:00.000Z');
    const app = await buildApp(config, { logger: silent });
    await app.ready();
    // Closing waits for the start-up pass.
    await app.close();
    const stores = openStores(config, silent);
    try {
      assert.deepEqual(await stores.graph.pendingMerges(T), []);
      assert.equal((await stores.memory.listFacts(T, { ids: [factId] }))[0]?.speakerId, y);
    } finally {
      await stores.close();
    }
  } finally {
    tmp.remove();
  }
});

test('erasing the survivor of a merge cut short first finishes it: the merged-away facts and voiceprints are erased too', async () => {
  const tmp = tempDir();
  const config = loadConfig({ DATA_DIR: tmp.dir, PORT: '0', LOG_LEVEL: 'silent' });
  try {
    // Begun now: within its lease, so the start-up pass leaves it to the erasure.
    const { x, y, factId } = await crashedMerge(config, new Date().toISOString());
    const app = await buildApp(config, { logger: silent });
    try {
      await app.ready();
      const res = await app.inject({ method: 'DELETE', url: `/v1/participants/${y}` });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual({ memories: res.json().erased_memories, voiceprints: res.json().erased_voiceprints }, { memories: 1, voiceprints: 1 });
      assert.deepEqual(await app.stores.memory.listFacts(T, { ids: [factId] }), []);
      assert.equal(await app.stores.voiceprints.countByParticipant(T, x), 0);
      assert.deepEqual(await app.stores.graph.pendingMerges(T), []);
    } finally {
      await app.close();
    }
  } finally {
    tmp.remove();
  }
});
