import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import pino from 'pino';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { fixtureSamples, loadAudioFixtures } from '../../pipelines/audio/fixtures.js';
import { ParleyClient } from '../../clients/typescript/src/index.js';
import { appForSuite, appWithClientForSuite, startTestApp, startVoiceTestApp } from '../helpers/app.js';
import { tempDir } from '../helpers/temp-dir.js';
import { refusedUpgrade } from '../helpers/refused-upgrade.js';
import { TestWsClient } from '../helpers/ws-client.js';

const DAY_MS = 24 * 60 * 60 * 1000;

// A robot replaying or simulating "day 1" and "day 2" over the WebSocket says when each conversation happened, as
// HTTP's `time` does: a stream's `start_time`, an utterance message's `time`.
describe('the time of a streamed conversation: start_time on /v1/stream, time on an utterance message', () => {
  const suite = appWithClientForSuite();
  const { t } = suite;

  const times = async (sessionId: string): Promise<string[]> => (await suite.api.transcript(sessionId)).utterances.map((u) => u.time);

  test("an utterance's time is stored, and its memory's dates resolve against it", async () => {
    const ws = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=day-1`);
    await ws.next('session.started');
    ws.sendJson({ type: 'utterance', speaker: 'Ana', addressees: ['Ben'], text: "I'm living in Lisbon for a month.", time: '2026-06-01T10:00:00Z' });
    await ws.nextNew('transcript.final');
    ws.sendJson({ type: 'session.end' });
    await ws.next('session.ended');
    ws.close();
    assert.deepEqual(await times('day-1'), ['2026-06-01T10:00:00.000Z']);
    await drainConsolidation(t.app.stores.queue, 60_000);
    const lisbon = (await suite.api.memories({ limit: 100 })).find((m) => /Lisbon/.test(m.text));
    assert.equal(lisbon?.valid_until, '2026-07-01T10:00:00.000Z', 'a month after the time it was said, not after now');
  });

  test("a stream's start_time: text utterances without a time of their own are stored from it, one with a time at it", async () => {
    const start = '2026-03-07T18:00:00Z';
    const ws = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=day-2&start_time=${encodeURIComponent(start)}`);
    await ws.next('session.started');
    ws.sendJson({ type: 'utterance', speaker: 'Ana', text: 'shall we eat out tonight?' });
    await ws.nextNew('transcript.final');
    ws.sendJson({ type: 'utterance', speaker: 'Ben', text: 'yes, at eight', time: '2026-03-07T18:05:00+00:00' });
    await ws.nextNew('transcript.final');
    ws.close();
    const [first, second] = await times('day-2');
    const after = Date.parse(first!) - Date.parse(start);
    assert.ok(after >= 0 && after < 10 * 60_000, `${first} is the stream's start time plus the time since it opened`);
    assert.equal(second, '2026-03-07T18:05:00.000Z');
  });

  test('a bad start_time fails the upgrade with a 400 naming it, as HTTP refuses a bad time; nothing is stored', async () => {
    const ahead = new Date(Date.now() + 2 * DAY_MS).toISOString();
    for (const [value, says] of [['yesterday', /start_time must match format "date-time"/], [ahead, /start_time: .* is in the future \(more than 24 h after the server's clock/]] as const) {
      const refused = await refusedUpgrade(`${t.wsUrl}/v1/stream?session_id=bad-start&start_time=${encodeURIComponent(value)}`);
      assert.equal(refused.status, 400);
      assert.equal(refused.body.error.code, 'PARLEY_ERR_BAD_REQUEST');
      assert.match(refused.body.error.message, says);
    }
    assert.equal(await t.app.stores.graph.getSession('default', 'bad-start'), null, 'no session was opened');
  });

  test("a bad utterance time is a non-fatal error naming it, as HTTP's; the utterance is not stored", async () => {
    const ws = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=bad-time`);
    await ws.next('session.started');
    ws.sendJson({ type: 'utterance', speaker: 'Ana', text: 'soon', time: 'next week' });
    const format = await ws.nextNew('error');
    assert.equal(format.code, 'PARLEY_ERR_BAD_FRAME');
    assert.match(String(format.message), /^utterance: \/time .*date-time/);
    ws.sendJson({ type: 'utterance', speaker: 'Ana', text: 'later', time: new Date(Date.now() + 2 * DAY_MS).toISOString() });
    const future = await ws.nextNew('error');
    assert.equal(future.code, 'PARLEY_ERR_BAD_FRAME');
    assert.match(String(future.message), /^utterance: time: .* is in the future .*nothing was stored/);
    assert.equal(future.fatal, false);
    ws.sendJson({ type: 'utterance', speaker: 'Ana', text: 'now then' });
    await ws.nextNew('transcript.final');
    ws.close();
    assert.deepEqual((await suite.api.transcript('bad-time')).utterances.map((u) => u.text), ['now then']);
  });
});

describe("voice turns of a stream with start_time are stored at it plus where they start in the connection's audio", () => {
  const t = appForSuite(() => startVoiceTestApp());

  test('each final is stored at start_time + its start_ms (a new session: its audio starts at 0)', async () => {
    const fixture = loadAudioFixtures().find((f) => f.file === 'awb.wav')!;
    const start = '2026-03-08T09:30:00.000Z';
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=voice-day-2&start_time=${start}`, {}, { pacing: 'realtime', frameMs: 100, speed: 1 });
    await c.next('session.started');
    await c.speak(fixtureSamples(fixture));
    c.sendJson({ type: 'session.end' });
    await c.next('session.ended', () => true, 60_000);
    c.close();
    const { utterances } = await new ParleyClient({ baseUrl: t.httpUrl }).transcript('voice-day-2');
    assert.ok(utterances.length > 0, 'the fixture was heard');
    for (const u of utterances) assert.equal(u.time, new Date(Date.parse(start) + u.start_ms!).toISOString(), JSON.stringify(u));
  });

  /** Connect to `sessionId` with `start`, speak the fixture, wait for its finals, then drop (or end) the session. */
  const speakPart = async (sessionId: string, start: string, end: boolean): Promise<void> => {
    const fixture = loadAudioFixtures().find((f) => f.file === 'awb.wav')!;
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=${sessionId}&start_time=${start}`, {}, { pacing: 'realtime', frameMs: 100, speed: 1 });
    try {
      await c.next('session.started');
      await c.speak(fixtureSamples(fixture));
      if (end) {
        c.sendJson({ type: 'session.end' });
        await c.next('session.ended', () => true, 60_000);
        return;
      }
      const finals = (): number => c.events.filter((e) => e.type === 'transcript.final').length;
      for (let i = 0; i < 600 && finals() < fixture.utterances.length; i++) await new Promise((r) => setTimeout(r, 100));
      assert.equal(finals(), fixture.utterances.length, 'the first part was heard');
    } finally {
      c.close();
    }
  };

  test('a reconnect repeating the start_time (as the SDK does) goes on with its clock: every turn at start_time + its start_ms', async () => {
    const start = '2026-03-09T09:30:00.000Z';
    await speakPart('voice-day-3', start, false);
    await speakPart('voice-day-3', start, true);
    const { utterances } = await new ParleyClient({ baseUrl: t.httpUrl }).transcript('voice-day-3');
    const firstPart = loadAudioFixtures().find((f) => f.file === 'awb.wav')!.utterances.length;
    assert.ok(utterances.length > firstPart, `both parts were stored: ${utterances.length} utterances`);
    for (const u of utterances) assert.equal(u.time, new Date(Date.parse(start) + u.start_ms!).toISOString(), JSON.stringify(u));
  });

  test("a reconnect with another start_time counts from it: the resumed turns start at that time plus where its audio begins", async () => {
    const [start, later] = ['2026-03-10T09:30:00.000Z', '2026-03-10T15:00:00.000Z'];
    await speakPart('voice-day-4', start, false);
    await speakPart('voice-day-4', later, true);
    const { utterances } = await new ParleyClient({ baseUrl: t.httpUrl }).transcript('voice-day-4');
    const firstPart = loadAudioFixtures().find((f) => f.file === 'awb.wav')!.utterances.length;
    const [before, after] = [utterances.slice(0, firstPart), utterances.slice(firstPart)];
    assert.ok(after.length > 0, 'the second part was stored');
    for (const u of before) assert.equal(u.time, new Date(Date.parse(start) + u.start_ms!).toISOString(), JSON.stringify(u));
    // The second connection's clock: the same offsets between its turns, from `later` on, not from `start`.
    const firstAfter = Date.parse(after[0]!.time) - Date.parse(later);
    assert.ok(firstAfter >= 0 && firstAfter < 10_000, `the first resumed turn is ${firstAfter} ms after the new start_time`);
    for (const u of after) assert.equal(Date.parse(u.time) - Date.parse(after[0]!.time), u.start_ms! - after[0]!.start_ms!, JSON.stringify(u));
  });
});

// Without a start_time a voice turn is stored at when its first audio arrived: the app's wall clock (`BuildOptions.now`)
// less how long ago that was on the audio clock. It used to read `Date.now()`, so a test (or a replay driving the app's
// clock) could not say when its turns happened, while text turns' times were checked against the injected clock.
describe("voice turns of a stream without start_time are stored at when they were heard, on the app's clock", () => {
  const CLOCK = Date.parse('2025-02-03T04:05:06.000Z');
  const t = appForSuite(() => startVoiceTestApp({}, { now: () => CLOCK }));

  test("each final's time is the app's clock less how long ago its audio arrived", async () => {
    const fixture = loadAudioFixtures().find((f) => f.file === 'awb.wav')!;
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=voice-app-clock`, {}, { pacing: 'realtime', frameMs: 100, speed: 1 });
    await c.next('session.started');
    await c.speak(fixtureSamples(fixture));
    c.sendJson({ type: 'session.end' });
    await c.next('session.ended', () => true, 60_000);
    c.close();
    const { utterances } = await new ParleyClient({ baseUrl: t.httpUrl }).transcript('voice-app-clock');
    assert.ok(utterances.length > 0, 'the fixture was heard');
    for (const u of utterances) {
      const ago = CLOCK - Date.parse(u.time);
      // The clock stands still, so each turn lies before it by how long ago (on the audio clock) its audio came in.
      assert.ok(ago >= 0 && ago < 10 * 60_000, `${u.time} is heard on the app's clock (${new Date(CLOCK).toISOString()}), not the machine's`);
    }
  });
});

