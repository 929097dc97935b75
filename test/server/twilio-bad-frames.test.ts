import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { WS_HARD_CAP_BYTES } from '../../server/ws/frame-limits.js';
import { appForSuite, startVoiceTestApp } from '../helpers/app.js';
import { connectTwilio, liveCall, trackReceivedAudio, type SseClient, type SseEvent } from '../helpers/twilio.js';

/**
 * One bad frame in a live Twilio call used to close the whole call (1003, a fatal error to subscribers), and
 * the call then waited PARLEY_SESSION_RESUME_MS for a resume Twilio never makes. A bad frame is now dropped
 * with a non-fatal error (one per run of bad frames); what does end the stream ends the call at once.
 */
describe('bad frames in a live Twilio call', () => {
  // No resume within a test's wait: a call that ends did so because its stream was closed, not on a timer.
  const t = appForSuite(() => startVoiceTestApp({ PARLEY_SESSION_RESUME_MS: '3600000' }));

  const errors = (sse: SseClient): Record<string, unknown>[] => sse.events.filter((e: SseEvent) => e.event === 'error').map((e) => e.data);

  test('are dropped with one non-fatal error per run; the call goes on, keeps its clock and ends at stop', async (ctx) => {
    const audio = trackReceivedAudio();
    ctx.after(audio.restore);
    // 400 ms of mu-law silence, sent below between bad frames.
    const { call: c, sse, ws, closed, frames, stop } = await liveCall(t, { audio: Buffer.alloc(160 * 20, 0xff), send: false });
    let closedBy: number | null = null;
    void closed.then((how) => { closedBy = how.code; });
    const [connected, start, ...media] = frames;
    const corrupt = (payload: unknown): Record<string, unknown> => ({
      event: 'media', streamSid: c.streamSid, media: { track: 'inbound', chunk: '0', timestamp: '0', payload },
    });
    const send = (m: unknown): void => ws.send(typeof m === 'string' ? m : JSON.stringify(m));
    send(connected);
    send(start);
    for (const m of media.slice(0, 5)) send(m);
    // Run 1: three corrupt media frames (60 ms of the call's audio).
    send(corrupt('@@@not base64!!'));
    send(corrupt(Buffer.alloc(160, 0xfb).toString('base64url')));
    send(corrupt(12345));
    for (const m of media.slice(5, 10)) send(m);
    // Run 2: a frame without "event", and junk.
    send({ streamSid: c.streamSid, media: { payload: 'AAAA' } });
    send('not json');
    for (const m of media.slice(10, 15)) send(m);
    // Run 3: the same stream's start again.
    send(start);
    for (const m of media.slice(15)) send(m);
    await sse.until(() => errors(sse).length >= 3, 120_000, 'three errors');
    assert.equal(closedBy, null, 'the server closed the call on a bad frame');
    send(stop);
    await sse.until(() => sse.ended, 120_000, 'session.ended');
    ws.close(1000);
    const got = errors(sse);
    assert.equal(got.length, 3, JSON.stringify(got));
    for (const e of got) {
      assert.equal(e.code, 'PARLEY_ERR_BAD_FRAME');
      assert.equal(e.fatal, false);
    }
    assert.match(String(got[0]?.message), /^media: media\.payload is not base64/);
    assert.match(String(got[1]?.message), /JSON object with an "event" field/);
    assert.match(String(got[2]?.message), /^start: the stream has already started; this start was ignored/);
    assert.equal(sse.events.at(-1)?.event, 'session.ended');
    assert.ok((await t.app.stores.graph.getSession('default', c.callSid))?.endedAt, 'the call ended at stop');
    // The call's metadata, as PROTOCOL.md describes it, is read back with its transcript.
    const read = await fetch(`${t.httpUrl}/v1/sessions/${c.callSid}/transcript`);
    assert.equal(read.status, 200);
    const { metadata } = (await read.json()) as { metadata: { channel: string; twilio: Record<string, unknown> } };
    assert.equal(metadata.channel, 'twilio');
    assert.deepEqual(metadata.twilio, { call_sid: c.callSid, stream_sid: c.streamSid, account_sid: c.accountSid, tracks: ['inbound'], custom_parameters: {} });
    const receivedMs = audio.receivedMs();
    // 400 ms sent plus 60 ms kept for the corrupt frames; the 8→16 kHz resampler holds back its last 2.5 ms.
    assert.ok(receivedMs > 455 && receivedMs <= 460, `audio received: ${receivedMs} ms (397.5 had the corrupt frames left no gap)`);
    sse.close();
  });

  test('a message over the hard cap closes the stream 1009, tells subscribers, and ends the call at once', async () => {
    const { call: c, sse, ws, closed } = await liveCall(t);
    ws.send('x'.repeat(WS_HARD_CAP_BYTES + 1));
    const how = await closed;
    assert.equal(how.code, 1009);
    assert.match(how.reason, /^PARLEY_ERR_FRAME_TOO_LARGE/);
    // Twilio never resumes a stream the server closed: the call ends (no wait for PARLEY_SESSION_RESUME_MS).
    await sse.until(() => sse.ended, 120_000, 'session.ended');
    const fatal = errors(sse).filter((e) => e.fatal === true);
    assert.deepEqual(fatal.map((e) => e.code), ['PARLEY_ERR_FRAME_TOO_LARGE']);
    assert.equal(sse.events.at(-1)?.event, 'session.ended');
    assert.ok((await t.app.stores.graph.getSession('default', c.callSid))?.endedAt, 'the end is stored');
    sse.close();
  });

  test('a fatal error of the session (no inference worker left) closes the stream and ends the call at once', async () => {
    const { call: c, sse, closed } = await liveCall(t);
    const live = t.app.sessions.get('default', c.callSid);
    assert.ok(live, 'the live session');
    live.sendError('PARLEY_ERR_WORKER_CRASHED', 'no inference worker is available', true);
    const how = await closed;
    assert.equal(how.code, 1011);
    // Before: the call waited PARLEY_SESSION_RESUME_MS (an hour here) for a resume Twilio never makes.
    await sse.until(() => sse.ended, 120_000, 'session.ended');
    assert.ok((await t.app.stores.graph.getSession('default', c.callSid))?.endedAt, 'the end is stored');
    sse.close();
  });

  test('restarting an ended call is refused with 4001 (its session has ended), not a normal closure, its reason cut at a word', async () => {
    const first = await liveCall(t);
    const c = first.call;
    const frames = [...first.frames, first.stop];
    first.ws.send(JSON.stringify(first.stop));
    await first.sse.until(() => first.sse.ended, 120_000, 'session.ended');
    first.sse.close();
    first.ws.close();
    await first.closed;
    const second = await connectTwilio(`${t.wsUrl}/v1/twilio`);
    for (const m of frames.slice(0, 3)) second.ws.send(JSON.stringify(m));
    const how = await second.closed;
    assert.equal(how.code, 4001);
    assert.ok(Buffer.byteLength(how.reason) <= 123, how.reason);
    assert.match(how.reason, new RegExp(`^PARLEY_ERR_SESSION_ENDED: session ${c.callSid} ended at `));
    // Cut after a whole word of the full reason, and marked as cut.
    const endedAt = (await t.app.stores.graph.getSession('default', c.callSid))?.endedAt;
    const full = `PARLEY_ERR_SESSION_ENDED: session ${c.callSid} ended at ${String(endedAt)} and cannot be resumed; start a new session with another session_id`;
    assert.ok(how.reason.endsWith('…'), how.reason);
    const kept = how.reason.slice(0, -1);
    assert.ok(full.startsWith(kept), `${how.reason} is no cut of ${full}`);
    assert.match(full.slice(kept.length), /^[\s,;:.(-]/, `cut mid-word: ${how.reason}`);
  });
});
