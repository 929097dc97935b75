import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { slowSessionReads, type HeldOpen } from '../helpers/held-open.js';
import { liveCall, TWILIO_CHUNK_BYTES, type SseEvent } from '../helpers/twilio.js';

/** Mu-law silence, one Twilio media frame (20 ms) at a time. */
const SILENCE = Buffer.alloc(TWILIO_CHUNK_BYTES * 50 * 12, 0xff);

/**
 * Twilio media frames that arrive while the call's `start` is still opening its session (a slow store read) wait
 * behind it, then go to the voice side. They used to be timed when taken, all at once: 12 s of a call sent in real
 * time looked 12 s ahead of real time and was shed. They are now timed on receipt, as /v1/stream's held audio is.
 * The clock live audio is timed by is the test's (`BuildOptions.audioNow`), moved on as each frame reaches the server.
 */
describe('Twilio media queued behind a slow start keeps its arrival times', () => {
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

  /** A call whose session read is held while its 12 s of media arrive (the clock moved by `stepMs` a frame); its errors. */
  async function callWhileStartHeld(stepMs: number): Promise<SseEvent[]> {
    const call = await liveCall(t, { audio: SILENCE, send: false });
    const hold = holdOpen(call.call.callSid);
    const [connected, start, ...media] = call.frames;
    call.ws.send(JSON.stringify(connected));
    call.ws.send(JSON.stringify(start));
    await hold.reached;
    // The server's end of the socket: the route's listener (which times each frame) runs before this one.
    const [server] = [...t.app.websocketServer.clients];
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

  test('12 s of a call sent in real time while its start waited: nothing shed', async () => {
    assert.deepEqual((await callWhileStartHeld(20)).map((e) => e.data.message), []);
  });

  test('the same 12 s arriving at once while the start waited is shed as faster than real time', async () => {
    const errors = await callWhileStartHeld(0);
    assert.equal(errors.length, 1);
    assert.equal(errors[0]!.data.code, 'PARLEY_ERR_OVERLOADED');
    assert.match(String(errors[0]!.data.message), /faster than real time/);
  });
});
