import { existsSync } from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import type { JobQueue } from '../graph/job-queue.js';
import { openStoresChecked } from '../graph/open-stores.js';
import { JOB_NAMES } from '../pipelines/jobs.js';
import { loadConfigOrExit, logConfigWarnings } from '../server/process.js';

const USAGE = `usage: npm run jobs -- dead [queue]            list dead letters (all queues, or one)
       npm run jobs -- retry <queue> <id>...     put dead letters back on their queue
       npm run jobs -- retry <queue> --all       every dead letter of the queue
queues: ${JOB_NAMES.join(', ')}`;

/** One line per dead letter of `names` on stdout: queue, id, failed at, attempts, error, data; "no dead jobs" on stderr when none. */
async function listDead(queue: JobQueue, names: readonly string[]): Promise<void> {
  let listed = 0;
  for (const name of names) {
    for (const d of await queue.deadLetters(name)) {
      process.stdout.write(`${JSON.stringify({ queue: name, id: d.id, failedAt: d.failedAt, attempts: d.attempts, error: d.error, data: d.data })}\n`);
      listed += 1;
    }
  }
  // stdout stays JSON lines only (none), so a script reading it needs no special case.
  if (listed === 0) process.stderr.write(`parley jobs: no dead jobs${names.length === 1 ? ` on ${names[0]}` : ''}\n`);
}

/** Put the dead letters `ids` (or all of `name`'s) back on the queue; returns how many were not found. */
async function retry(queue: JobQueue, name: string, ids: string[]): Promise<number> {
  const targets = ids.includes('--all') ? (await queue.deadLetters(name)).map((d) => d.id) : ids;
  if (targets.length === 0) process.stderr.write(`parley jobs: no dead jobs on ${name}: nothing to retry\n`);
  let missing = 0;
  for (const id of targets) {
    const ok = await queue.retryDeadLetter(name, id);
    process.stdout.write(`${JSON.stringify({ queue: name, id, retried: ok })}\n`);
    if (!ok) missing += 1;
  }
  return missing;
}

/**
 * `npm run jobs`: the operator's view of failed background jobs, on the configured queue (the same
 * `DATA_DIR` or `REDIS_URL` / `PARLEY_REDIS_PREFIX` as the server): list the dead letters, and put
 * them back on their queue, where the server or a worker runs them (e.g. after a store outage longer
 * than `PARLEY_JOB_MAX_OUTAGE_WAIT_MS`). With none, says so on stderr ("no dead jobs", "nothing to retry")
 * and exits 0. Exit 1 when a named dead letter was not found or (embedded queue) there is no
 * `DATA_DIR/parley.db`, 2 on bad usage.
 */
async function main(): Promise<void> {
  const [command, name, ...ids] = process.argv.slice(2);
  const known = name === undefined || JOB_NAMES.includes(name);
  if (!known || (command !== 'dead' && command !== 'retry') || (command === 'retry' && (!name || ids.length === 0))) {
    process.stderr.write(`${USAGE}\n`);
    process.exit(2);
  }
  const { config, warnings } = loadConfigOrExit('parley jobs');
  const logger = pino({ level: 'warn' }, pino.destination(2));
  logConfigWarnings(logger, warnings);
  // The embedded queue lives in DATA_DIR/parley.db: without that file there is no queue to read, and
  // opening the stores would create an empty one where a mistyped DATA_DIR points.
  const db = path.join(config.dataDir, 'parley.db');
  if (config.queue === 'embedded' && !existsSync(db)) {
    process.stderr.write(`parley jobs: no database at ${db}: is DATA_DIR right? (nothing was created)\n`);
    process.exit(1);
  }
  const stores = await openStoresChecked(config, logger);
  let missing = 0;
  try {
    if (command === 'dead') await listDead(stores.queue, name ? [name] : JOB_NAMES);
    else missing = await retry(stores.queue, name as string, ids);
  } finally {
    await stores.close(1000);
  }
  process.exit(missing > 0 ? 1 : 0);
}

main().catch((err: unknown) => {
  process.stderr.write(`parley jobs: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
