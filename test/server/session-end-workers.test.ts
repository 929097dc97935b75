import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { pino, type Logger } from 'pino';
import { openStores } from '../../graph/open-stores.js';
import { CONSOLIDATION_JOB } from '../../pipelines/memory/consolidate.js';
import { speakerLockKey } from '../../pipelines/memory/subject-lock.js';
import { loadConfig } from '../../server/config.js';
import { ConsolidationWorkers } from '../../server/ws/consolidation-workers.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { startParleyProcess, WORKER_MAIN, type ParleyProcess } from '../helpers/topology.js';
import { deleteKeys, redisSkipReason, TEST_REDIS_URL } from '../helpers/redis.js';
import { tempDir } from '../helpers/temp-dir.js';
import { TestWsClient } from '../helpers/ws-client.js';

/**
 * A server that runs no jobs (`PARLEY_RUN_JOBS=false`) ends sessions (`session.end`, `POST …/end`, shutdown) at once
 * when no worker is alive, its jobs left queued for a later worker, and keeps waiting for consolidation when one is.
 * The wait (`PARLEY_SESSION_END_WAIT_MS`, the shutdown grace) is set far longer than any test waits, so an end that
 * waited it would fail the test (its event not within a minute), not pass late.
 */
const LONG_MS = '600000';
const FACT = 'I live in Porto and I love sushi.';

interface LogLine { level: number; msg: string }

/** A logger whose lines the test reads. */
function capturedLogger(): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const logger: Logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });
  return { logger, lines };
}

