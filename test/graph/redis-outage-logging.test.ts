import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { createServer } from 'node:net';
import { describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { pino, type Logger } from 'pino';
import { BullmqJobQueue } from '../../graph/redis/bullmq-job-queue.js';
import { RedisKeyedLock } from '../../graph/redis/redis-keyed-lock.js';
import { ConnectionWatch, isConnectionError, redactRedisUrl } from '../../graph/redis/connection-errors.js';

interface Line { level: number; msg: string; component?: string; redis?: string; err?: string; downForMs?: number; errors?: number }

function capture(): { logger: Logger; lines: Line[] } {
  const lines: Line[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line) as Line) });
  return { logger, lines };
}

const refused = (): Error => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
const WARN = 40;
const INFO = 30;
const ERROR = 50;

describe('ConnectionWatch: an outage is logged once, reminded, and its end once', () => {
  test('lost connection: one warn naming the component and the URL without password, retries at debug, one info when back', () => {
    const { logger, lines } = capture();
    let clock = 0;
    const watch = new ConnectionWatch(logger, { component: 'locks', url: 'redis://user:s3cret@redis.example:6380/2', reminderMs: 0, now: () => clock });
    const client = new EventEmitter();
    watch.watch(client as unknown as Redis);
    client.emit('ready');
    for (let i = 0; i < 60; i++) {
      clock += 500;
      client.emit('error', i % 2 ? refused() : new Error('Connection is closed.'));
    }
    client.emit('ready');
    const loud = lines.filter((l) => l.level >= WARN);
    assert.equal(loud.length, 1, JSON.stringify(loud));
    assert.match(loud[0]!.msg, /locks lost its connection to redis/);
    assert.equal(loud[0]!.component, 'locks');
    assert.equal(loud[0]!.redis, 'redis://user:***@redis.example:6380/2');
    assert.ok(!JSON.stringify(lines).includes('s3cret'), 'the password is never logged');
    const back = lines.filter((l) => l.level === INFO);
    assert.equal(back.length, 1);
    assert.match(back[0]!.msg, /locks: redis connection back/);
    assert.equal(back[0]!.downForMs, 29_500);
    assert.equal(back[0]!.errors, 60);
    // A second outage is announced again.
    client.emit('error', refused());
    assert.equal(lines.filter((l) => l.level >= WARN).length, 2);
  });

  test('a reminder at most every reminderMs while down (injected clock)', () => {
    const { logger, lines } = capture();
    let clock = 0;
    const watch = new ConnectionWatch(logger, { component: 'job worker ingest', url: 'redis://127.0.0.1:6379', reminderMs: 10_000, now: () => clock });
    watch.ready();
    for (let i = 0; i < 50; i++) { // 25 s of errors every 500 ms
      watch.error(refused());
      clock += 500;
    }
    const loud = lines.filter((l) => l.level >= WARN);
    assert.deepEqual(loud.map((l) => l.msg), [
      'job worker ingest lost its connection to redis; retrying (further errors at debug until it is back)',
      'job worker ingest: redis still unreachable; retrying',
      'job worker ingest: redis still unreachable; retrying',
    ]);
    assert.deepEqual(loud.slice(1).map((l) => l.downForMs), [10_000, 20_000]);
  });

  test('errors that are no connection error are logged each time, at the level asked', () => {
    const { logger, lines } = capture();
    const watch = new ConnectionWatch(logger, { component: 'job worker x', url: 'redis://127.0.0.1:6379', otherErrorLevel: 'error', otherErrorMsg: 'queue worker error' });
    watch.ready();
    watch.error(new Error('Missing lock for job 7. moveToFinished'));
    watch.error(new Error('Missing lock for job 8. moveToFinished'));
    assert.deepEqual(lines.map((l) => [l.level, l.msg]), [[ERROR, 'queue worker error'], [ERROR, 'queue worker error']]);
    assert.equal(watch.down, false);
  });

  test('several clients of one component: back only when all are back', () => {
    const { logger, lines } = capture();
    const watch = new ConnectionWatch(logger, { component: 'event bus', url: 'redis://127.0.0.1:6379', now: () => 0 });
    watch.ready('publisher');
    watch.ready('subscriber');
    watch.error(refused(), 'publisher');
    watch.error(refused(), 'subscriber');
    watch.ready('publisher');
    assert.equal(lines.filter((l) => l.level === INFO).length, 0, 'subscriber still down');
    watch.error(refused(), 'subscriber');
    watch.ready('subscriber');
    assert.deepEqual(lines.filter((l) => l.level >= INFO).map((l) => l.level), [WARN, INFO]);
  });

  test('at start: quiet for the grace, then one warn that it cannot connect, and no more', () => {
    const { logger, lines } = capture();
    let clock = 0;
    const watch = new ConnectionWatch(logger, { component: 'event bus', url: 'redis://127.0.0.1:1', graceMs: 15_000, reminderMs: 0, now: () => clock });
    for (let i = 0; i < 60; i++) {
      watch.error(refused());
      clock += 1_000;
    }
    assert.deepEqual(lines.filter((l) => l.level >= INFO).map((l) => [l.level, l.msg]), [
      [INFO, 'event bus: redis not reachable yet while connecting; retrying'],
      [WARN, 'event bus cannot connect to redis; retrying (further errors at debug until it is back)'],
    ]);
  });

  test('isConnectionError and redactRedisUrl', () => {
    assert.equal(isConnectionError(refused()), true);
    assert.equal(isConnectionError(new Error('Connection is closed.')), true);
    assert.equal(isConnectionError(Object.assign(new Error('x'), { name: 'MaxRetriesPerRequestError' })), true);
    assert.equal(isConnectionError(new Error('WRONGTYPE Operation against a key holding the wrong kind of value')), false);
    assert.equal(redactRedisUrl('redis://127.0.0.1:6379/0'), 'redis://127.0.0.1:6379/0');
    assert.equal(redactRedisUrl('rediss://:pw@h:1'), 'rediss://:***@h:1');
    assert.equal(redactRedisUrl('not a url'), '(unparsable REDIS_URL)');
  });
});

