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
