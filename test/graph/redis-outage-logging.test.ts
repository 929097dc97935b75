import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { after, describe, test } from 'node:test';
import type { Redis } from 'ioredis';
import { pino, type Logger } from 'pino';
import { BullmqJobQueue } from '../../graph/redis/bullmq-job-queue.js';
import { ConnectionWatch, isConnectionError, redactRedisUrl } from '../../graph/redis/connection-errors.js';
import { RedisEventBus } from '../../graph/redis/redis-event-bus.js';
import { RedisKeyedLock } from '../../graph/redis/redis-keyed-lock.js';
import { deleteKeys, redisSkipReason, TEST_REDIS_URL } from '../helpers/redis.js';
import { freePort, redisProxy, until, type RedisProxy } from '../helpers/redis-proxy.js';

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

/** One networked component, as far as these tests go: made at a URL, started, closed. */
interface Component {
  name: string;
  /** `connected`: resolves once the component has used Redis (its connections are up). */
  open(url: string, logger: Logger): { start(): void; connected(): Promise<void>; close(): Promise<void> };
}

const PREFIX = `parley-outage-log-${process.pid}`;

const components: Component[] = [
  {
    name: 'event bus',
    open: (url, logger) => {
      const bus = new RedisEventBus({ url, prefix: PREFIX, logger, connectGraceMs: 600_000 });
      return {
        start: () => bus.start(),
        connected: async () => { while (!(await bus.ready())); },
        close: () => bus.close(),
      };
    },
  },
  {
    name: 'locks',
    open: (url, logger) => {
      const locks = new RedisKeyedLock({ url, prefix: PREFIX, logger });
      let held: Promise<unknown> = Promise.resolve();
      return {
        // A lock wanted while Redis is away waits for it; closing fails the wait.
        start: () => { held = locks.withLock(['k'], async () => undefined).catch((err: Error) => err); },
        connected: async () => { assert.equal(await held, undefined); },
        close: async () => { await locks.close(); await held; },
      };
    },
  },
  {
    name: 'job worker ingest',
    open: (url, logger) => {
      const queue = new BullmqJobQueue({ url, prefix: PREFIX, logger });
      return {
        start: () => {
          queue.process('ingest', async () => undefined);
          void queue.pending('ingest').catch(() => undefined);
        },
        connected: async () => { while ((await queue.liveWorkers('ingest')) < 1); },
        close: () => queue.close(2_000),
      };
    },
  },
];

/** After `close`, Redis comes back on `port`: nothing connects to it, and nothing more is logged. */
async function assertStoppedForGood(port: number, lines: Line[]): Promise<void> {
  const logged = lines.length;
  const back = await redisProxy(port, null);
  try {
    // Generous: a client left retrying would try again within 2 s (ioredis's longest wait between attempts).
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    assert.equal(back.connections, 0, 'no connection attempt after close');
    assert.deepEqual(lines.slice(logged).map((l) => l.msg), [], 'nothing logged after close');
  } finally {
    await back.close();
  }
}

describe('Closed while Redis is away, a component stops for good', () => {
  for (const component of components) {
    test(`${component.name}: closed while it still tries its first connection`, async () => {
      const { logger, lines } = capture();
      const port = await freePort();
      const opened = component.open(`redis://127.0.0.1:${port}/0`, logger);
      opened.start();
      try {
        await until(() => lines.filter((l) => l.component?.startsWith(component.name.split(' ')[0]!)).length >= 3);
      } finally {
        await opened.close();
      }
      assert.deepEqual(lines.filter((l) => l.level >= WARN).map((l) => l.msg), [], 'no warning while connecting');
      await assertStoppedForGood(port, lines);
    });
  }
});

const skip = await redisSkipReason();

describe('A lost connection: one warning, no retries after close', { skip }, () => {
  after(() => deleteKeys(PREFIX));
  for (const component of components) {
    test(`${component.name}: connected, Redis cut, one warning; closed during the outage, nothing more`, async () => {
      const { logger, lines } = capture();
      const port = await freePort();
      let proxy: RedisProxy | null = await redisProxy(port);
      const opened = component.open(`redis://127.0.0.1:${port}${new URL(TEST_REDIS_URL).pathname}`, logger);
      opened.start();
      try {
        await opened.connected();
        await proxy.close();
        proxy = null;
        await until(() => lines.some((l) => l.level === WARN && l.component === component.name));
        const warned = lines.length;
        await until(() => lines.slice(warned).filter((l) => l.component === component.name).length >= 3);
        assert.deepEqual(lines.filter((l) => l.level >= WARN && l.component === component.name).map((l) => l.msg), [
          `${component.name} lost its connection to redis; retrying (further errors at debug until it is back)`,
        ]);
      } finally {
        await opened.close();
        await proxy?.close();
      }
      await assertStoppedForGood(port, lines);
    });
  }
});
