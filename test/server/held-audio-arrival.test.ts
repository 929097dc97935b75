import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import WebSocket from 'ws';
import { encodeS16le } from '../../pipelines/audio/pcm-codecs.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { slowSessionReads, type HeldOpen } from '../helpers/held-open.js';
import type { ServerEvent } from '../helpers/ws-client.js';
import { liveCall, TWILIO_CHUNK_BYTES, type SseEvent } from '../helpers/twilio.js';

/** One second of 16 kHz silence: one frame. */
const SECOND = encodeS16le(new Float32Array(16000));
/** 12 s of mu-law silence, for Twilio media frames of 20 ms. */
const CALL_SILENCE = Buffer.alloc(TWILIO_CHUNK_BYTES * 50 * 12, 0xff);

/**
 * Audio a client sends while `/v1/stream` opens its session waits for the session, then goes to the voice side. It
 * used to be timed when it was taken, all at once: 12 s sent in real time while a slow store read ran looked 12 s
 * ahead of real time and was shed. The clock live audio is timed by is the test's (`BuildOptions.audioNow`), moved on
 * by 1 s as each frame reaches the server: a client sending in real time, with no wall-clock waits. The same holds for
 * Twilio media frames queued behind a `start` still opening the call's session: they used to be timed when taken.
 */
describe('audio sent while the session opens keeps its arrival times', () => {
  let t: TestApp;
  let now = 1_000_000;
  let holdOpen: (id: string) => HeldOpen;

  before(async () => {
    t = await startTestApp({}, true, undefined, { audioNow: () => now });
    holdOpen = slowSessionReads(t.app.stores.graph);
  });
  after(async () => {
    await t.close();
  });

  /**
   * Open session `id` with its store read held, send `seconds` 1 s frames meanwhile (the clock moved on by `stepMs`
   * as each reaches the server), let it open, end it, and return its OVERLOADED errors.
   */
  async function sendWhileOpening(id: string, seconds: number, stepMs: number): Promise<ServerEvent[]> {
    const hold = holdOpen(id);
    const ws = new WebSocket(`${t.wsUrl}/v1/stream?session_id=${id}`);
    const frames: ServerEvent[] = [];
    ws.on('message', (data) => frames.push(JSON.parse(data.toString()) as ServerEvent));
    await new Promise<void>((resolve, reject) => { ws.once('open', () => resolve()); ws.once('error', reject); });
    await hold.reached;
    // The server's end of the socket: its route's listener (which times each frame) runs before this one.
    const [server] = [...t.app.websocketServer.clients];
    assert.ok(server);
    let received = 0;
    let onFrame: () => void = () => {};
    server.on('message', (_data, isBinary) => {
      if (!isBinary) return;
      received += 1;
      now += stepMs;
      onFrame();
    });
    for (let i = 0; i < seconds; i++) {
      const arrived = new Promise<void>((resolve) => { onFrame = resolve; });
      ws.send(SECOND);
      await arrived;
    }
    assert.equal(received, seconds);
    hold.release();
    const ended = new Promise<void>((resolve) => ws.on('message', (data) => {
      if ((JSON.parse(data.toString()) as ServerEvent).type === 'session.ended') resolve();
    }));
    ws.send(JSON.stringify({ type: 'session.end' }));
    await ended;
    ws.close();
    assert.equal(frames[0]?.type, 'session.started');
    return frames.filter((f) => f.type === 'error' && f.code === 'PARLEY_ERR_OVERLOADED');
  }

  test('12 s sent in real time while the session opened: nothing shed, neither as ahead of real time nor as a backlog', async () => {
    assert.deepEqual(await sendWhileOpening('held-real-time', 12, 1000), []);
  });

  test('the same 12 s sent at once while it opened is shed as faster than real time', async () => {
    const shed = await sendWhileOpening('held-at-once', 12, 0);
    assert.equal(shed.length, 1);
    assert.match(String(shed[0]!.message), /faster than real time \(\d+\.\d s ahead; at most 5\.0 s\)/);
  });

  /** A call whose session read is held while its 12 s of media arrive (the clock moved by `stepMs` a frame); its errors. */
  async function callWhileStartHeld(stepMs: number): Promise<SseEvent[]> {
    const call = await liveCall(t, { audio: CALL_SILENCE, send: false });
    const hold = holdOpen(call.call.callSid);
    const [connected, start, ...media] = call.frames;
    call.ws.send(JSON.stringify(connected));
    call.ws.send(JSON.stringify(start));
    await hold.reached;
    // The server's end of the call's socket (the newest: an earlier test's may still be closing); the route's listener,
    // which times each frame, runs before this one.
    const server = [...t.app.websocketServer.clients].at(-1);
    assert.ok(server);
    let onFrame: () => void = () => {};
    server.on('message', () => {
      now += stepMs;
      onFrame();
    });
    for (const m of media) {
      const arrived = new Promise<void>((resolve) => { onFrame = resolve; });
      call.ws.send(JSON.stringify(m));
      await arrived;
    }
    hold.release();
    call.ws.send(JSON.stringify(call.stop));
    await call.sse.until(() => call.sse.events.some((e) => e.event === 'session.ended'), 120_000, 'session.ended');
    call.sse.close();
    call.ws.close();
    assert.equal(media.length, 600);
    return call.sse.events.filter((e) => e.event === 'error');
  }

  test('Twilio: 12 s of a call sent in real time while its start waited (media queued behind it): nothing shed', async () => {
    assert.deepEqual((await callWhileStartHeld(20)).map((e) => e.data.message), []);
  });

  test('Twilio: the same 12 s arriving at once while the start waited is shed as faster than real time', async () => {
    const errors = await callWhileStartHeld(0);
    assert.equal(errors.length, 1);
    assert.equal(errors[0]!.data.code, 'PARLEY_ERR_OVERLOADED');
    assert.match(String(errors[0]!.data.message), /faster than real time/);
  });
});
