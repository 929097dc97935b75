import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import perfHooks from 'node:perf_hooks';
import { after, describe, test } from 'node:test';
import { pino } from 'pino';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { tempDir } from '../helpers/temp-dir.js';

/**
 * Spies on what cannot be seen in `process.getActiveResourcesInfo()`: performance observers (prom-client's GC observer)
 * and event-loop-delay histograms, counted while started and not stopped. Installed before any app is built in this
 * process (node --test runs each file in its own), as prom-client looks both up on `perf_hooks` when it uses them.
 */
const live = { observers: 0, eventLoopHistograms: 0 };
const observing = new WeakSet<perfHooks.PerformanceObserver>();
const { observe, disconnect } = perfHooks.PerformanceObserver.prototype;
perfHooks.PerformanceObserver.prototype.observe = function (this: perfHooks.PerformanceObserver, ...args: Parameters<typeof observe>) {
  if (!observing.has(this)) live.observers += 1;
  observing.add(this);
  return observe.apply(this, args);
};
perfHooks.PerformanceObserver.prototype.disconnect = function (this: perfHooks.PerformanceObserver) {
  if (observing.delete(this)) live.observers -= 1;
  return disconnect.apply(this);
};
const monitor = perfHooks.monitorEventLoopDelay;
perfHooks.monitorEventLoopDelay = (options) => {
  const histogram = monitor(options);
  const { enable, disable } = histogram;
  histogram.enable = () => {
    const changed = enable.call(histogram);
    if (changed) live.eventLoopHistograms += 1;
    return changed;
  };
  histogram.disable = () => {
    const changed = disable.call(histogram);
    if (changed) live.eventLoopHistograms -= 1;
    return changed;
  };
  return histogram;
};

/** How many active resources of each type the process holds (timers, sockets, file handles…). */
function activeResources(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const type of process.getActiveResourcesInfo()) counts.set(type, (counts.get(type) ?? 0) + 1);
  return counts;
}

/** The types of which the process now holds more than in `before`, with both counts. */
function grownSince(before: Map<string, number>): string[] {
  return [...activeResources()].filter(([type, n]) => n > (before.get(type) ?? 0)).map(([type, n]) => `${type}: ${before.get(type) ?? 0} → ${n}`);
}

/** Waits until the process holds no more active resources of any type than in `before` (they close asynchronously), then asserts it. */
async function assertNoneGrown(before: Map<string, number>): Promise<void> {
  // A generous wait for a busy machine.
  for (let i = 0; i < 600 && grownSince(before).length > 0; i++) await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(grownSince(before), [], 'no active resource left by the failed starts');
}

describe('a start of the app that fails (stores that cannot be opened) leaves nothing running', () => {
  const tmp = tempDir('parley-failed-start-');
  after(() => tmp.remove());
  const logger = pino({ level: 'silent' });

  test('20 failed starts and a good one hold the same observers as one good start; no resource is left by the failures', async () => {
    const good = loadConfig({ DATA_DIR: path.join(tmp.dir, 'good'), PORT: '0', LOG_LEVEL: 'silent' });
    await (await buildApp(good, { logger })).close();
    const afterOneStart = { ...live };
    assert.ok(afterOneStart.observers > 0 && afterOneStart.eventLoopHistograms > 0, 'the spies see what the metrics start');
    const resources = activeResources();

    // A plain file where DATA_DIR's parent directory must be: the stores cannot open (ENOTDIR), after the metrics loaded.
    const blocker = path.join(tmp.dir, 'blocker');
    writeFileSync(blocker, 'not a directory');
    const blocked = loadConfig({ DATA_DIR: path.join(blocker, 'data'), PORT: '0', LOG_LEVEL: 'silent' });
    for (let i = 0; i < 20; i++) await assert.rejects(buildApp(blocked, { logger }), /ENOTDIR/);
    await assertNoneGrown(resources);

    const app = await buildApp(good, { logger });
    try {
      assert.equal((await app.inject({ method: 'GET', url: '/metrics' })).statusCode, 200);
    } finally {
      await app.close();
    }
    assert.deepEqual(live, afterOneStart, 'no performance observer or event-loop histogram left by the failed starts');
  });

  test('starts that fail on an unreachable Redis (each waits out the 10 s store check) leave no client, timer or observer', async () => {
    const observersBefore = { ...live };
    const resources = activeResources();
    const unreachable = loadConfig({
      DATA_DIR: path.join(tmp.dir, 'redis'), PORT: '0', LOG_LEVEL: 'silent', PARLEY_QUEUE: 'redis', REDIS_URL: 'redis://127.0.0.1:1/0',
    });
    for (let i = 0; i < 3; i++) await assert.rejects(buildApp(unreachable, { logger }), /Redis is unreachable at REDIS_URL/);
    await assertNoneGrown(resources);
    assert.deepEqual(live, observersBefore);
  });
});
