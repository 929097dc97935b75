import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { JOB_NAMES } from '../../pipelines/jobs.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { deleteKeys, redisSkipReason, TEST_REDIS_URL } from '../helpers/redis.js';
import { tempDir } from '../helpers/temp-dir.js';
import { TestWsClient } from '../helpers/ws-client.js';

const WORKER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../server/worker.js');
const skip = await redisSkipReason();

/** The lines a worker started by {@link startWorker} logged so far. */
const logged = new WeakMap<ReturnType<typeof spawn>, string[]>();

/** Start `npm run worker` on `env` and resolve once it says it runs. */
async function startWorker(env: Record<string, string>): Promise<ReturnType<typeof spawn>> {
  const worker = spawn(process.execPath, [WORKER], { env: { ...process.env, ...env, LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  logged.set(worker, lines);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('worker did not start')), 30_000);
    createInterface({ input: worker.stdout! }).on('line', (line) => {
      lines.push(line);
      if (line.includes('parley worker running')) {
        clearTimeout(timer);
        resolve();
      }
    });
    worker.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
  });
  return worker;
}

/**
 * A server that runs no jobs (`PARLEY_RUN_JOBS=false`) and one worker process, both on `env`, started before the
 * suite's tests and stopped after them (the worker killed if still running; `cleanup` then).
 */
function serverAndWorker(env: Record<string, string>, cleanup: () => Promise<void> | void): { server: () => TestApp; worker: () => ReturnType<typeof spawn> } {
  let server: TestApp;
  let worker: ReturnType<typeof spawn>;
  before(async () => {
    server = await startTestApp({ ...env, PARLEY_RUN_JOBS: 'false' });
    worker = await startWorker(env);
  });
  after(async () => {
    if (worker.exitCode === null && worker.signalCode === null) {
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.kill('SIGTERM');
      await exited;
    }
    await server.close();
    await cleanup();
  });
  return { server: () => server, worker: () => worker };
}

/** Resolve once no job of the server's queue waits or runs (the worker took and finished them all). */
async function drained(server: TestApp, worker: ReturnType<typeof spawn>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let pending = 0;
    for (const name of JOB_NAMES) pending += await server.app.stores.queue.pending(name);
    if (pending === 0) return;
    assert.equal(worker.exitCode, null, `the worker exited (${worker.exitCode}) with ${pending} jobs left`);
    if (Date.now() > deadline) throw new Error(`${pending} jobs still pending`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Say a fact on a live session of `server`, and check that the worker consolidated it and reported it to
 * that session (`memory.updated`, through the event bus: the worker is another process).
 */
async function factReachesLiveSession(server: TestApp, sessionId: string, speaker = 'Ana', city = 'Porto'): Promise<void> {
  const c = await TestWsClient.connect(`${server.wsUrl}/v1/stream?session_id=${sessionId}`);
  try {
    await c.next('session.started');
    c.sendJson({ type: 'utterance', speaker, text: `I live in ${city} and I love sushi.` });
    await c.next('transcript.final');
    const updated = await c.next('memory.updated', () => true, 30_000);
    const ops = updated.ops as { op: string; text: string }[];
    assert.ok(ops.some((o) => o.op === 'ADD' && o.text.includes(city)), JSON.stringify(ops));
  } finally {
    c.close();
  }
}

describe('npm run worker on the embedded (SQLite) queue: stays up, takes jobs another process enqueues, reports to live sessions', () => {
  const tmp = tempDir('parley-worker-sqlite-');
  const both = serverAndWorker({ DATA_DIR: tmp.dir, PARLEY_QUEUE: 'embedded', PARLEY_ASR: 'none' }, () => tmp.remove());

  test('a fact said on the server is consolidated by the worker and reported to the live session (events through the file)', async () => {
    await factReachesLiveSession(both.server(), 'e1');
  });

  test('an erasure on the server (told over the bus) drops the schema vectors the worker embedded for the tenant', async () => {
    const server = both.server();
    const worker = both.worker();
    // A fact consolidated by the worker runs its left-brain step, which embeds the tenant's schemas. A person and a
    // fact of their own: the suite's other tests share this server (Ana's Porto fact may be known already).
    await factReachesLiveSession(server, 'e0', 'Bea', 'Lisbon');
    await drained(server, worker);
    const res = await server.app.inject({ method: 'DELETE', url: '/v1/participants/Bea' });
    assert.equal(res.statusCode, 200, res.body);
    const lines = logged.get(worker)!;
    const notice = (): { dropped: number; held: number } | undefined => lines
      .filter((l) => l.includes('participant erased: schema vectors dropped'))
      .map((l) => JSON.parse(l) as { dropped: number; held: number })[0];
    for (let i = 0; i < 600 && !notice(); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    const told = notice();
    assert.ok(told, `the worker acted on the erasure notice: ${lines.join('\n')}`);
    assert.ok(told.dropped > 0, 'the worker held schema vectors of the tenant before the erasure');
    assert.equal(told.held, 0, 'and holds none after it');
  });

  test('every job is consumed, the worker outlives an idle queue, and exits 0 on SIGTERM', async () => {
    const server = both.server();
    const worker = both.worker();
    const say = async (sessionId: string, lines: string[]): Promise<void> => {
      const c = await TestWsClient.connect(`${server.wsUrl}/v1/stream?session_id=${sessionId}`);
      await c.next('session.started');
      for (const text of lines) {
        c.sendJson({ type: 'utterance', speaker: 'Ana', text });
        await c.next('transcript.final');
      }
      c.close();
    };
    await say('s1', ['I live in Porto.', 'I love sushi.', 'My sister is called Rita.', 'I work as a nurse.']);
    await drained(server, worker);
    // Idle a while: a worker that holds nothing open ends here, and the second batch below is never taken.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    assert.equal(worker.exitCode, null, 'the worker is still running with the queue drained');
    await say('s2', ['I moved to Lisbon last year.']);
    await drained(server, worker);
    const facts = await server.app.stores.memory.listFacts('default', {});
    for (const word of ['Rita', 'Lisbon']) assert.ok(facts.some((f) => f.content.includes(word)), `the worker wrote the ${word} fact: ${JSON.stringify(facts.map((f) => f.content))}`);
    const exited = new Promise<number | null>((resolve) => worker.once('exit', (code) => resolve(code)));
    worker.kill('SIGTERM');
    assert.equal(await exited, 0);
  });
});

describe('npm run worker: consolidation in another process over Redis', { skip }, () => {
  const prefix = `parley-test-worker-${process.pid}`;
  const tmp = tempDir('parley-worker-');
  const both = serverAndWorker({
    DATA_DIR: tmp.dir, PARLEY_QUEUE: 'redis', REDIS_URL: TEST_REDIS_URL, PARLEY_REDIS_PREFIX: prefix, PARLEY_ASR: 'none',
  }, async () => {
    await deleteKeys(prefix);
    tmp.remove();
  });

  test('a fact said on the server is consolidated by the worker and reported to the live session', async () => {
    const server = both.server();
    await factReachesLiveSession(server, 'w1');
    const facts = await server.app.stores.memory.listFacts('default', {});
    assert.ok(facts.some((f) => /Porto/.test(f.content)), 'the worker wrote to the shared store');
  });
});