/** Open a live session on `t` and say a fact in it; resolves with the client and the stored turn's id. */
async function sayFact(t: TestApp, sessionId: string): Promise<{ c: TestWsClient; utteranceId: string }> {
  const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=${sessionId}`);
  await c.next('session.started');
  c.sendJson({ type: 'utterance', speaker: 'Ana', text: FACT });
  const final = await c.next('transcript.final');
  return { c, utteranceId: String(final.utterance_id) };
}

/** The per-session warning that an end did not wait for every consolidation. */
const notConsolidated = (lines: LogLine[]): LogLine[] => lines.filter((l) => l.msg.startsWith('session ended before every utterance was consolidated'));

async function consolidated(t: TestApp, utteranceId: string): Promise<boolean> {
  return (await t.app.stores.memory.processedFactsOf('default', [utteranceId])).has(utteranceId);
}

/**
 * The suite on a queue (`queueEnv`: embedded, or Redis with its prefix): a worker there is a `worker` member of the
 * embedded bus, or a BullMQ worker on Redis. `cleanup` runs after it.
 */
function endsWithoutWorker(label: string, queueEnv: Record<string, string>, skip?: string, cleanup: () => Promise<void> = async () => {}): void {
  describe(`ending a session on a server that runs no jobs: at once without a worker, waiting with one (${label})`, { skip }, () => {
    const tmp = tempDir('parley-end-workers-');
    const env = { ...queueEnv, DATA_DIR: tmp.dir, PARLEY_ASR: 'none' };
    const log = capturedLogger();
    const noWorker = (): LogLine[] => log.lines.filter((l) => l.msg.startsWith('no worker takes consolidation jobs'));
    let t: TestApp;
    let worker: ParleyProcess | undefined;

    before(async () => {
      t = await startTestApp({ ...env, PARLEY_RUN_JOBS: 'false', PARLEY_SESSION_END_WAIT_MS: LONG_MS }, true, log.logger);
    });

    after(async () => {
      if (worker && !worker.exited()) {
        const exited = new Promise((resolve) => worker!.child.once('exit', resolve));
        worker.child.kill('SIGTERM');
        await exited;
      }
      await t.close();
      tmp.remove();
      await cleanup();
    });

    test('no worker: session.end and POST …/end end at once, the jobs stay queued, and why is logged once', { timeout: 180_000 }, async () => {
      const ws = await sayFact(t, 'no-worker-ws');
      ws.c.sendJson({ type: 'session.end' });
      await ws.c.next('session.ended');
      assert.equal(await ws.c.closed(), 1000);
      assert.equal(ws.c.events.some((e) => e.type === 'memory.updated'), false);
      assert.equal(await consolidated(t, ws.utteranceId), false, 'nobody consolidated it');
      assert.ok((await t.app.stores.queue.pending(CONSOLIDATION_JOB)) >= 1, 'its job is still queued');

      const http = await sayFact(t, 'no-worker-http');
      const res = await fetch(`${t.httpUrl}/v1/sessions/no-worker-http/end`, { method: 'POST' });
      assert.equal(res.status, 202);
      await http.c.next('session.ended');
      assert.equal(await consolidated(t, http.utteranceId), false);
      assert.ok((await t.app.stores.queue.pending(CONSOLIDATION_JOB)) >= 2, 'both jobs are still queued');
      assert.equal(noWorker().length, 1, 'said once, not once per session');
      assert.equal(noWorker()[0]!.level, 40, 'a warning');
      assert.deepEqual(notConsolidated(log.lines), [], 'no second warning per session: the one above says why');
    });

    test('a worker registered: the end waits for consolidation; the worker also takes the jobs queued without it', { timeout: 300_000 }, async () => {
      worker = await startParleyProcess('worker', WORKER_MAIN, env, 'parley worker running');
      // A BullMQ worker's connection may come up just after the worker says it runs.
      for (const deadline = Date.now() + 60_000; !(await t.app.liveSessionDeps.workers.alive());) {
        assert.ok(Date.now() < deadline, `the server never saw the worker: ${worker.tail()}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const { c, utteranceId } = await sayFact(t, 'with-worker');
      c.sendJson({ type: 'session.end' });
      await c.next('session.ended', () => true, 240_000);
      assert.equal(await consolidated(t, utteranceId), true, 'session.ended came after its consolidation');
      assert.ok(log.lines.some((l) => l.msg.startsWith('a worker is registered again')), 'the change is logged');
      assert.equal(noWorker().length, 1);
      // The jobs of the sessions ended without a worker were kept for it.
      const ids = (await t.app.stores.graph.getTranscript('default', 'no-worker-ws')).map((u) => u.id);
      for (const deadline = Date.now() + 240_000; !(await consolidated(t, ids[0]!));) {
        assert.ok(Date.now() < deadline, `the worker did not take the queued job: ${worker.tail()}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    });
  });
}

// Asked before any suite starts: an app starting meanwhile can hold the loop past the probe's time-out.
const redisSkip = await redisSkipReason();
endsWithoutWorker('embedded queue', { PARLEY_QUEUE: 'embedded' });
const redisPrefix = `parley-ends-${process.pid}-${Date.now()}`;
endsWithoutWorker('Redis queue', { PARLEY_QUEUE: 'redis', REDIS_URL: TEST_REDIS_URL, PARLEY_REDIS_PREFIX: redisPrefix }, redisSkip, () => deleteKeys(redisPrefix));

test('shutdown with no worker does not wait for consolidation; the job stays queued in the file', { timeout: 180_000 }, async () => {
  const tmp = tempDir('parley-end-shutdown-');
  const env = { DATA_DIR: tmp.dir, PARLEY_QUEUE: 'embedded', PARLEY_ASR: 'none', PARLEY_RUN_JOBS: 'false' };
  const t = await startTestApp({ ...env, PARLEY_SESSION_END_WAIT_MS: LONG_MS, PARLEY_SHUTDOWN_GRACE_MS: LONG_MS });
  try {
    const { c, utteranceId } = await sayFact(t, 'shut-down');
    await t.close();
    const err = await c.next('error', (e) => e.code === 'PARLEY_ERR_SHUTTING_DOWN');
    assert.equal(err.fatal, false);
    assert.equal(await c.closed(), 1001);
    const stores = openStores(loadConfig(env), pino({ level: 'silent' }));
    try {
      assert.equal((await stores.memory.processedFactsOf('default', [utteranceId])).has(utteranceId), false);
      assert.ok((await stores.queue.pending(CONSOLIDATION_JOB)) >= 1, 'the job survived the shutdown');
    } finally {
      await stores.close();
    }
  } finally {
    tmp.remove();
  }
});

describe('ConsolidationWorkers', () => {
  const make = (runHere: boolean, answers: (boolean | null | Error)[]): { workers: ConsolidationWorkers; lines: LogLine[]; asked: () => number } => {
    const log = capturedLogger();
    let asked = 0;
    const workers = new ConsolidationWorkers({
      runHere, logger: log.logger,
      ask: async () => {
        const answer = answers[asked++];
        if (answer instanceof Error) throw answer;
        return answer ?? null;
      },
    });
    return { workers, lines: log.lines, asked: () => asked };
  };

  test('a process that runs the jobs itself is a worker: nothing is asked', async () => {
    const w = make(true, [false]);
    assert.equal(await w.workers.alive(), true);
    assert.equal(w.asked(), 0);
  });

  test('known absent: false, warned once until a worker is seen again; unknown or failing: true (the wait is kept)', async () => {
    const w = make(false, [false, false, null, new Error('CLIENT LIST refused'), true, false]);
    const results = [];
    for (let i = 0; i < 6; i++) results.push(await w.workers.alive());
    assert.deepEqual(results, [false, false, true, true, true, false]);
    assert.deepEqual(w.lines.filter((l) => l.level >= 30).map((l) => l.msg.split(':')[0]), [
      'no worker takes consolidation jobs (PARLEY_RUN_JOBS=false and no `npm run worker` is registered)',
      'a worker is registered again',
      'no worker takes consolidation jobs (PARLEY_RUN_JOBS=false and no `npm run worker` is registered)',
    ]);
  });
});

test('a worker takes the jobs but the end wait is over: one warning for that session, naming the setting', { timeout: 180_000 }, async () => {
  const tmp = tempDir('parley-end-timeout-');
  const log = capturedLogger();
  // This process takes the jobs. The speaker's lock, held by the test while the session ends, keeps the turn's facts
  // from being written (a consolidation writes under it: `turnCommit`), so the 0 ms wait is over with the turn still
  // waiting, however fast the machine (a consolidation that happened to finish first warned of nothing).
  const t = await startTestApp({ DATA_DIR: tmp.dir, PARLEY_ASR: 'none', PARLEY_SESSION_END_WAIT_MS: '0' }, true, log.logger);
  try {
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=wait-over`);
    await c.next('session.started');
    // Ana is known before her turn is said, so her lock is taken before any job can write for her.
    const ana = await t.app.stores.graph.createParticipant('default', { name: 'Ana' });
    await t.app.stores.locks.withLock([speakerLockKey('default', ana.id)], async () => {
      c.sendJson({ type: 'utterance', speaker: ana.id, text: FACT });
      await c.next('transcript.final');
      c.sendJson({ type: 'session.end' });
      await c.next('session.ended');
    });
    const warned = notConsolidated(log.lines);
    assert.equal(warned.length, 1, JSON.stringify(log.lines.filter((l) => l.level >= 40)));
    assert.equal(warned[0]!.level, 40);
    assert.match(warned[0]!.msg, /PARLEY_SESSION_END_WAIT_MS/);
    assert.equal(log.lines.filter((l) => l.level >= 40 && l.msg.startsWith('no worker')).length, 0, 'a worker is there: nothing else said');
  } finally {
    await t.close();
    tmp.remove();
  }
});
