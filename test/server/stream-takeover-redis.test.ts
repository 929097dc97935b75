import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { deleteKeys, redisSkipReason, TEST_REDIS_URL } from '../helpers/redis.js';
import { tempDir } from '../helpers/temp-dir.js';
import { TestWsClient } from '../helpers/ws-client.js';

// Asked before the suite starts: an app starting meanwhile can hold the loop past the probe's time-out.
const redisSkip = await redisSkipReason();
const redisPrefix = `parley-test-takeover-${process.pid}-${Date.now()}`;

/**
 * The takeover notice (`stream.taken`) on the Redis bus, as networked servers pass it (test/server/stream-takeover.test.ts
 * has it on the shared SQLite file's bus): two servers on one data directory with the queue and bus on Redis; a client
 * silent on A is told at once when it resumes on B.
 */
describe('one session on two servers, the event bus on Redis', { skip: redisSkip }, () => {
  const tmp = tempDir('parley-two-servers-redis-');
  let a: TestApp;
  let b: TestApp;
  before(async () => {
    const env = { DATA_DIR: tmp.dir, PARLEY_ASR: 'none', PARLEY_QUEUE: 'redis', REDIS_URL: TEST_REDIS_URL, PARLEY_REDIS_PREFIX: redisPrefix };
    a = await startTestApp(env);
    b = await startTestApp(env);
  });
  after(async () => {
    await b?.close();
    await a?.close();
    tmp.remove();
    await deleteKeys(redisPrefix);
  });

  test('a silent client on the first server is closed with 4000 as soon as another server takes its stream over', async () => {
    const id = 'silent-on-a-redis';
    const onA = await TestWsClient.connect(`${a.wsUrl}/v1/stream?session_id=${id}`);
    await onA.next('session.started');
    const reason = new Promise<string>((resolve) => onA.socket.once('close', (_code: number, why: Buffer) => resolve(why.toString())));
    const onB = await TestWsClient.connect(`${b.wsUrl}/v1/stream?session_id=${id}`);
    assert.equal((await onB.next('session.started')).resumed, true);
    const busy = await onA.next('error', (e) => e.code === 'PARLEY_ERR_SESSION_BUSY');
    assert.equal(busy.fatal, true);
    assert.equal(await onA.closed(), 4000);
    assert.equal(await reason, 'session resumed on another connection');
    assert.equal(a.app.sessions.get('default', id), undefined);
    assert.equal(b.app.sessions.get('default', id)?.connected, true, 'B keeps the session');
    onB.close();
    await onB.closed();
  });
});
