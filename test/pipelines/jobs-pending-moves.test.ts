/**
 * A speaker revision whose re-indexing could not be queued (the queue failed after the move was stored, as a crash
 * between the two would leave it) is queued when the job handlers next start: the turn's memory then follows it.
 * Real embedded stores (SQLite, the embedded queue) opened twice on one data dir, the real USE-lite embedder.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { openStores, type StoreConfig } from '../../graph/open-stores.js';
import { UseLiteEmbedder } from '../../pipelines/embeddings/use-lite-embedder.js';
import { moveUtterance } from '../../pipelines/interaction/move-utterance.js';
import { registerJobHandlers, type JobsConfig } from '../../pipelines/jobs.js';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { CONSOLIDATION_JOB } from '../../pipelines/memory/consolidate.js';
import { tempDir } from '../helpers/temp-dir.js';

const tmp = tempDir('parley-pending-moves-');
const embedder = new UseLiteEmbedder();
const log = pino({ level: 'silent' });
const config: StoreConfig & JobsConfig = {
  dataDir: tmp.dir, queue: 'embedded', redisUrl: '', redisPrefix: 'parley', vectorStore: 'sqlite', qdrantUrl: '', qdrantApiKey: null,
  graphStore: 'sqlite', neo4jUri: '', neo4jUser: '', neo4jPassword: '', neo4jDatabase: '',
  apiKeys: [], extractor: 'embedded', llmModel: '', openaiApiKey: null, openaiBaseUrl: '',
};
/** With no API keys the one known tenant. */
const T = 'default';
after(async () => {
  await embedder.close();
  tmp.remove();
});

test('a move whose re-indexing was never queued is queued at the next start, and the memory follows the turn', { timeout: 300_000 }, async () => {
  const first = openStores(config, log);
  await registerJobHandlers({ config, stores: first, embedder, logger: log, publish: () => {} });
  const ana = await first.graph.createParticipant(T, { name: 'Ana' });
  const ben = await first.graph.createParticipant(T, { name: 'Ben' });
  await first.graph.openSession(T, 's', '2026-12-01T10:00:00.000Z');
  const [u] = await first.graph.addUtterances(T, [{ sessionId: 's', speakerId: ana.id, addresseeIds: [ben.id], text: 'I live in Porto.',
    startMs: null, endMs: null, time: '2026-12-01T10:01:00.000Z', confidence: null, audioRef: null }]);
  assert.ok(u);
  await first.queue.enqueue(CONSOLIDATION_JOB, { tenant: T, sessionId: 's', utteranceId: u.id });
  await drainConsolidation(first.queue, 120_000);
  const homes = async (stores: typeof first): Promise<unknown[]> =>
    (await stores.memory.listFacts(T, { slot: 'lives_in' })).map((f) => [f.subjectId, f.value]);
  assert.deepEqual(await homes(first), [[ana.id, 'Porto']]);

  first.queue.enqueue = (async () => { throw new Error('queue down'); }) as typeof first.queue.enqueue;
  assert.equal((await moveUtterance(first, T, u.id, ben.id))?.reindexError?.message, 'queue down');
  assert.deepEqual(await first.graph.pendingMoves(T), [u.id]);
  await first.close(1000);

  const second = openStores(config, log);
  try {
    await registerJobHandlers({ config, stores: second, embedder, logger: log, publish: () => {} });
    await drainConsolidation(second.queue, 120_000);
    assert.deepEqual(await homes(second), [[ben.id, 'Porto']], "Ana's Porto withdrawn, Ben's added");
    assert.deepEqual(await second.graph.pendingMoves(T), []);
  } finally {
    await second.close(1000);
  }
});

test('a queue failing while pending moves are queued at start does not keep the handlers from starting; the moves stay pending', { timeout: 120_000 }, async () => {
  const stores = openStores(config, log);
  try {
    const ana = await stores.graph.createParticipant(T, { name: 'Ana2' });
    const ben = await stores.graph.createParticipant(T, { name: 'Ben2' });
    await stores.graph.openSession(T, 's2', '2026-12-01T10:00:00.000Z');
    const [u] = await stores.graph.addUtterances(T, [{ sessionId: 's2', speakerId: ana.id, addresseeIds: [ben.id], text: 'Hello.',
      startMs: null, endMs: null, time: '2026-12-01T10:01:00.000Z', confidence: null, audioRef: null }]);
    assert.ok(u && await stores.graph.setUtteranceSpeaker(T, u.id, ben.id));
    stores.queue.enqueue = (async () => { throw new Error('queue down'); }) as typeof stores.queue.enqueue;
    await registerJobHandlers({ config, stores, embedder, logger: log, publish: () => {} });
    assert.deepEqual(await stores.graph.pendingMoves(T), [u.id]);
  } finally {
    await stores.close(1000);
  }
});