// A home robot's server was killed mid-conversation and started again; the SDK reconnected with the same start_time.
// The new server's live session used to start that clock again at the stream's first audio: the next turn (start_ms
// 15392) was stored at start_time + 2.656 s, before turns stored earlier.
describe('a session resumed on a restarted server with the same start_time goes on with its clock', () => {
  test('every turn, before and after the restart, is stored at start_time + its start_ms', async () => {
    const data = tempDir('parley-restart-clock-');
    const fixture = loadAudioFixtures().find((f) => f.file === 'awb.wav')!;
    const start = '2026-03-11T09:30:00.000Z';
    const speak = async (end: boolean): Promise<boolean> => {
      const t = await startVoiceTestApp({ DATA_DIR: data.dir });
      try {
        const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=voice-restart&start_time=${start}`, {}, { pacing: 'realtime', frameMs: 100, speed: 1 });
        const started = await c.next('session.started');
        await c.speak(fixtureSamples(fixture));
        if (end) {
          c.sendJson({ type: 'session.end' });
          await c.next('session.ended', () => true, 60_000);
        } else {
          const finals = (): number => c.events.filter((e) => e.type === 'transcript.final').length;
          for (let i = 0; i < 600 && finals() < fixture.utterances.length; i++) await new Promise((r) => setTimeout(r, 100));
          assert.equal(finals(), fixture.utterances.length, 'the first part was heard');
        }
        c.close();
        return started.resumed === true;
      } finally {
        await t.close();
      }
    };
    try {
      assert.equal(await speak(false), false);
      assert.equal(await speak(true), true, 'the second server resumed the session from the store');
      const t = await startVoiceTestApp({ DATA_DIR: data.dir });
      try {
        const { utterances } = await new ParleyClient({ baseUrl: t.httpUrl }).transcript('voice-restart');
        assert.ok(utterances.length > fixture.utterances.length, `both parts were stored: ${utterances.length} utterances`);
        for (const u of utterances) assert.equal(u.time, new Date(Date.parse(start) + u.start_ms!).toISOString(), JSON.stringify(u));
      } finally {
        await t.close();
      }
    } finally {
      data.remove();
    }
  });
});

// The same restart, then the client types: a typed turn was dated from the new connection (start_time + the time
// since it opened), before the voice turns stored earlier. The earlier server's stream is set up through the store
// (what its voice turns leave there: the stream's recorded clock and a turn ending at 15.392 s); the audio clock stands still.
describe('a typed turn on a session resumed on a restarted server with the same start_time goes on from its stored transcript', () => {
  test('stored at start_time + where the stored transcript ends (+ the time since the connection opened)', async () => {
    const data = tempDir('parley-restart-typed-');
    const start = '2026-03-12T09:30:00.000Z';
    try {
      const before = await startTestApp({ DATA_DIR: data.dir }, false);
      try {
        await before.app.ingest.ingest('default', 'typed-restart', [{ speaker: 'Ana', text: 'the kettle is on', startMs: 14_000, endMs: 15_392, time: new Date(Date.parse(start) + 14_000).toISOString() }]);
        assert.ok(await before.app.stores.graph.startAudioStream('default', 'typed-restart', 'ls_before', 0, { startTime: Date.parse(start), baseMs: 0 }));
      } finally {
        await before.close();
      }
      const t = await startTestApp({ DATA_DIR: data.dir }, true, pino({ level: 'silent' }), { audioNow: () => 1_000 });
      try {
        const ws = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=typed-restart&start_time=${start}`);
        try {
          assert.equal((await ws.next('session.started')).resumed, true);
          ws.sendJson({ type: 'utterance', speaker: 'Ben', text: 'thanks' });
          await ws.nextNew('transcript.final');
        } finally {
          ws.close();
        }
        const { utterances } = await new ParleyClient({ baseUrl: t.httpUrl }).transcript('typed-restart');
        assert.deepEqual(utterances.map((u) => [u.text, u.time]), [
          ['the kettle is on', '2026-03-12T09:30:14.000Z'],
          ['thanks', '2026-03-12T09:30:15.392Z'],
        ]);
      } finally {
        await t.close();
      }
    } finally {
      data.remove();
    }
  });
});
