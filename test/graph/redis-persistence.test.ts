import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { pino, type Logger } from 'pino';
import { checkAppendOnly, checkRedisAppendOnly } from '../../graph/redis/redis-persistence.js';
import { redisSkipReason, TEST_REDIS_URL } from '../helpers/redis.js';

/** A logger that keeps what it was told, by level. */
function recorder(): { warn: string[]; info: string[]; logger: Logger } {
  const out = { warn: [] as string[], info: [] as string[] };
  const logger = pino({ level: 'debug' }, {
    write: (line: string) => {
      const { level, msg } = JSON.parse(line) as { level: number; msg: string };
      if (level === 40) out.warn.push(msg);
      if (level === 30) out.info.push(msg);
    },
  });
  return { ...out, logger };
}

// Test doubles of Redis's CONFIG answer: the shared test Redis cannot be switched between AOF on, off and refusing CONFIG.
// The real one is asked below.
describe('start-up check of Redis persistence (the job queue needs AOF)', () => {
  test('appendonly no: one warning naming the setting and what is lost', async () => {
    const r = recorder();
    await checkAppendOnly({ config: async () => ['appendonly', 'no'] }, r.logger, 'redis://x');
    assert.equal(r.warn.length, 1);
    assert.match(r.warn[0]!, /without AOF persistence \(appendonly no\).*lost if it restarts.*appendonly yes/);
    assert.deepEqual(r.info, []);
  });

  test('appendonly yes: nothing said', async () => {
    const r = recorder();
    await checkAppendOnly({ config: async () => ['appendonly', 'yes'] }, r.logger, 'redis://x');
    assert.deepEqual([...r.warn, ...r.info], []);
  });

  test('a Redis that refuses CONFIG (managed): an info line that it could not check, no warning, no throw', async () => {
    const r = recorder();
    await checkAppendOnly({ config: async () => { throw new Error("ERR unknown command 'CONFIG'"); } }, r.logger, 'redis://x');
    assert.deepEqual(r.warn, []);
    assert.equal(r.info.length, 1);
    assert.match(r.info[0]!, /could not check whether Redis keeps an append-only file/);
  });
});

const skip = await redisSkipReason();

test('against the test Redis: warns exactly when it runs without AOF', { skip }, async () => {
  const probe = new Redis(TEST_REDIS_URL);
  const [, appendonly] = (await probe.config('GET', 'appendonly')) as string[];
  probe.disconnect();
  const r = recorder();
  await checkRedisAppendOnly(TEST_REDIS_URL, r.logger, TEST_REDIS_URL);
  assert.equal(r.warn.length, appendonly === 'no' ? 1 : 0, `appendonly ${appendonly}: ${r.warn.join('; ')}`);
  assert.deepEqual(r.info, []);
});
