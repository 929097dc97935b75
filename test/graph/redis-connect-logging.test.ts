import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { pino } from 'pino';
import type { BusEvent } from '../../graph/event-bus.js';
import { connectionErrorLevel } from '../../graph/redis/connection-errors.js';
import { RedisEventBus } from '../../graph/redis/redis-event-bus.js';
import { redisSkipReason, TEST_REDIS_URL } from '../helpers/redis.js';
import { freePort, redisProxy, until, type RedisProxy } from '../helpers/redis-proxy.js';

describe('connectionErrorLevel: quiet while connecting at start, loud once lost or late', () => {
  test('first error info, later ones debug, within the grace; warn after it or once connected', () => {
    assert.equal(connectionErrorLevel({ everReady: false, tryingForMs: 100, earlierErrors: 0 }, 15_000), 'info');
    assert.equal(connectionErrorLevel({ everReady: false, tryingForMs: 3_000, earlierErrors: 1 }, 15_000), 'debug');
    assert.equal(connectionErrorLevel({ everReady: false, tryingForMs: 15_000, earlierErrors: 9 }, 15_000), 'warn');
    assert.equal(connectionErrorLevel({ everReady: true, tryingForMs: 100, earlierErrors: 0 }, 15_000), 'warn');
  });
});

/** `bus.ready()` until true (ioredis retries every ≤ 2 s), at most `tries` times. */
async function waitReady(bus: RedisEventBus, tries = 30): Promise<boolean> {
  for (let i = 0; i < tries; i++) if (await bus.ready()) return true;
  return false;
}

const skip = await redisSkipReason();

describe('RedisEventBus started before its Redis', { skip }, () => {
  test('no warning while it connects; events work once Redis is up; a lost connection warns', async () => {
    const logged: { level: number; msg: string; component?: string }[] = [];
    const logger = pino({ level: 'debug' }, { write: (line: string) => logged.push(JSON.parse(line) as { level: number; msg: string }) });
    const port = await freePort();
    const target = new URL(TEST_REDIS_URL);
    const bus = new RedisEventBus({ url: `redis://127.0.0.1:${port}${target.pathname}`, prefix: `parley-polish7-${process.pid}`, logger, connectGraceMs: 600_000 });
    bus.start();
    let proxy: RedisProxy | null = null;
    try {
      // Both clients fail to connect, and retry, a few times.
      await until(() => logged.filter((l) => l.component === 'event bus').length >= 4);
      assert.deepEqual(logged.filter((l) => l.level >= 40).map((l) => l.msg), [], 'no warning while connecting');
      assert.ok(logged.some((l) => l.level === 30 && /while connecting; retrying/.test(l.msg)), 'one info line says it retries');
      proxy = await redisProxy(port);
      assert.equal(await waitReady(bus), true, 'the bus connects once Redis is up');
      const got: BusEvent[] = [];
      bus.subscribe((e) => got.push(e));
      await bus.publish('t1', 's1', { type: 'speaker.merged', payload: { from: 'p_a', into: 'p_b' } });
      await until(() => got.length > 0);
      assert.equal(got[0]?.sessionId, 's1');
      assert.deepEqual(logged.filter((l) => l.level >= 40).map((l) => l.msg), [], 'still no warning');
      await proxy.close();
      proxy = null;
      // The lost connection warns once, however many retries follow; its return is one info line.
      await until(() => logged.some((l) => l.level === 40 && /event bus lost its connection to redis/.test(l.msg)));
      const before = logged.length;
      await until(() => logged.slice(before).filter((l) => l.component === 'event bus').length >= 4);
      assert.equal(logged.filter((l) => l.level >= 40).length, 1, 'one warning for the outage');
      proxy = await redisProxy(port);
      await until(() => logged.some((l) => l.level === 30 && /event bus: redis connection back/.test(l.msg)));
      assert.equal(logged.filter((l) => l.level >= 40).length, 1, 'still one warning');
    } finally {
      await bus.close();
      await proxy?.close();
    }
  });
});

describe('RedisEventBus made while its process still starts (a busy event loop)', { skip }, () => {
  test('no connect ETIMEDOUT: it connects at start(), not while start-up work blocks the loop past its connect timeout', async () => {
    const logged: { level: number; msg: string; err?: string; component?: string }[] = [];
    const logger = pino({ level: 'debug' }, { write: (line: string) => logged.push(JSON.parse(line) as { level: number; msg: string }) });
    const bus = new RedisEventBus({ url: TEST_REDIS_URL, prefix: `parley-ws5-busy-${process.pid}`, logger });
    try {
      // Start-up work after the bus is made (schemas compiled, models loaded) holds the loop longer than the 2 s
      // connect timeout, at a few points; a connection begun at construction times out in one of them.
      for (let i = 1; i <= 3; i++) {
        for (let j = 0; j < i; j++) await new Promise((resolve) => setImmediate(resolve));
        const until = Date.now() + 2_200;
        while (Date.now() < until) { /* busy, as synchronous start-up work is */ }
      }
      bus.start();
      assert.equal(await waitReady(bus), true);
      assert.deepEqual(logged.filter((l) => l.component === 'event bus' && l.err).map((l) => `${l.msg}: ${l.err}`), []);
    } finally {
      await bus.close();
    }
  });
});
