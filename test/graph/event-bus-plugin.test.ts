import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Redis } from 'ioredis';
import { redisSkipReason } from '../helpers/redis.js';
import { startTestApp } from '../helpers/app.js';
import { TestWsClient } from '../helpers/ws-client.js';

const skip = await redisSkipReason();
const REDIS_URL = process.env.PARLEY_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/14';

test('an event published in-process reaches the live socket of its session only', async () => {
  const server = await startTestApp();
  const client = await TestWsClient.connect(`${server.wsUrl}/v1/stream?session_id=s-bus`);
  try {
    await client.next('session.started');
    await server.app.events.publish('default', 'other-session', { type: 'speaker.merged', payload: { from: 'x', into: 'y' } });
    await server.app.events.publish('default', 's-bus', { type: 'speaker.merged', payload: { from: 'p_a', into: 'p_b' } });
    const event = await client.next('speaker.merged');
    assert.equal(event.from, 'p_a');
    assert.equal(event.into, 'p_b');
    assert.equal(event.session_id, 's-bus');
    assert.equal(client.events.filter((e) => e.type === 'speaker.merged').length, 1);
  } finally {
    client.socket.close();
    await server.close();
  }
});

test('with Redis, an event published by another process reaches the server holding the socket', { skip }, async () => {
  const prefix = `parley-test-busapp-${process.pid}-${Date.now()}`;
  const env = { PARLEY_QUEUE: 'redis', REDIS_URL, PARLEY_REDIS_PREFIX: prefix };
  const holder = await startTestApp(env);
  const other = await startTestApp(env, false);
  const client = await TestWsClient.connect(`${holder.wsUrl}/v1/stream?session_id=s-far`);
  try {
    await client.next('session.started');
    assert.equal(await other.app.events.ready(), true);
    await other.app.events.publish('default', 's-far', {
      type: 'memory.updated', payload: { ops: [{ op: 'ADD', memory_id: 'f_1', text: 'Ana lives in Porto' }] },
    });
    const event = await client.next('memory.updated');
    assert.deepEqual(event.ops, [{ op: 'ADD', memory_id: 'f_1', text: 'Ana lives in Porto' }]);
  } finally {
    client.socket.close();
    await holder.close();
    await other.close();
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  }
});
