import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
before(async () => { t = await startTestApp({ PARLEY_INFERENCE_WORKERS: '1' }, false); });
after(async () => { await t.close(); });

async function readiness(): Promise<{ status: number; body: { status: string; checks: Record<string, boolean> } }> {
  const res = await t.app.inject({ url: '/readyz' });
  return { status: res.statusCode, body: res.json() };
}

test('/readyz checks the inference workers once they were started, and is not ready without a live one', async () => {
  const unstarted = await readiness();
  assert.equal(unstarted.status, 200);
  assert.equal(unstarted.body.checks.workers, undefined, 'a pool never started (tests start it on first use) is not checked');

  const pool = await t.app.models.inference();
  const live = await readiness();
  assert.equal(live.status, 200);
  assert.equal(live.body.checks.workers, true);

  await pool.close();
  const gone = await readiness();
  assert.equal(gone.status, 503);
  assert.equal(gone.body.status, 'not ready');
  assert.equal(gone.body.checks.workers, false);
});

test('/readyz reports jobs no worker takes (PARLEY_RUN_JOBS=false) as a warning, staying ready; /metrics flags the queue', async () => {
  const apiOnly = await startTestApp({ PARLEY_RUN_JOBS: 'false', PARLEY_JOBS_UNCLAIMED_MS: '60000' }, false);
  try {
    type Body = {
      status: string;
      jobs: { status: string; waiting: number; oldest_waiting_ms: number | null; unclaimed_after_ms: number; run_here: boolean; queues: Record<string, { waiting: number }> };
      warnings: { code: string; message: string }[];
    };
    const ready = async (): Promise<{ status: number; body: Body }> => {
      const res = await apiOnly.app.inject({ url: '/readyz' });
      return { status: res.statusCode, body: res.json() };
    };
    const idle = await ready();
    assert.equal(idle.body.jobs.status, 'ok');
    assert.equal(idle.body.jobs.waiting, 0);
    assert.equal(idle.body.jobs.oldest_waiting_ms, null);
    assert.deepEqual(idle.body.warnings, []);

    await apiOnly.app.stores.queue.enqueue('memory.consolidate', { tenant: 'default', sessionId: 's', utteranceId: 'u_unclaimed' });
    const fresh = await ready();
    assert.equal(fresh.body.jobs.waiting, 1);
    assert.equal(fresh.body.jobs.queues['memory.consolidate']?.waiting, 1);
    assert.equal(fresh.body.jobs.status, 'ok', 'a job just enqueued is not unclaimed yet');

    // As if it had waited two minutes, with nobody taking it.
    apiOnly.app.stores.sqlite.prepare('UPDATE jobs SET run_at = run_at - 120000').run();
    const stale = await ready();
    assert.equal(stale.status, 200, 'a worker outage does not take the API out of rotation');
    assert.equal(stale.body.status, 'ready');
    assert.equal(stale.body.jobs.status, 'unclaimed');
    assert.equal(stale.body.jobs.run_here, false);
    assert.equal(stale.body.jobs.unclaimed_after_ms, 60_000);
    assert.ok(stale.body.jobs.oldest_waiting_ms! >= 120_000);
    assert.equal(stale.body.warnings.length, 1);
    assert.equal(stale.body.warnings[0]!.code, 'PARLEY_WARN_JOBS_UNCLAIMED');
    assert.match(stale.body.warnings[0]!.message, /npm run worker/);

    const metrics = (await apiOnly.app.inject({ url: '/metrics' })).body;
    assert.match(metrics, /^parley_queue_unclaimed\{queue="memory\.consolidate"\} 1$/m);
    assert.match(metrics, /^parley_queue_unclaimed\{queue="memory\.after-consolidation"\} 0$/m);
  } finally {
    await apiOnly.close();
  }
});
