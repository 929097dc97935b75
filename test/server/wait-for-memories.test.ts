/**
 * The README's way to wait for the memories of text turns posted over HTTP (newcomer trial12 F18): `POST
 * /v1/sessions/{id}/end` answers 202 at once with its end job's id, waiting for no job, and `/readyz`'s `jobs.waiting`
 * and `jobs.running` count the turns' consolidation jobs and the end job until they have run; at 0 the facts are there.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.js';

const TURNS = { utterances: [
  { speaker: 'Ana', text: 'Ben, I will send you the draft on Friday.' },
  { speaker: 'Ben', text: 'Thanks Ana. I am flying to Lisbon next week.' },
] };

interface Jobs { waiting: number; running: number; queues: Record<string, { waiting: number }> }

async function jobs(t: TestApp): Promise<Jobs> {
  return (await t.app.inject({ url: '/readyz' })).json<{ jobs: Jobs }>().jobs;
}

async function facts(t: TestApp): Promise<string[]> {
  return (await t.app.inject({ url: '/v1/memories' })).json<{ memories: { layer: string; text: string }[] }>().memories
    .filter((m) => m.layer === 'fact').map((m) => m.text);
}

describe('waiting for the memories of posted text turns (README)', () => {
  test('the end answers at once with its job id; /readyz counts the turns\' jobs and the end job, none run yet', async () => {
    // No job runner: what the end answers cannot have waited for a job.
    const t = await startTestApp({ PARLEY_RUN_JOBS: 'false' }, false);
    try {
      assert.equal((await t.app.inject({ method: 'POST', url: '/v1/sessions/wait-1/utterances', payload: TURNS })).statusCode, 201);
      assert.equal((await jobs(t)).queues['memory.consolidate']?.waiting, 2, 'one consolidation job per turn');
      const end = await t.app.inject({ method: 'POST', url: '/v1/sessions/wait-1/end' });
      assert.equal(end.statusCode, 202);
      const body = end.json<{ session_id: string; ended_at: string; job_id: string }>();
      assert.equal(body.session_id, 'wait-1');
      assert.match(body.job_id, /^session-end-/);
      assert.ok(!Number.isNaN(Date.parse(body.ended_at)));
      const after = await jobs(t);
      assert.equal(after.waiting, 3);
      assert.equal(after.queues['session.end']?.waiting, 1);
      assert.deepEqual(await facts(t), [], 'no memory formed: the end waited for no job');
      const late = await t.app.inject({ method: 'POST', url: '/v1/sessions/wait-1/utterances', payload: { utterances: [{ speaker: 'Ana', text: 'One more.' }] } });
      assert.equal(late.statusCode, 409, 'an ended session takes no more utterances');
    } finally {
      await t.close();
    }
  });

  test('once /readyz shows no job waiting or running, the turns\' facts are stored', async () => {
    const t = await startTestApp({}, false);
    try {
      assert.equal((await t.app.inject({ method: 'POST', url: '/v1/sessions/wait-2/utterances', payload: TURNS })).statusCode, 201);
      assert.equal((await t.app.inject({ method: 'POST', url: '/v1/sessions/wait-2/end' })).statusCode, 202);
      // The README's loop; the test runner's timeout bounds it.
      for (let j = await jobs(t); j.waiting > 0 || j.running > 0; j = await jobs(t)) await sleep(100);
      const stored = await facts(t);
      assert.ok(stored.some((f) => /^Ana will send Ben the draft on Friday/.test(f)), JSON.stringify(stored));
      assert.ok(stored.some((f) => /^Ben is flying to Lisbon/.test(f)), JSON.stringify(stored));
    } finally {
      await t.close();
    }
  });
});
