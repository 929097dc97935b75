import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AudioSessionEvent } from '../../../pipelines/audio/audio-events.js';
import { createAudioSession } from '../../../pipelines/audio/audio-session.js';
import type { StreamListener, WorkerPool } from '../../../pipelines/workers/worker-pool.js';

/**
 * Test double for a pool whose worker is busy decoding a stopped turn: it acknowledges commits at once and
 * sends nothing else until the test does (`send`), as a worker inside a long decode sends no acknowledgement.
 */
function busyPool(): { pool: WorkerPool; send: (e: AudioSessionEvent) => void } {
  let listener: StreamListener | undefined;
  const stream = { push() {}, setNames() {}, close() {}, commit() { queueMicrotask(() => listener?.onCommitted()); } };
  const pool = { openStream: (_o: unknown, l: StreamListener) => { listener = l; return stream; } };
  return { pool: pool as unknown as WorkerPool, send: (e) => listener?.onEvent(e) };
}

const STOPPED: AudioSessionEvent = { type: 'speech_stopped', turnId: 1, audioEndMs: 2000, decidedAtMs: 2500, reason: 'silence' };
const FINAL: AudioSessionEvent = { type: 'final', turnId: 1, text: 'hello what time is my appointment', startMs: 500, endMs: 2000,
  confidence: 0.6, audio: new Float32Array(16), audioOffsetMs: 300, asr: 'pocketsphinx' };

async function readAll(s: AsyncIterable<AudioSessionEvent>): Promise<AudioSessionEvent[]> {
  const events: AudioSessionEvent[] = [];
  for await (const e of s) events.push(e);
  return events;
}

describe('a flushing close and a turn still being decoded (trial11 F3)', () => {
  test('the final of a turn decoded for longer than the idle limit still arrives before the stream ends', async () => {
    const { pool, send } = busyPool();
    const s = await createAudioSession({ format: {}, pool });
    const reading = readAll(s);
    send(STOPPED);
    // The idle limit (5 ms here) passes many times over while the worker decodes; the close waits for the final.
    const closing = s.close({ flush: true, timeoutMs: 5 });
    await new Promise((r) => setTimeout(r, 100));
    send(FINAL);
    await closing;
    const events = await reading;
    assert.deepEqual(events.map((e) => e.type), ['speech_stopped', 'final']);
  });

  test('a turn stopped by the close itself (speech_stopped after the close began) gets the final limit, not the idle one', async () => {
    // The close's own commit ends the open turn: its speech_stopped arrives once the close waits. The wait re-armed at
    // that event must already count the turn as awaiting its final (was: the idle limit, 10 s by default, so a loaded
    // machine's slow decode of a caller's last words was given up with a message naming the 60 s limit).
    let listener: StreamListener | undefined;
    const stream = { push() {}, setNames() {}, close() {}, commit() {} };
    const pool = { openStream: (_o: unknown, l: StreamListener) => { listener = l; return stream; } } as unknown as WorkerPool;
    const send = (e: AudioSessionEvent): void => listener?.onEvent(e);
    const s = await createAudioSession({ format: {}, pool });
    const reading = readAll(s);
    const closing = s.close({ flush: true, timeoutMs: 5 });
    // The worker takes the commit: the open turn stops, then the commit is acknowledged; the decode goes on.
    send(STOPPED);
    listener?.onCommitted();
    await new Promise((r) => setTimeout(r, 100));
    send(FINAL);
    await closing;
    assert.deepEqual((await reading).map((e) => e.type), ['speech_stopped', 'final']);
  });

  test('a final that never comes is reported when the close gives up, not lost silently', async () => {
    const { pool, send } = busyPool();
    const s = await createAudioSession({ format: {}, pool });
    const reading = readAll(s);
    send(STOPPED);
    await s.close({ flush: true, timeoutMs: 5, finalTimeoutMs: 20 });
    const events = await reading;
    assert.deepEqual(events.map((e) => e.type), ['speech_stopped', 'error']);
    const err = events[1];
    assert.ok(err?.type === 'error');
    assert.equal(err.code, 'PARLEY_ERR_UPSTREAM');
    assert.equal(err.fatal, false);
    assert.match(err.message, /did not finish the last turn within 0\.02 s of the stream's end: it was not stored/);
  });

  test('with nothing awaited, the close still gives up after the idle limit alone', async () => {
    // A worker that never acknowledges the commit: no turn awaits a final, so nothing is reported.
    const stream = { push() {}, setNames() {}, close() {}, commit() {} };
    const pool = { openStream: () => stream } as unknown as WorkerPool;
    const s = await createAudioSession({ format: {}, pool });
    const reading = readAll(s);
    await s.close({ flush: true, timeoutMs: 5, finalTimeoutMs: 3_600_000 });
    assert.deepEqual(await reading, []);
  });
});
