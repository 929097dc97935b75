import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AudioSessionEvent } from '../../../pipelines/audio/audio-events.js';
import { createAudioSession, type AudioSession } from '../../../pipelines/audio/audio-session.js';
import { fixtureSamples, loadAudioFixtures } from '../../../pipelines/audio/fixtures.js';
import { looksLikeF32 } from '../../../pipelines/audio/format-hints.js';
import { encodeS16le } from '../../../pipelines/audio/pcm-codecs.js';
import type { StreamListener, WorkerPool } from '../../../pipelines/workers/worker-pool.js';

/**
 * Test double for a pool whose workers are stalled (busy loading models on a loaded machine): it takes audio
 * and acknowledges none of it until `ack` is called, so no test depends on how fast the machine is.
 */
function stalledPool(): { pool: WorkerPool; ack: (samples: number) => void } {
  let listener: StreamListener | undefined;
  const stream = { push() {}, setNames() {}, commit() {}, close() {} };
  const pool = { openStream: (_o: unknown, l: StreamListener) => { listener = l; return stream; } };
  return { pool: pool as unknown as WorkerPool, ack: (n) => listener?.onAck(n) };
}

const FRAME = encodeS16le(new Float32Array(1600)); // 100 ms at 16 kHz

/** Push `count` 100 ms frames, the i-th arriving at `at(i)` ms; returns the shed events seen. */
async function pushFrames(s: AudioSession, count: number, at: (i: number) => number): Promise<AudioSessionEvent[]> {
  for (let i = 0; i < count; i++) assert.equal(s.push(FRAME, at(i)), undefined);
  const events: AudioSessionEvent[] = [];
  const reading = (async () => { for await (const e of s) events.push(e); })();
  await s.close();
  await reading;
  return events.filter((e) => e.type === 'error' && e.code === 'PARLEY_ERR_OVERLOADED');
}

describe('audio session shedding against stalled workers', () => {
  test('a client 4 s ahead of real time (the SDK\'s fast pacing) loses nothing while the workers have not started', async () => {
    const { pool } = stalledPool();
    const s = await createAudioSession({ format: {}, pool });
    // 40 frames arrive within 14 ms of the first: 4000 ms ahead, inside the 5000 ms lead allowed.
    const shed = await pushFrames(s, 40, (i) => 1000 + i * 0.35);
    assert.deepEqual(shed, []);
    assert.equal(s.shedMs, 0);
  });

  test('audio is shed once the workers fall more than maxQueuedMs behind real time', async () => {
    const { pool } = stalledPool();
    const s = await createAudioSession({ format: {}, pool });
    // Real-time frames (each arrives as it starts), none processed: 2000 ms behind is allowed, the 22nd frame is not.
    const shed = await pushFrames(s, 25, (i) => i * 100);
    assert.equal(shed.length, 1, 'one error per episode');
    assert.match(String((shed[0] as { message: string }).message), /speech workers are behind/);
    assert.equal(s.shedMs, 400);
  });

  test('a fast client is shed for a backlog only past its lead plus maxQueuedMs, and not once the workers catch up', async () => {
    const { pool, ack } = stalledPool();
    const s = await createAudioSession({ format: {}, pool });
    // 4000 ms at once, then real time with no progress: behind by 2000 ms after 2 s, shed from then on.
    const at = (i: number): number => (i < 40 ? 0 : (i - 39) * 100);
    for (let i = 0; i < 60; i++) assert.equal(s.push(FRAME, at(i)), undefined);
    assert.equal(s.shedMs, 0, 'exactly 2000 ms behind is still accepted');
    assert.equal(s.push(FRAME, at(60)), undefined);
    assert.equal(s.shedMs, 100);
    ack(16000 * 6);
    assert.equal(s.push(FRAME, at(61)), undefined);
    assert.equal(s.shedMs, 100, 'accepted again once the workers caught up');
    await s.close();
  });
});

/**
 * Workers that keep up with real time but no faster, the backlog at its bound, used to shed and accept
 * frames in turn, with an error for every shed frame after an accepted one; and the error named no range.
 */
