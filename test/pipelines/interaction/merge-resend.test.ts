/**
 * The pipeline's side of a merge, the same on SQLite and Neo4j: a merge cut short after the graph retired the
 * merged-away id (in the memory relabel) is finished by the same merge sent again (the idempotent tail: facts
 * relabelled, voiceprints moved) instead of answering 404; `pagedUtterances` (erasure, manual merge) reads a whole
 * history, also when its turns share one time (an import): paging by the oldest time seen alone stopped at 1000.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pino } from 'pino';
import { openStores } from '../../../graph/open-stores.js';
import type { NewFact } from '../../../graph/memory-store.js';
import type { NewUtterance } from '../../../graph/graph-store.js';
import type { Stores } from '../../../graph/stores.js';
import { pagedUtterances } from '../../../pipelines/interaction/erase-participant.js';
import { mergeParticipantsByHand } from '../../../pipelines/interaction/merge-participants.js';
import { loadConfig } from '../../../server/config.js';
import { tempDir } from '../../helpers/temp-dir.js';

const T = 'default';
const AT = '2026-12-01T00:00:00.000Z';
const fact = (content: string, speakerId: string): NewFact => ({
  content, speakerId, subjectId: speakerId, addresseeIds: [], kind: 'statement', slot: null, value: null, time: AT,
  referIds: [], validFrom: AT, supersedes: null, confidence: 0.9, sessionId: 's1', source: 'test',
});

const say = (speakerId: string, text: string, time: string, addresseeIds: string[] = []): NewUtterance => ({
  sessionId: 's1', speakerId, addresseeIds, text, startMs: null, endMs: null, time, confidence: null, audioRef: null,
});

/** `body` on fresh SQLite stores, closed and removed after. */
async function withStores(body: (stores: Stores) => Promise<void>): Promise<void> {
  const tmp = tempDir();
  const stores = openStores(loadConfig({ DATA_DIR: tmp.dir, PORT: '0', LOG_LEVEL: 'silent' }), pino({ level: 'silent' }));
  try {
    await body(stores);
  } finally {
    await stores.close();
    tmp.remove();
  }
}

test('a merge cut short in the memory relabel is finished by sending it again', () => withStores(async (stores) => {
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
}));

test('a history of more than one page at one time is read whole', () => withStores(async (stores) => {
  const x = await stores.graph.createParticipant(T, { name: 'Xena' });
  const y = await stores.graph.createParticipant(T, { name: 'Yves' });
  const spoken: string[] = [];
  for (let i = 0; i < 2300; i += 500) {
    const batch = Array.from({ length: 500 }, (_, j) => say(x.id, `line ${i + j}`, '2026-12-01T00:00:00.000Z', [y.id]));
    spoken.push(...(await stores.graph.addUtterances(T, batch)).map((u) => u.id));
  }
  // And a few at other times, before and after.
  spoken.push(...(await stores.graph.addUtterances(T, [say(x.id, 'early', '2026-11-01T00:00:00.000Z'), say(x.id, 'late', '2026-12-02T00:00:00.000Z')])).map((u) => u.id));
  const read = await pagedUtterances(stores, T, { speakerId: x.id });
  assert.equal(read.length, spoken.length);
  assert.deepEqual(new Set(read), new Set(spoken));
  assert.equal((await pagedUtterances(stores, T, { addresseeId: y.id })).length, 2500);
}));
