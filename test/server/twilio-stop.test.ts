import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startVoiceTestApp, type TestApp } from '../helpers/app.js';
import { liveCall, trackReceivedAudio, twilioFixture } from '../helpers/twilio.js';

/**
 * Twilio's `stop` used to be queued like any message: behind a full session queue it was shed with an
 * overload error, and the call's session never ended. It is now the session's end, as `session.end` is
 * on /v1/stream: never shed, and run after the turns queued before it.
 */
let t: TestApp;
before(async () => {
  t = await startVoiceTestApp({ PARLEY_SESSION_QUEUE: '1' });
});
after(() => t.close());

test('Twilio stop behind a full session queue still ends the call, after every recognised turn is stored', async () => {
  // Storing the first turn waits (a slow disk): the turns recognised after it fill the queue of one.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let calls = 0;
  const spans = t.app.models.audioSpans;
  const write = spans.write.bind(spans);
  spans.write = async (...args: Parameters<typeof write>) => {
    if (++calls === 1) await held;
    return write(...args);
  };
  const fixture = twilioFixture();
  const { call: c, sse, ws, frames: messages, stop } = await liveCall(t, { audio: fixture.audio, send: false });
  assert.equal(stop.event, 'stop');
  // Twilio sends a frame every 20 ms; at twice that pace no audio is shed as running ahead of real time.
  const began = Date.now();
  for (const [i, m] of messages.entries()) {
    const due = began + i * 10 - Date.now();
    if (due > 0) await new Promise((r) => setTimeout(r, due));
    ws.send(JSON.stringify(m));
  }
  // The first turn's store is held, the second waits in the queue of one, and the third is shed: the queue is
  // full. Then stop, and the held store goes on only once the server has taken the stop as the call's end.
  await sse.until(() => sse.events.some((e) => e.event === 'error' && e.data.code === 'PARLEY_ERR_OVERLOADED'), 120_000, 'the queue to be full');
  ws.send(JSON.stringify(stop));
  ws.close(1000);
  // Taken: as the end (ending set) or, without it, shed (a second overload error).
  const deadline = Date.now() + 120_000;
  while (t.app.sessions.get('default', c.callSid)?.ending == null && sse.events.filter((e) => e.event === 'error').length < 2) {
    assert.ok(Date.now() < deadline, 'timed out waiting for the stop to be taken');
    await new Promise((r) => setTimeout(r, 20));
  }
  release();
  await sse.until(() => sse.ended, 120_000, 'session.ended');
  const types = sse.events.map((e) => e.event);
  assert.ok(sse.events.some((e) => e.event === 'error' && e.data.code === 'PARLEY_ERR_OVERLOADED'), `the queue was full when stop came: ${types.join(',')}`);
  assert.equal(types.at(-1), 'session.ended', types.join(','));
  const session = await t.app.stores.graph.getSession('default', c.callSid);
  assert.ok(session?.endedAt, 'the end is stored');
  const finals = sse.events.filter((e) => e.event === 'transcript.final').length;
  const transcript = await t.app.stores.graph.getTranscript('default', c.callSid);
  assert.equal(transcript.length, finals, 'every acknowledged turn is stored before the end');
  sse.close();
});

test('a Twilio media frame under 10 ms (a 1-byte last frame) is kept, not refused as bad audio', async (ctx) => {
  // How much audio reached the speech pipeline: the most any audio session took (one call runs here).
  const audio = trackReceivedAudio();
  ctx.after(audio.restore);
  // 200 ms of mu-law silence in 20 ms frames.
  const { call: c, sse, ws, frames: messages, stop } = await liveCall(t, { audio: Buffer.alloc(1600, 0xff), send: false });
  const media = (bytes: number): Record<string, unknown> => ({
    event: 'media', streamSid: c.streamSid, media: { track: 'inbound', payload: Buffer.alloc(bytes, 0xff).toString('base64') },
  });
  // A short frame mid-call goes with the next; the call's last frame is 1 byte.
  for (const m of [...messages, media(3), media(160), media(1), stop]) ws.send(JSON.stringify(m));
  await sse.until(() => sse.ended, 120_000, 'session.ended');
  ws.close(1000);
  const errors = sse.events.filter((e) => e.event === 'error');
  assert.deepEqual(errors.map((e) => e.data), [], 'no frame was refused');
  assert.equal(sse.events.at(-1)?.event, 'session.ended');
  // Sent: 200 ms, 163 bytes (20.375 ms), then the 1-byte tail padded to 10 ms: 230.375 ms. The 8→16 kHz
  // resampler holds back its last 2.5 ms, so 227.875 ms is received; 217.875 ms had the tail been dropped.
  const receivedMs = audio.receivedMs();
  assert.ok(receivedMs > 225 && receivedMs <= 230.375, `audio received: ${receivedMs} ms`);
  sse.close();
});
