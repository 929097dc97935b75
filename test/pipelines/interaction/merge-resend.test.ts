/**
 * A merge cut short after the graph retired the merged-away id (in the memory relabel) is finished by the same merge
 * sent again: it runs the idempotent tail (facts relabelled, voiceprints moved) instead of answering 404. The graph's
 * part is one transaction in SQLite and batched in Neo4j; this tail is the pipeline's, the same for both.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pino } from 'pino';
import { openStores } from '../../../graph/open-stores.js';
import type { NewFact } from '../../../graph/memory-store.js';
import { mergeParticipantsByHand } from '../../../pipelines/interaction/merge-participants.js';
import { loadConfig } from '../../../server/config.js';
import { tempDir } from '../../helpers/temp-dir.js';

const T = 'default';
const AT = '2026-12-01T00:00:00.000Z';
const fact = (content: string, speakerId: string): NewFact => ({
  content, speakerId, subjectId: speakerId, addresseeIds: [], kind: 'statement', slot: null, value: null, time: AT,
  referIds: [], validFrom: AT, supersedes: null, confidence: 0.9, sessionId: 's1', source: 'test',
});

test('a merge cut short in the memory relabel is finished by sending it again', async () => {
  const tmp = tempDir();
  const stores = openStores(loadConfig({ DATA_DIR: tmp.dir, PORT: '0', LOG_LEVEL: 'silent' }), pino({ level: 'silent' }));
  try {
    const x = await stores.graph.createParticipant(T, { name: 'Xena' });
    const y = await stores.graph.createParticipant(T, { name: 'Yves' });
    const z = await stores.graph.createParticipant(T, { name: 'Zed' });
    const [kept] = await stores.memory.addFacts(T, [fact('Xena likes green tea', x.id)]);
    const relabel = stores.memory.relabelParticipant.bind(stores.memory);
    let outage = true;
    stores.memory.relabelParticipant = async (...args) => {
      if (outage) throw new Error('connection lost');
      return relabel(...args);
    };
    await assert.rejects(mergeParticipantsByHand(stores, T, x.id, y.id, () => undefined), /connection lost/);
    assert.deepEqual(await stores.graph.retiredParticipant(T, x.id), { mergedInto: y.id }, 'the graph part was done');
    assert.equal((await stores.memory.listFacts(T, { ids: [kept!.id] }))[0]?.speakerId, x.id);

    outage = false;
    await mergeParticipantsByHand(stores, T, x.id, y.id, () => undefined);
    assert.equal((await stores.memory.listFacts(T, { ids: [kept!.id] }))[0]?.speakerId, y.id);
    // Only the same pair: an id merged into someone else is still unknown as a participant to merge.
    await assert.rejects(mergeParticipantsByHand(stores, T, x.id, z.id, () => undefined), (err: { code?: string }) => err.code === 'PARLEY_ERR_NOT_FOUND');
  } finally {
    await stores.close();
    tmp.remove();
  }
});