test('a backlog hovering at its bound is one episode with one error, which names where the shed audio begins', async () => {
  const { pool, ack } = stalledPool();
  const s = await createAudioSession({ format: {}, pool });
  const events: AudioSessionEvent[] = [];
  const reading = (async () => { for await (const e of s) events.push(e); })();
  // Real time, nothing processed for the first 2.1 s: the 22nd frame (2100–2200 ms) is the first shed.
  for (let i = 0; i < 22; i++) s.push(FRAME, i * 100);
  assert.equal(s.shedMs, 100);
  // Then the workers finish just enough to take every other frame: accepted and shed in turn, 2 s of it.
  for (let i = 22; i < 42; i++) {
    if (i % 2 === 0) ack(i === 22 ? 3200 : 1600);
    s.push(FRAME, i * 100);
  }
  assert.equal(s.shedMs, 1100, 'the first shed frame and every odd one after it');
  // Caught up: 1 s accepted in a row ends the episode; shedding after that is a new one (a burst over 5 s ahead).
  ack(16000 * 10);
  for (let i = 42; i < 52; i++) s.push(FRAME, i * 100);
  ack(16000 * 10);
  for (let i = 52; i < 120; i++) s.push(FRAME, 5100);
  assert.ok(s.shedMs > 1100);
  await s.close();
  await reading;
  const errors = events.filter((e) => e.type === 'error' && e.code === 'PARLEY_ERR_OVERLOADED') as { message: string; shedFromMs?: number }[];
  assert.equal(errors.length, 2, `one error per episode: ${errors.map((e) => e.message).join(' / ')}`);
  assert.equal(errors[0]!.shedFromMs, 2100);
  assert.match(errors[0]!.message, /audio shed from 2\.1 s of the stream \(shed_from_ms 2100\).*the speech workers are behind \(2\.\d s of audio waiting/);
  assert.match(errors[1]!.message, /audio is arriving faster than real time \(5\.\d s ahead; at most 5\.0 s\)/);
});

test('with no lead bound (maxLeadMs Infinity) the worker queue is still bounded by maxQueuedMs', async () => {
  const { pool } = stalledPool();
  const s = await createAudioSession({ format: {}, pool, maxLeadMs: Infinity, maxQueuedMs: 500 });
  const shed = await pushFrames(s, 10, () => 0);
  assert.equal(shed.length, 1);
  assert.equal(s.shedMs, 500);
});

/** The OVERLOADED errors among a session's events, once it is closed. */
async function overloadErrors(s: AudioSession, events: AudioSessionEvent[], reading: Promise<void>): Promise<{ message: string; shedFromMs?: number }[]> {
  await s.close();
  await reading;
  return events.filter((e) => e.type === 'error' && e.code === 'PARLEY_ERR_OVERLOADED') as { message: string; shedFromMs?: number }[];
}

/** Read a session's events into an array until it closes. */
function collect(s: AudioSession): { events: AudioSessionEvent[]; reading: Promise<void> } {
  const events: AudioSessionEvent[] = [];
  const reading = (async () => { for await (const e of s) events.push(e); })();
  return { events, reading };
}

/** The `audio_shed` events among a session's events. */
const shedNotices = (events: AudioSessionEvent[]) => events.flatMap((e) => (e.type === 'audio_shed' ? [e] : []));

test('each overload episode ends with an audio_shed event naming exactly what was shed; one still open is named at close', async () => {
  const { pool, ack } = stalledPool();
  const s = await createAudioSession({ format: {}, pool });
  const { events, reading } = collect(s);
  // Real time, workers stalled: the 22nd frame (2100–2200 ms) is shed; they take 200 ms, the next is taken, the one after shed.
  for (let i = 0; i < 22; i++) s.push(FRAME, i * 100);
  ack(3200);
  s.push(FRAME, 2200);
  s.push(FRAME, 2300);
  assert.equal(s.shedMs, 200);
  assert.deepEqual(shedNotices(events), [], 'no notice while the episode goes on');
  // Caught up: 1 s taken in a row ends the episode, and its notice names both spans.
  ack(16000 * 10);
  for (let i = 24; i < 34; i++) s.push(FRAME, i * 100);
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(shedNotices(events), [{ type: 'audio_shed', fromMs: 2100, untilMs: 2400, spans: [{ fromMs: 2100, untilMs: 2200 }, { fromMs: 2300, untilMs: 2400 }] }]);
  // A burst too far ahead of real time, the workers keeping up: shed from where the lead runs out until the stream closes.
  for (let i = 34; i < 100; i++) { s.push(FRAME, 3400); ack(1600); }
  const errors = await overloadErrors(s, events, reading);
  const second = shedNotices(events)[1];
  assert.equal(second?.fromMs, errors[1]?.shedFromMs);
  assert.equal(second?.untilMs, s.positionMs, 'the open episode is named at close, to the end of the audio');
  const total = shedNotices(events).flatMap((n) => n.spans).reduce((ms, x) => ms + x.untilMs - x.fromMs, 0);
  assert.equal(total, s.shedMs, 'every shed millisecond is in a span');
});

describe('an overload episode also ends with time: a client that pauses after a shed frame is told of a later overload', () => {
  test('a push-to-talk client paused a minute after a shed frame gets a new error when audio is shed again', async () => {
    const { pool, ack } = stalledPool();
    const s = await createAudioSession({ format: {}, pool, maxQueuedMs: 500 });
    const { events, reading } = collect(s);
    // Real time, workers stalled: 500 ms may wait behind the frame arriving, the 7th frame (600–700 ms) is shed.
    for (let i = 0; i < 7; i++) s.push(FRAME, i * 100);
    assert.equal(s.shedMs, 100);
    ack(16000);
    // The mic is muted for a minute (no frames), then the talk button sends 1 s while the workers are stalled again.
    for (let i = 0; i < 10; i++) s.push(FRAME, 60_000 + i * 100);
    assert.equal(s.shedMs, 600, 'the second overload sheds from its 6th frame');
    const errors = await overloadErrors(s, events, reading);
    assert.deepEqual(errors.map((e) => e.shedFromMs), [600, 1200], 'one error per episode, the second one too');
  });

  test('shed frames less than 1 s apart (by arrival) stay one episode, however little audio came between them', async () => {
    const { pool } = stalledPool();
    const s = await createAudioSession({ format: {}, pool, maxQueuedMs: 500 });
    const { events, reading } = collect(s);
    // Stalled workers, a frame every 900 ms: every frame past the 5th is shed, with pauses under 1 s between them.
    for (let i = 0; i < 12; i++) s.push(FRAME, i * 900);
    assert.equal(s.shedMs, 700);
    const errors = await overloadErrors(s, events, reading);
    assert.equal(errors.length, 1);
  });
});

describe('a resumed stream catches up on the audio held during an outage without losing it', () => {
  test('same stream: 10 s held during an outage and sent at once is not shed as a backlog while the workers have not had it', async () => {
    const { pool, ack } = stalledPool();
    const s = await createAudioSession({ format: {}, pool });
    // 3 s at real time, the workers keeping up.
    for (let i = 0; i < 30; i++) { s.push(FRAME, i * 100); ack(1600); }
    // The connection drops for 10 s; the client reconnects and sends the 10 s it held at once, then goes on live.
    s.resumed();
    for (let i = 0; i < 100; i++) assert.equal(s.push(FRAME, 13_000 + i * 0.01), undefined);
    assert.equal(s.shedMs, 0, 'the held audio is taken, the workers not having started on it yet');
    for (let i = 0; i < 20; i++) s.push(FRAME, 13_000 + (i + 1) * 100);
    assert.equal(s.shedMs, 0, 'and 2 s of live audio behind it');
    // The workers stay stalled: once they are more than 2 s behind the live edge past the held audio, audio is shed.
    for (let i = 20; i < 30; i++) s.push(FRAME, 13_000 + (i + 1) * 100);
    assert.ok(s.shedMs > 0, 'the workers\' backlog beyond the catch-up is still bounded');
    await s.close();
  });

  test('same stream: the catch-up allowance is the outage, so a client flooding after a short drop is still bounded by the lead', async () => {
    const { pool, ack } = stalledPool();
    const s = await createAudioSession({ format: {}, pool });
    for (let i = 0; i < 30; i++) { s.push(FRAME, i * 100); ack(1600); }
    // A 1 s drop, then 20 s sent at once (the workers keeping up): 1 s held plus the 5 s lead is taken, the rest shed.
    s.resumed();
    for (let i = 0; i < 200; i++) { s.push(FRAME, 3900); ack(1600); }
    assert.equal(s.shedMs, 20_000 - 6_000);
    const { events, reading } = collect(s);
    const errors = await overloadErrors(s, events, reading);
    assert.equal(errors.length, 1);
    assert.match(errors[0]!.message, /faster than real time \(6\.1 s ahead; at most 5\.0 s plus 1\.0 s to catch up after a reconnect\)/);
  });

  test('a new stream of a resumed session (restart, other server) takes a resend plus held audio of up to 30 s at once, and no more', async () => {
    const { pool, ack } = stalledPool();
    const s = await createAudioSession({ format: {}, pool, catchUpMs: 30_000 });
    // 25 s at once (what a shut-down server did not store, resent, and what the mic held during the restart).
    for (let i = 0; i < 250; i++) assert.equal(s.push(FRAME, 500 + i * 0.01), undefined);
    assert.equal(s.shedMs, 0, 'not shed as ahead of real time, nor as a backlog of workers that have not started');
    // A flood: past the 30 s allowance plus the 5 s lead, audio is shed.
    ack(16000 * 25);
    for (let i = 0; i < 150; i++) { s.push(FRAME, 600); ack(1600); }
    assert.equal(s.shedMs, 40_000 - 35_000 - 100);
    await s.close();
  });

  test('the catch-up allowance is at most maxCatchUpMs, however long the outage', async () => {
    const { pool, ack } = stalledPool();
    const s = await createAudioSession({ format: {}, pool, maxCatchUpMs: 3000 });
    s.push(FRAME, 0);
    ack(1600);
    // Ten minutes later, 10 s at once: 3 s of catch-up plus the 5 s lead are taken.
    s.resumed();
    for (let i = 0; i < 100; i++) { s.push(FRAME, 600_000); ack(1600); }
    assert.equal(s.shedMs, 2000);
    await s.close();
  });
});

/**
 * Every new stream of a resumed session used to get its whole 30 s allowance as audio the workers may leave waiting,
 * even when its client sent in real time: after a restart under load its live transcripts could lag ~32 s before
 * anything was shed. Only audio shown to be held (sent ahead of real time, or held by the server) may wait now.
 */
describe('the catch-up allowance covers only the audio a connection shows to be held', () => {
  test('a new stream of a resumed session sending in real time is shed once its workers are 2 s behind, as a new one', async () => {
    const { pool } = stalledPool();
    const s = await createAudioSession({ format: {}, pool, catchUpMs: 30_000 });
    // Real-time frames, none processed: the 22nd frame (2100–2200 ms) is the first shed, as on a new session.
    for (let i = 0; i < 25; i++) s.push(FRAME, 500 + i * 100);
    assert.equal(s.shedMs, 400);
    await s.close();
  });

  test('a new stream of a resumed session: 12 s held and sent at once, then real time, may wait 12 s plus 2 s', async () => {
    const { pool } = stalledPool();
    const s = await createAudioSession({ format: {}, pool, catchUpMs: 30_000 });
    for (let i = 0; i < 120; i++) s.push(FRAME, 500 + i * 0.01);
    // Then live, the workers stalled: 2 s more are taken, the 21st live frame is shed.
    for (let i = 0; i < 25; i++) s.push(FRAME, 500 + (i + 1) * 100);
    assert.equal(s.shedMs, 500);
    await s.close();
  });

  test('same stream: a client back after 10 s that sends live (its held audio dropped) is shed 2 s behind', async () => {
    const { pool, ack } = stalledPool();
    const s = await createAudioSession({ format: {}, pool });
    for (let i = 0; i < 30; i++) { s.push(FRAME, i * 100); ack(1600); }
    s.resumed();
    for (let i = 0; i < 25; i++) s.push(FRAME, 13_000 + i * 100);
    assert.equal(s.shedMs, 400);
    await s.close();
  });

  test('frames the server took later than they arrived (held while the session opened) may wait for the workers', async () => {
    const { pool } = stalledPool();
    const s = await createAudioSession({ format: {}, pool });
    // 3 s that arrived in real time while the session opened, all taken at 3000, then live.
    for (let i = 0; i < 30; i++) s.push(FRAME, i * 100, 3000);
    assert.equal(s.shedMs, 0, 'not shed as a backlog, nor as ahead of real time');
    for (let i = 30; i < 55; i++) s.push(FRAME, i * 100);
    assert.equal(s.shedMs, 400, 'past the held 3 s, the workers may fall 2 s behind');
    await s.close();
  });
});

/**
 * A wrong declared format used to give only "arriving faster than real time (5.1 s ahead)" (16 kHz stereo declared
 * mono) or nothing at all (float32 samples declared pcm_s16le, heard as noise). The audio is the flite fixture, made
 * stereo and float32 as `sox awb.wav -c 2 -e signed -b 16 -t raw` and `sox awb.wav -e float -b 32 -t raw` write it.
 */
describe('a likely wrong format is named, and the audio is still taken', () => {
  const awb = fixtureSamples(loadAudioFixtures().find((f) => f.file === 'awb.wav')!);
  const stereo = (): Buffer => {
    const both = new Float32Array(awb.length * 2);
    awb.forEach((x, i) => { both[2 * i] = x; both[2 * i + 1] = x; });
    return encodeS16le(both);
  };
  const f32 = (): Buffer => Buffer.from(awb.buffer, awb.byteOffset, awb.byteLength);
  const FRAME_BYTES = 3200; // 100 ms declared (16 kHz mono pcm_s16le)

  test('16 kHz stereo sent as mono at real time: the shedding error says it arrives at 2× and to check channels / sample_rate', async () => {
    const { pool, ack } = stalledPool();
    const s = await createAudioSession({ format: {}, pool });
    const { events, reading } = collect(s);
    const bytes = stereo();
    // Each 3200-byte frame is 50 ms of stereo audio, sent as it is recorded (every 50 ms); the workers keep up.
    for (let i = 0; (i + 1) * FRAME_BYTES <= bytes.length; i++) {
      assert.equal(s.push(bytes.subarray(i * FRAME_BYTES, (i + 1) * FRAME_BYTES), i * 50), undefined);
      ack(1600);
    }
    const errors = await overloadErrors(s, events, reading);
    assert.equal(errors.length, 1);
    assert.match(errors[0]!.message, /faster than real time \(5\.\d s ahead.*about 2\.0× real time.*check channels .*sample_rate/);
  });

  test('a client sending what it held at once gets no format hint', async () => {
    const { pool, ack } = stalledPool();
    const s = await createAudioSession({ format: {}, pool });
    const { events, reading } = collect(s);
    for (let i = 0; i < 80; i++) { s.push(FRAME, 4000); ack(1600); }
    const errors = await overloadErrors(s, events, reading);
    assert.doesNotMatch(errors[0]!.message, /check channels/);
  });

  test('float32 samples declared pcm_s16le: one non-fatal warning naming f32le; true pcm_s16le gets none', async () => {
    const warnings = async (bytes: Buffer): Promise<AudioSessionEvent[]> => {
      const { pool, ack } = stalledPool();
      const s = await createAudioSession({ format: {}, pool });
      const { events, reading } = collect(s);
      for (let i = 0; (i + 1) * FRAME_BYTES <= bytes.length; i++) {
        assert.equal(s.push(bytes.subarray(i * FRAME_BYTES, (i + 1) * FRAME_BYTES), i * 100), undefined, 'taken, not refused');
        ack(1600);
      }
      await s.close();
      await reading;
      return events.filter((e) => e.type === 'error' && e.code === 'PARLEY_ERR_BAD_AUDIO');
    };
    const f32Warnings = await warnings(f32());
    assert.equal(f32Warnings.length, 1);
    assert.ok(f32Warnings[0]?.type === 'error' && !f32Warnings[0].fatal && /encoding=f32le/.test(f32Warnings[0].message));
    assert.deepEqual(await warnings(encodeS16le(awb)), []);
    assert.deepEqual(await warnings(stereo()), [], 'stereo s16 is not taken for float32');
    // 10 s of silence first (more frames than are looked at): the frames with sound are still looked at.
    assert.equal((await warnings(Buffer.concat([Buffer.alloc(FRAME_BYTES * 100), f32()]))).length, 1);
  });

  test('no frame of the fixture as pcm_s16le looks like float32, and silence sent as float32 does not either', () => {
    const s16 = encodeS16le(awb);
    for (let i = 0; i + FRAME_BYTES <= s16.length; i += FRAME_BYTES) assert.notEqual(looksLikeF32(s16.subarray(i, i + FRAME_BYTES)), true, `frame at byte ${i}`);
    assert.equal(looksLikeF32(new Uint8Array(FRAME_BYTES)), undefined, 'silence tells nothing');
  });
});
