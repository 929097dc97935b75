import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { setTimeout as sleep } from 'node:timers/promises';
import { IdleSessionSweeper } from '../../server/ws/idle-sessions.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * The idle-session sweep's faults: sessions whose end keeps failing must not hold back the others, and a
 * server closing must not wait for the rest of a batch. Store failures are injected on the app's graph store
 * (its `endSession`); sweeps run at times given to them.
 */

const IDLE_MS = 600_000;
const T0 = Date.parse('2026-12-01T00:00:00.000Z');

/** Until `check` holds, looking again after each turn of the event loop's timers (no time limit of its own). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await sleep(10);
}

/** Streamed sessions `ids`, last active one minute apart from T0 on, in that order (oldest first). */
async function idleSessions(t: TestApp, ids: string[]): Promise<void> {
  const { graph } = t.app.stores;
  for (const [i, id] of ids.entries()) {
    await graph.openSession('default', id, new Date(T0).toISOString());
    await graph.updateSession('default', id, { activeAt: new Date(T0 + i * 60_000).toISOString() });
  }
}

const endedAt = async (t: TestApp, id: string): Promise<string | null | undefined> => (await t.app.stores.graph.getSession('default', id))?.endedAt;

test('sessions whose end keeps failing are left out of the next sweeps, so the idle sessions after them are still ended; each failure is logged once', async () => {
  const logs: Array<{ level: number; msg: string; session?: string }> = [];
  const log = pino({ level: 'info' }, new Writable({ write(chunk: Buffer, _enc, done) { logs.push(JSON.parse(chunk.toString())); done(); } }));
  const t = await startTestApp({ PARLEY_ASR: 'none', PARLEY_SESSION_IDLE_END_MS: '0' }, false);
  try {
    await idleSessions(t, ['broken-1', 'broken-2', 'fine-1', 'fine-2']);
    const broken = new Set(['broken-1', 'broken-2']);
    const { graph } = t.app.stores;
    const endSession = graph.endSession.bind(graph);
    graph.endSession = async (tenant, id, at) => {
      if (broken.has(id)) throw new Error(`injected store failure ending ${id}`);
      return endSession(tenant, id, at);
    };
    const sweeper = new IdleSessionSweeper({ registry: t.app.sessions, deps: t.app.liveSessionDeps, events: t.app.events }, IDLE_MS, log, { batch: 2 });
    let now = T0 + 2 * IDLE_MS;

    assert.equal(await sweeper.sweep(now), 0, 'the two oldest fail');
    now += sweeper.intervalMs;
    assert.equal(await sweeper.sweep(now), 2, 'the next sweep takes the sessions after the failing ones');
    assert.ok(await endedAt(t, 'fine-1'));
    assert.ok(await endedAt(t, 'fine-2'));
    assert.equal(await endedAt(t, 'broken-1'), null);

    // Tried again later, still failing: not logged again.
    for (let i = 0; i < 30; i += 1) {
      now += sweeper.intervalMs;
      assert.equal(await sweeper.sweep(now), 0);
    }
    const warned = logs.filter((l) => l.level === 40).map((l) => l.session).sort();
    assert.deepEqual(warned, ['broken-1', 'broken-2'], 'one warning per failing session, not one per sweep');

    // Once the store takes them, a later sweep ends them.
    broken.clear();
    let ended = 0;
    for (let i = 0; i < 30 && ended < 2; i += 1) {
      now += sweeper.intervalMs;
      ended += await sweeper.sweep(now);
    }
    assert.equal(ended, 2);
    assert.ok(await endedAt(t, 'broken-1'));
    assert.ok(await endedAt(t, 'broken-2'));
  } finally {
    await t.close();
  }
});

test('closing the server during a sweep of many idle sessions stops it after the session it is ending', async () => {
  const t = await startTestApp({ PARLEY_ASR: 'none', PARLEY_SESSION_IDLE_END_MS: String(IDLE_MS) }, false);
  let closed = false;
  try {
    const ids = Array.from({ length: 6 }, (_, i) => `idle-${i}`);
    await idleSessions(t, ids);
    const { graph } = t.app.stores;
    const endSession = graph.endSession.bind(graph);
    let ends = 0;
    let release = (): void => {};
    const held = new Promise<void>((resolve) => { release = resolve; });
    // Each end waits until the test lets it go, as an end waiting on a slow store or a live session would.
    graph.endSession = async (tenant, id, at) => {
      ends += 1;
      await held;
      return endSession(tenant, id, at);
    };
    const sweeper = t.app.idleSessions!;
    const stop = sweeper.stop.bind(sweeper);
    let stopping = false;
    sweeper.stop = () => {
      stopping = true;
      return stop();
    };
    const sweeping = sweeper.sweep(T0 + 2 * IDLE_MS);
    await until(() => ends === 1);
    const closing = t.close();
    // The held end is let go only once closing has asked the sweep to stop.
    await until(() => stopping);
    release();
    await closing;
    closed = true;
    assert.equal(await sweeping, 1, 'the end under way finishes');
    assert.equal(ends, 1, 'no end starts once the server closes');
  } finally {
    if (!closed) await t.close();
  }
});