/** A port nobody listens on now (taken and given back). */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

async function until(pred: () => boolean): Promise<void> {
  while (!pred()) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('Redis components at a closed port: retries are no flood', () => {
  test('a BullMQ worker: no error-level line per retry, one info line while connecting', async () => {
    const { logger, lines } = capture();
    const queue = new BullmqJobQueue({ url: `redis://127.0.0.1:${await closedPort()}/0`, prefix: 'parley-quiet-none', logger });
    queue.process('ingest', async () => undefined);
    try {
      await until(() => lines.filter((l) => /job worker ingest|queue worker error/.test(`${l.component} ${l.msg}`)).length >= 4);
      assert.deepEqual(lines.filter((l) => l.level >= WARN).map((l) => l.msg), []);
      assert.equal(lines.filter((l) => l.level === INFO).length, 1);
    } finally {
      await queue.close(2_000).catch(() => undefined);
    }
  });

  test('a Redis lock: no warning per retry', async () => {
    const { logger, lines } = capture();
    const locks = new RedisKeyedLock({ url: `redis://127.0.0.1:${await closedPort()}/0`, prefix: 'parley-quiet-none', logger });
    const held = locks.withLock(['k'], async () => undefined).catch((err: Error) => err);
    try {
      await until(() => lines.filter((l) => /locks|lock connection error/.test(`${l.component} ${l.msg}`)).length >= 4);
      assert.deepEqual(lines.filter((l) => l.level >= WARN && /locks|lock connection error/.test(`${l.component} ${l.msg}`)).map((l) => l.msg), []);
    } finally {
      await locks.close();
      await held;
    }
  });
});

describe('ConnectionWatch on a real ioredis client at a closed port', () => {
  test('many retries, one warning', async () => {
    const port = await closedPort();
    const { logger, lines } = capture();
    const client = new Redis(`redis://127.0.0.1:${port}`, { lazyConnect: true, retryStrategy: () => 5, maxRetriesPerRequest: null });
    new ConnectionWatch(logger, { component: 'locks', url: `redis://127.0.0.1:${port}`, graceMs: 0, reminderMs: 0 }).watch(client);
    client.connect().catch(() => undefined);
    try {
      while (lines.length < 20) await new Promise((resolve) => setTimeout(resolve, 10));
      assert.deepEqual(lines.filter((l) => l.level >= WARN).map((l) => l.msg), ['locks cannot connect to redis; retrying (further errors at debug until it is back)']);
    } finally {
      client.disconnect();
    }
  });
});
