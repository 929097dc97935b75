import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import pino from 'pino';
import type { Job } from '../../../graph/job-queue.js';
import { openStores } from '../../../graph/open-stores.js';
import type { Stores } from '../../../graph/stores.js';
import { InteractionIngest } from '../../../pipelines/interaction/ingest.js';
import { CONSOLIDATION_JOB, type ConsolidationJob } from '../../../pipelines/memory/consolidate.js';
import { loadConfig } from '../../../server/config.js';
import { CRASH_SESSION, CRASH_TENANT, crashBatch, ingestAndCrash } from '../../helpers/ingest-crash.js';
import { deleteKeys, redisSkipReason, TEST_REDIS_URL } from '../../helpers/redis.js';
import { tempDir } from '../../helpers/temp-dir.js';

const logger = pino({ level: 'silent' });
const redisSkip = await redisSkipReason();
const prefixes: string[] = [];

after(async () => {
  if (!redisSkip) for (const prefix of prefixes) await deleteKeys(prefix, TEST_REDIS_URL);
});

/** A data dir and a Redis prefix of its own (`parley-fixq-…`, deleted after the file). */
function place(): { dir: string; remove(): void; prefix: string } {
  const prefix = `parley-fixq-${process.pid}-${Date.now()}-${prefixes.length}`;
  prefixes.push(prefix);
  return { ...tempDir(), prefix };
}

function open(dir: string, queue: 'embedded' | 'redis', prefix: string): Stores {
  return openStores(loadConfig({ DATA_DIR: dir, PARLEY_QUEUE: queue, REDIS_URL: TEST_REDIS_URL, PARLEY_REDIS_PREFIX: prefix }), logger);
}

/**
 * Stand-in for the consolidation handler (which needs the embedding model): counts its runs per
 * utterance and records the utterance as processed, as consolidation does.
 */
function countRuns(stores: Stores): Map<string, number> {
  const runs = new Map<string, number>();
  stores.queue.process<ConsolidationJob>(CONSOLIDATION_JOB, async (job: Job<ConsolidationJob>) => {
    const { tenant, utteranceId } = job.data;
    runs.set(utteranceId, (runs.get(utteranceId) ?? 0) + 1);
    await stores.memory.markProcessed(tenant, utteranceId, []);
  });
  return runs;
}

/** Every utterance stored in the crash session, and how often each was consolidated. */
async function consolidatedRuns(stores: Stores, runs: Map<string, number>): Promise<Record<string, number>> {
  await stores.queue.drain(CONSOLIDATION_JOB, 60_000);
  const stored = await stores.graph.recentUtterances(CRASH_TENANT, CRASH_SESSION, 1000);
  return Object.fromEntries(stored.map((u) => [u.id, runs.get(u.id) ?? 0]));
}

function once(ids: string[]): Record<string, number> {
  return Object.fromEntries(ids.map((id) => [id, 1]));
}

for (const queue of ['embedded', 'redis'] as const) {
  describe(`ingest with the ${queue} queue and a SQLite graph`, { skip: queue === 'redis' ? redisSkip : undefined }, () => {
    test('a crash between storing utterances and queueing them leaves none unconsolidated; the resend completes the batch', async () => {
      const { dir, remove, prefix } = place();
      // 30 utterances make two commits (20, 10); killed at the 25th job, inside the second.
      await ingestAndCrash({ dataDir: dir, queue, redisUrl: TEST_REDIS_URL, prefix, stopAt: 25, count: 30 });
      const stores = open(dir, queue, prefix);
      try {
        const runs = countRuns(stores);
        const afterRestart = await consolidatedRuns(stores, runs);
        assert.ok(Object.keys(afterRestart).length > 0, 'the first commit survived the crash');
        assert.deepEqual(afterRestart, once(Object.keys(afterRestart)), 'every stored utterance is consolidated exactly once');

        const batch = crashBatch(30);
        const resent = await new InteractionIngest({ ...stores, logger }).ingest(CRASH_TENANT, CRASH_SESSION, batch);
        assert.deepEqual(resent.map((r) => r.utterance.id), batch.map((b) => b.id));
        assert.deepEqual(await consolidatedRuns(stores, runs), once(batch.map((b) => b.id)));
      } finally {
        await stores.close(2000);
        remove();
      }
    });

    test('a resend queues again the stored utterances whose job is missing, and only those never consolidated', async () => {
      const { dir, remove, prefix } = place();
      const stores = open(dir, queue, prefix);
      try {
        const runs = countRuns(stores);
        const batch = crashBatch(6);
        // As after a Neo4j graph committed and the process died before queueing: stored, no job.
        const dying = new Proxy(stores.queue, {
          get: (target, prop) => (prop === 'enqueue' ? () => Promise.reject(new Error('process died')) : Reflect.get(target, prop, target)),
        });
        await assert.rejects(new InteractionIngest({ ...stores, queue: dying, atomically: undefined, logger }).ingest(CRASH_TENANT, CRASH_SESSION, batch));
        assert.deepEqual(await consolidatedRuns(stores, runs), Object.fromEntries(batch.map((b) => [b.id, 0])));

        const ingest = new InteractionIngest({ ...stores, logger });
        await ingest.ingest(CRASH_TENANT, CRASH_SESSION, batch);
        assert.deepEqual(await consolidatedRuns(stores, runs), once(batch.map((b) => b.id)));
        // Finished jobs leave the queue after a day; the record of what was consolidated stays.
        await stores.queue.forget(batch.map((b) => b.id));
        await ingest.ingest(CRASH_TENANT, CRASH_SESSION, batch);
        assert.deepEqual(await consolidatedRuns(stores, runs), once(batch.map((b) => b.id)));
      } finally {
        await stores.close(2000);
        remove();
      }
    });
  });
}
