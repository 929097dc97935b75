/**
 * A process that stores a batch of utterances and stops dead inside the queueing of one of them:
 * `node ingest-crash-child.js DATA_DIR QUEUE REDIS_URL PREFIX STOP_AT COUNT` (run with an IPC channel).
 * It ingests `COUNT` utterances with ids `crash-{i}` into session `crash-1` of tenant `t1` with the
 * stores `openStores` builds for `PARLEY_QUEUE=QUEUE`; when the `STOP_AT`-th consolidation job is
 * handed to the queue it sends `stopped` to its parent and waits forever, so the parent can SIGKILL
 * it exactly between the storing of an utterance and the queueing of its job.
 */
import pino from 'pino';
import { openStores } from '../../graph/open-stores.js';
import type { JobQueue } from '../../graph/job-queue.js';
import { InteractionIngest } from '../../pipelines/interaction/ingest.js';
import { loadConfig } from '../../server/config.js';
import { crashBatch } from './ingest-crash.js';

const [dataDir, queueKind, redisUrl, prefix, stopAt, count] = process.argv.slice(2);
const logger = pino({ level: 'silent' });
const stores = openStores(loadConfig({ DATA_DIR: dataDir, PARLEY_QUEUE: queueKind, REDIS_URL: redisUrl, PARLEY_REDIS_PREFIX: prefix }), logger);

let enqueued = 0;
const stopping: JobQueue['enqueue'] = async (name, data, options) => {
  enqueued += 1;
  if (enqueued === Number(stopAt)) {
    process.send?.('stopped');
    await new Promise(() => undefined);
  }
  return stores.queue.enqueue(name, data, options);
};
// The real queue, but for the one enqueue the process is killed in.
const queue = new Proxy(stores.queue, {
  get(target, prop) {
    if (prop === 'enqueue') return stopping;
    const value: unknown = Reflect.get(target, prop, target);
    return typeof value === 'function' ? value.bind(target) : value;
  },
});

const ingest = new InteractionIngest({ ...stores, queue, logger });
await ingest.ingest('t1', 'crash-1', crashBatch(Number(count)));
process.send?.('finished');

