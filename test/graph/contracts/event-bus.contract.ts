import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';
import type { BusEvent, EventBus } from '../../../graph/event-bus.js';
import { contractSuite } from './contract-suite.js';

export interface EventBusFixture {
  /** The bus a server process holds. */
  bus: EventBus;
  /** Another handle on the same bus, as in another process (may be `bus` itself in-process). */
  peer: EventBus;
  /** A handle on a different bus (another deployment / prefix); must not see `bus`'s events. */
  stranger: EventBus;
  cleanup(): Promise<void>;
}

/** Collects events until `n` have arrived or `timeoutMs` passes. */
function collect(bus: EventBus, n: number, timeoutMs = 3000): Promise<BusEvent[]> {
  const seen: BusEvent[] = [];
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      stop();
      resolve(seen);
    }, timeoutMs);
    const stop = bus.subscribe((e) => {
      seen.push(e);
      if (seen.length >= n) {
        clearTimeout(timer);
        stop();
        resolve(seen);
      }
    });
  });
}

/** The behaviour every EventBus implementation must show. */
export function eventBusContract(name: string, factory: () => Promise<EventBusFixture>, skip?: string): void {
  contractSuite(`EventBus contract: ${name}`, skip, () => {
    let fx: EventBusFixture;
    beforeEach(async () => {
      fx = await factory();
      for (const b of [fx.bus, fx.peer, fx.stranger]) assert.equal(await b.ready(), true);
    });
    afterEach(async () => {
      await fx.cleanup();
    });

    test('an event published by one handle reaches subscribers of another, with tenant and session', async () => {
      const got = collect(fx.bus, 1);
      await fx.peer.publish('t1', 's1', { type: 'speaker.merged', payload: { from: 'p_a', into: 'p_b' } });
      const [event] = await got;
      assert.deepEqual(event, { tenant: 't1', sessionId: 's1', type: 'speaker.merged', payload: { from: 'p_a', into: 'p_b' } });
    });

    test('events arrive in publish order; every subscriber gets each once', async () => {
      const first = collect(fx.bus, 20);
      const second = collect(fx.bus, 20);
      for (let i = 0; i < 20; i++) {
        await fx.peer.publish('t1', `s${i}`, { type: 'memory.updated', payload: { ops: [{ op: 'ADD', memory_id: `f${i}`, text: 'x' }] } });
      }
      for (const events of [await first, await second]) {
        assert.deepEqual(events.map((e) => e.sessionId), Array.from({ length: 20 }, (_, i) => `s${i}`));
      }
    });

    test('unsubscribe stops delivery; a throwing handler does not stop the others', async () => {
      let unsubscribedCalls = 0;
      const stop = fx.bus.subscribe(() => unsubscribedCalls++);
      stop();
      const stopThrower = fx.bus.subscribe(() => {
        throw new Error('handler bug');
      });
      const got = collect(fx.bus, 2);
      await fx.peer.publish('t1', 's1', { type: 'session.ended', payload: {} });
      await fx.peer.publish('t2', 's2', { type: 'session.ended', payload: {} });
      assert.deepEqual((await got).map((e) => e.tenant), ['t1', 't2']);
      stopThrower();
      assert.equal(unsubscribedCalls, 0);
    });

    test('another bus does not see these events', async () => {
      const strangerSaw = collect(fx.stranger, 1, 300);
      const got = collect(fx.bus, 1);
      await fx.peer.publish('t1', 's1', { type: 'session.ended', payload: {} });
      assert.equal((await got).length, 1);
      assert.deepEqual(await strangerSaw, []);
    });
  });
}
