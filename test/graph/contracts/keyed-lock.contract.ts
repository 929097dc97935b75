import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';
import { callSignal } from '../../../graph/call-signal.js';
import type { KeyedLock } from '../../../graph/keyed-lock.js';
import { contractSuite } from './contract-suite.js';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export interface KeyedLockFixture {
  /** Two handles on the same lock, as two processes of one deployment hold them. */
  a: KeyedLock;
  b: KeyedLock;
  /** For locks kept in a store with leases: write or read a key's holder there directly. */
  leases?: {
    /** Make `token` hold `key` for `leaseMs`, as a holder that then died (or took a lapsed key) would. */
    plant(key: string, token: string, leaseMs: number): Promise<void>;
    /** The token holding `key` now, or null. */
    holder(key: string): Promise<string | null>;
  };
  cleanup(): Promise<void>;
}

export interface KeyedLockFixtureOptions {
  maxWaitMs?: number;
  leaseMs?: number;
}

/** Resolves on the next turn of the event loop, so other holders get to run in between. */
const yieldTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** The behaviour every KeyedLock implementation must show. */
export function keyedLockContract(name: string, factory: (options?: KeyedLockFixtureOptions) => Promise<KeyedLockFixture>, skip?: string): void {
  contractSuite(`KeyedLock contract: ${name}`, skip, () => {
    let fx: KeyedLockFixture;
    beforeEach(async () => {
      fx = await factory();
    });
    afterEach(async () => {
      await fx.cleanup();
    });

    test('one holder of a key at a time, across handles; other keys run alongside', async () => {
      let inside = 0;
      let most = 0;
      const order: number[] = [];
      const hold = (lock: KeyedLock, n: number) => lock.withLock(['k'], async () => {
        inside += 1;
        most = Math.max(most, inside);
        for (let i = 0; i < 5; i++) await yieldTurn();
        order.push(n);
        inside -= 1;
        return n;
      });
      let other = false;
      const results = await Promise.all([
        hold(fx.a, 1), hold(fx.b, 2), hold(fx.a, 3), hold(fx.b, 4),
        fx.a.withLock(['elsewhere'], async () => { other = true; }),
      ]);
      assert.equal(most, 1, 'never two holders of one key');
      assert.deepEqual(results.slice(0, 4), [1, 2, 3, 4], 'each call returns its own result');
      assert.deepEqual([...order].sort(), [1, 2, 3, 4]);
      assert.equal(other, true);
    });

    test('overlapping key sets in opposite orders do not deadlock', async () => {
      let done = 0;
      await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? fx.a : fx.b).withLock(
        i % 2 === 0 ? ['x', 'y', 'z'] : ['z', 'y', 'x', 'x'],
        async () => { await yieldTurn(); done += 1; },
      )));
      assert.equal(done, 6);
    });

    test('a failing holder releases its keys', async () => {
      await assert.rejects(fx.a.withLock(['k'], async () => { throw new Error('boom'); }), /boom/);
      assert.equal(await fx.b.withLock(['k'], async () => 'next'), 'next');
    });

    test('a wait is bounded: the caller gets a retryable error and holds nothing', async () => {
      const bounded = await factory({ maxWaitMs: 50 });
      try {
        let release!: () => void;
        const held = new Promise<void>((resolve) => { release = resolve; });
        let entered!: () => void;
        const inside = new Promise<void>((resolve) => { entered = resolve; });
        const holder = bounded.a.withLock(['k'], async () => { entered(); await held; });
        await inside;
        await assert.rejects(bounded.b.withLock(['free', 'k'], async () => 'never'), (err: Error & { code?: string; retryable?: boolean }) => {
          assert.equal(err.code, 'PARLEY_ERR_OVERLOADED');
          assert.equal(err.retryable, true);
          return true;
        });
        // The key it did take ('free' sorts first) was released when it gave up.
        assert.equal(await bounded.a.withLock(['free'], async () => 'free again'), 'free again');
        release();
        await holder;
        assert.equal(await bounded.b.withLock(['k'], async () => 'after'), 'after');
      } finally {
        await bounded.cleanup();
      }
    });

    test('a holder aborted while it works gives its keys up at once: the call rejects, work is told, a waiter gets them', async () => {
      const holder = new AbortController();
      let entered!: () => void;
      const inside = new Promise<void>((resolve) => { entered = resolve; });
      let told: AbortSignal | undefined;
      // Work that never ends and ignores its signal (a call that never answers), as a job try that overran.
      const hung = fx.a.withLock(['k', 'j'], async (signal) => { told = signal; entered(); await new Promise<never>(() => undefined); }, holder.signal);
      await inside;
      const waiter = fx.b.withLock(['k'], async () => 'taken after the abort');
      const overran = new Error('job ran longer than 1 ms');
      holder.abort(overran);
      await assert.rejects(hung, (err) => err === overran);
      assert.equal(told?.aborted, true, 'the work\'s signal aborts with its holder');
      assert.equal(await waiter, 'taken after the abort');
      assert.equal(await fx.a.withLock(['j'], async () => 'j free'), 'j free');
      // Aborted already: nothing taken, the work never runs.
      let ran = false;
      await assert.rejects(fx.a.withLock(['k'], async () => { ran = true; }, holder.signal), (err) => err === overran);
      assert.equal(ran, false);
    });

    test('the store calls of work heed its holder: the call signal in force there aborts with it', async () => {
      const holder = new AbortController();
      let entered!: () => void;
      const inside = new Promise<void>((resolve) => { entered = resolve; });
      let inForce: AbortSignal | undefined;
      const hung = fx.a.withLock(['k'], async () => { inForce = callSignal(); entered(); await new Promise<never>(() => undefined); }, holder.signal);
      await inside;
      assert.equal(inForce?.aborted, false, 'in force while the holder runs');
      const overran = new Error('job ran longer than 1 ms');
      holder.abort(overran);
      await assert.rejects(hung, (err) => err === overran);
      assert.equal(inForce?.aborted, true, 'aborted with the holder (a call still waiting at the gate never runs)');
      assert.equal(await fx.b.withLock(['k'], async () => callSignal()), undefined, 'none without a holder');
      const outer = new AbortController();
      assert.equal(await fx.b.withLock([], async () => callSignal(), outer.signal), outer.signal, 'with no keys too');
    });

    test('a holder aborted while it waits stops waiting and takes nothing; the keys stay with their holder', async () => {
      let release!: () => void;
      const held = new Promise<void>((resolve) => { release = resolve; });
      let entered!: () => void;
      const inside = new Promise<void>((resolve) => { entered = resolve; });
      const first = fx.a.withLock(['k'], async () => { entered(); await held; return 'first'; });
      await inside;
      const waiting = new AbortController();
      let ran = false;
      const second = fx.b.withLock(['free', 'k'], async () => { ran = true; }, waiting.signal);
      await new Promise((resolve) => setTimeout(resolve, 30));
      waiting.abort(new Error('closed'));
      await assert.rejects(second, /closed/);
      assert.equal(ran, false);
      assert.equal(await fx.b.withLock(['free'], async () => 'free again'), 'free again');
      release();
      assert.equal(await first, 'first');
      assert.equal(await fx.b.withLock(['k'], async () => 'after'), 'after');
    });

    test('leases: a dead holder\'s key lapses; a live holder renews past its lease; a taken-over holder is told', async (t) => {
      // A lease well above a busy machine's stalls, so renewals in time are not a matter of luck: the store
      // measures the lease in wall time, so a holder (or the store) starved of CPU for longer than a lease less
      // one renewal interval loses its key, rightly. 10 s: renewals every 3.3 s keep it through stalls of up to
      // 6.6 s (3 s, renewed every second, lapsed once on a loaded CI machine).
      const short = await factory({ leaseMs: 10_000, maxWaitMs: 30_000 });
      const { leases } = short;
      if (!leases) {
        t.skip('an in-process lock has no leases: it cannot outlive its process');
        await short.cleanup();
        return;
      }
      try {
        // A holder that died: its key stays, unrenewed, until the lease runs out; then it is taken.
        await leases.plant('dead', 'dead-holder', 300);
        const seen = await short.a.withLock(['dead'], async () => leases.holder('dead'));
        assert.ok(seen && seen !== 'dead-holder', 'taken once the dead holder\'s lease lapsed');

        // Held for one and a half leases: renewals keep it past its first lease; the signal stays quiet.
        await short.a.withLock(['long'], async (signal) => {
          await sleep(15_000);
          assert.equal(signal.aborted, false);
          assert.ok(await leases.holder('long'), 'still held after its first lease ran out');
        });
        assert.equal(await leases.holder('long'), null, 'released');

        // Another holder took the key over (as after a pause longer than the lease): the signal aborts,
        // and the release leaves the new holder's key alone.
        const aborted = await short.a.withLock(['k'], async (signal) => {
          await leases.plant('k', 'someone-else', 60_000);
          await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
          return signal.aborted;
        });
        assert.equal(aborted, true);
        assert.equal(await leases.holder('k'), 'someone-else', 'release deletes only its own token');
      } finally {
        await short.cleanup();
      }
    });
  });
}
