/**
 * A server finishes at start a merge a crash cut short longer ago than its lease (`MERGE_LEASE_MS`), with nobody
 * sending it again: the memories are relabelled and the pending merge is gone (its re-indexing queued). Embedded
 * stores; the crash is an error thrown in the memory relabel, the age of the attempt written into the record.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { pino } from 'pino';
import { openStores } from '../../graph/open-stores.js';
import { mergeParticipantsByHand } from '../../pipelines/interaction/merge-participants.js';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { tempDir } from '../helpers/temp-dir.js';

const T = 'default';
const AT = '2026-12-01T00:00:00.000Z';

test('a merge abandoned by a crash is finished when a server starts', async () => {
  const tmp = tempDir();
  const config = loadConfig({ DATA_DIR: tmp.dir, PORT: '0', LOG_LEVEL: 'silent' });
  try {
    const stores = openStores(config, pino({ level: 'silent' }));
    const x = await stores.graph.createParticipant(T, { name: 'Xena' });
    const y = await stores.graph.createParticipant(T, { name: 'Yves' });
    const [kept] = await stores.memory.addFacts(T, [{
      content: 'Xena likes green tea', speakerId: x.id, subjectId: x.id, addresseeIds: [], kind: 'statement', slot: null, value: null, time: AT,
      referIds: [], validFrom: AT, supersedes: null, confidence: 0.9, sessionId: 's1', source: 'test',
    }]);
    stores.memory.relabelParticipant = async () => { throw new Error('process crashed'); };
    await assert.rejects(mergeParticipantsByHand(stores, T, x.id, y.id, () => undefined), /process crashed/);
    stores.sqlite.prepare('UPDATE pending_merges SET touched_at = ?').run('2026-01-01T00:00:00.000Z');
    await stores.close();

    const app = await buildApp(config, { logger: pino({ level: 'silent' }) });
    try {
      await app.ready();
      while ((await app.stores.graph.pendingMerges(T)).length > 0) await sleep(50);
      assert.equal((await app.stores.memory.listFacts(T, { ids: [kept!.id] }))[0]?.speakerId, y.id);
    } finally {
      await app.close();
    }
  } finally {
    tmp.remove();
  }
});
