import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ParleyError } from '../../../graph/core/errors.js';
import { WorkerBatcher, type WorkerBatcherOptions } from '../../../pipelines/embeddings/worker-batcher.js';
import type { BatcherWorkerHandshake, BatcherWorkerReply, BatcherWorkerRequest, BatcherWorkerStart } from '../../doubles/batcher-worker.js';

type Options = WorkerBatcherOptions<BatcherWorkerRequest, BatcherWorkerReply, BatcherWorkerHandshake>;

/** A batcher over the test-double worker; each vector reads [request number, index in request, text length]. */
function batcher(start: BatcherWorkerStart, o: Partial<Options> = {}): WorkerBatcher<BatcherWorkerRequest, BatcherWorkerReply, BatcherWorkerHandshake> {
  return new WorkerBatcher({
    label: 'double', url: new URL('../../doubles/batcher-worker.js', import.meta.url), workerData: { start },
    startTimeoutMs: 10_000, maxBatch: 2,
    embedRequest: (texts) => ({ texts }), vectorsOf: (res) => res.vectors,
    loadFailed: (error) => new ParleyError('PARLEY_ERR_MODEL_MISSING', `double failed to load: ${error}`),
    refuseReady: (ready) => ready.dimension === 3 ? undefined : new ParleyError('PARLEY_ERR_MODEL_MISSING', `double gives ${ready.dimension}-d vectors`),
    ...o,
  });
}

const rows = (vs: Float32Array[]): number[][] => vs.map((v) => Array.from(v));
const code = (c: string) => (err: unknown): boolean => err instanceof ParleyError && err.code === c;

test('calls in one tick: whole calls grouped up to maxBatch texts, each call gets its own vectors in order', async () => {
  const b = batcher('ready');
  try {
    const [one, two, three] = await Promise.all([b.embed(['a']), b.embed(['bb', 'ccc']), b.embed(['dddd'])]);
    // Groups [a] [bb ccc] [dddd]: three requests, sent in order.
    assert.deepEqual(rows(one!), [[1, 0, 1]]);
    assert.deepEqual(rows(two!), [[2, 0, 2], [2, 1, 3]]);
    assert.deepEqual(rows(three!), [[3, 0, 4]]);
    assert.deepEqual(await b.embed([]), []);
  } finally {
    await b.close();
  }
});

test('a failed request fails only its own group; with groupTexts Infinity every queued call shares it', async () => {
  const grouped = batcher('ready');
  const one = batcher('ready', { groupTexts: Infinity });
  try {
    const [bad, good] = await Promise.allSettled([grouped.embed(['bad']), grouped.embed(['x', 'y'])]);
    assert.ok(bad.status === 'rejected' && code('PARLEY_ERR_INTERNAL')(bad.reason) && /bad text/.test((bad.reason as Error).message));
    assert.ok(good.status === 'fulfilled' && good.value.length === 2);
    // One group of three texts in requests of two: [x bad] fails, so both calls fail.
    const both = await Promise.allSettled([one.embed(['x']), one.embed(['bad', 'z'])]);
    assert.ok(both.every((r) => r.status === 'rejected' && code('PARLEY_ERR_INTERNAL')(r.reason)));
    // Texts of several calls are cut into requests of maxBatch across the calls.
    const [p, q] = await Promise.all([one.embed(['p']), one.embed(['qq', 'rrr'])]);
    assert.deepEqual(rows(p!), [[2, 0, 1]]);
    assert.deepEqual(rows(q!), [[2, 1, 2], [3, 0, 3]]);
  } finally {
    await grouped.close();
    await one.close();
  }
});

test('a crash fails the requests in flight with PARLEY_ERR_WORKER_CRASHED; the next call starts a fresh worker', async () => {
  const b = batcher('ready');
  try {
    await assert.rejects(b.embed(['crash']), (err: unknown) => code('PARLEY_ERR_WORKER_CRASHED')(err) && /double worker died/.test((err as Error).message));
    assert.deepEqual(rows(await b.embed(['after'])), [[1, 0, 5]], 'request 1 of a new worker');
  } finally {
    await b.close();
  }
});

test('a worker that throws reports twice (error, then exit); the second report leaves the fresh worker serving', async () => {
  const b = batcher('ready');
  try {
    await assert.rejects(b.embed(['throw']), (err: unknown) => code('PARLEY_ERR_WORKER_CRASHED')(err) && /thrown in the worker/.test(String((err as Error).cause)));
    assert.deepEqual(rows(await b.embed(['one'])), [[1, 0, 3]], 'request 1 of a new worker');
    await new Promise((resolve) => setTimeout(resolve, 200)); // the thrower's 'exit' has arrived by now
    assert.deepEqual(rows(await b.embed(['two'])), [[2, 0, 3]], 'request 2 of the same worker, not a third one');
  } finally {
    await b.close();
  }
});

test('start-up failures: failed handshake, refused ready, time-out and preflight, each with its own error', async () => {
  const failed = batcher('failed');
  await assert.rejects(failed.start(), (err: unknown) => code('PARLEY_ERR_MODEL_MISSING')(err) && /double failed to load: no such model/.test((err as Error).message));
  await failed.close();
  const wide = batcher('wide');
  await assert.rejects(wide.embed(['x']), /double gives 4-d vectors/);
  await wide.close();
  const silent = batcher('silent', { startTimeoutMs: 200 });
  await assert.rejects(silent.start(), (err: unknown) => code('PARLEY_ERR_MODEL_MISSING')(err) && /double worker did not start in time/.test((err as Error).message));
  await silent.close();
  const absent = batcher('ready', { preflight: () => new ParleyError('PARLEY_ERR_MODEL_MISSING', 'files missing') });
  await assert.rejects(absent.start(), /files missing/);
  await assert.rejects(absent.embed(['x']), /files missing/);
  await absent.close();
});

test('a preflight refusal is not kept: once the files are there, the next start runs a worker', async () => {
  let present = false;
  const b = batcher('ready', { preflight: () => present ? undefined : new ParleyError('PARLEY_ERR_MODEL_MISSING', 'files missing') });
  try {
    await assert.rejects(b.start(), /files missing/);
    present = true; // fetched meanwhile
    await b.start();
    assert.deepEqual(rows(await b.embed(['x'])), [[1, 0, 1]]);
  } finally {
    await b.close();
  }
});

test('after close every call is PARLEY_ERR_SHUTTING_DOWN and no worker starts', async () => {
  const b = batcher('ready');
  await b.embed(['x']);
  await b.close();
  await assert.rejects(b.embed(['y']), code('PARLEY_ERR_SHUTTING_DOWN'));
  await assert.rejects(b.request({ texts: ['y'] }), code('PARLEY_ERR_SHUTTING_DOWN'));
  await assert.rejects(b.start(), code('PARLEY_ERR_SHUTTING_DOWN'));
});

test('close lets the requests in flight be answered first (a native model terminated mid-run aborts the process), for at most drainMs', async () => {
  const b = batcher('ready');
  await b.start();
  const inFlight = b.embed(['slow']);
  await new Promise((r) => setTimeout(r, 20)); // sent, not answered
  await b.close();
  assert.deepEqual(rows(await inFlight), [[1, 0, 4]], 'answered, not failed by the close');

  const stuck = batcher('ready');
  await stuck.start();
  const never = stuck.embed(['never']);
  await new Promise((r) => setTimeout(r, 20));
  const started = Date.now();
  await stuck.close(200);
  assert.ok(Date.now() - started < 5000, 'a reply that never comes does not hold the close');
  await assert.rejects(never, code('PARLEY_ERR_WORKER_CRASHED'));
});
