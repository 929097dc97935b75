import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { fixtureSamples, loadAudioFixtures, type AudioFixture } from '../../pipelines/audio/fixtures.js';
import { startVoiceTestApp, type TestApp } from '../helpers/app.js';
import { TestWsClient, type ServerEvent } from '../helpers/ws-client.js';

const paced = { pacing: 'realtime' as const, frameMs: 100, speed: 1 };

/** Connect to `sessionId`, speak the fixture, wait for one `transcript.final` per utterance, and drop the socket. */
async function speakPart(t: TestApp, sessionId: string, fixture: AudioFixture): Promise<{ started: ServerEvent; finals: ServerEvent[]; events: ServerEvent[] }> {
  const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=${sessionId}`, {}, paced);
  try {
    const started = await c.next('session.started');
    await c.speak(fixtureSamples(fixture));
    const finalsOf = (): ServerEvent[] => c.events.filter((e) => e.type === 'transcript.final');
    for (let i = 0; i < 600 && finalsOf().length < fixture.utterances.length; i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal(finalsOf().length, fixture.utterances.length, `finals: ${finalsOf().map((f) => f.text).join(' | ')}`);
    return { started, finals: finalsOf(), events: c.events };
  } finally {
    c.close();
  }
}

describe('a resumed voice session goes on from where its transcript ended', () => {
  let t: TestApp;
  let slt: AudioFixture;
  before(async () => {
    // A short resume window: the dropped session leaves memory, so the reconnect resumes it from the store
    // with a new audio stream (as after a restart or on another server).
    t = await startVoiceTestApp({ PARLEY_SESSION_RESUME_MS: '50' });
    slt = loadAudioFixtures().find((f) => f.file === 'slt.wav')!;
  });
  after(() => t.close());

  test('start_ms / end_ms of the resumed turns follow the first part\'s, live and in the stored transcript', async () => {
    const first = await speakPart(t, 'voice-resume', slt);
    assert.equal(first.started.resumed, false);
    for (let i = 0; i < 100 && t.app.sessions.get('default', 'voice-resume'); i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal(t.app.sessions.get('default', 'voice-resume'), undefined, 'the session left memory after its resume window');

    const second = await speakPart(t, 'voice-resume', slt);
    assert.equal(second.started.resumed, true);
    const lastEnd = Math.max(...first.finals.map((f) => f.end_ms as number));
    const firstStart = Math.min(...second.finals.map((f) => f.start_ms as number));
    assert.ok(firstStart >= lastEnd, `the resumed part starts at ${firstStart} ms, after the first part's end at ${lastEnd} ms`);
    // The same audio again: each turn sits where it sits in the fixture, shifted by where the first part ended.
    const shift = (second.finals[0]!.start_ms as number) - (first.finals[0]!.start_ms as number);
    assert.ok(Math.abs(shift - lastEnd) < 400, `shifted by ${shift} ms, the first part ended at ${lastEnd} ms`);

    const transcript = await t.app.stores.graph.getTranscript('default', 'voice-resume');
    assert.equal(transcript.length, 2 * slt.utterances.length);
    for (let i = 1; i < transcript.length; i++) {
      const [prev, cur] = [transcript[i - 1]!, transcript[i]!];
      assert.ok(cur.startMs! >= prev.endMs!, `turn ${i} (${cur.startMs}–${cur.endMs} ms) does not overlap turn ${i - 1} (${prev.startMs}–${prev.endMs} ms)`);
    }
    // Live VAD events stay on the clock of the audio this stream sent (the one a resend after a shutdown uses).
    const onset = second.events.find((e) => e.type === 'vad.speech_started')!.audio_start_ms as number;
    assert.ok(Math.abs(onset - slt.utterances[0]!.start_ms) < 400, `speech started at ${onset} ms of the resumed stream`);
  });
});
