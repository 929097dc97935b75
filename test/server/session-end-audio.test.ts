import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { fixtureSamples, loadAudioFixtures } from '../../pipelines/audio/fixtures.js';
import { encodeS16le } from '../../pipelines/audio/pcm-codecs.js';
import { startVoiceTestApp, type TestApp } from '../helpers/app.js';
import { TestWsClient } from '../helpers/ws-client.js';

/**
 * A client (the browser console's microphone, say) may still send audio after `session.end`. Such frames used
 * to open a new audio stream under the closing one: `session.ended` never came and the server could not shut down.
 */
describe('audio frames after session.end', () => {
  let t: TestApp;
  before(async () => {
    t = await startVoiceTestApp();
  });
  after(() => t.close());

  test('are dropped with one non-fatal error; the session still ends and the server still closes', async () => {
    const awb = loadAudioFixtures().find((f) => f.file === 'awb.wav')!;
    const samples = fixtureSamples(awb);
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=late-audio`);
    await c.next('session.started');
    const mid = Math.round(16000 * ((awb.utterances[0]!.start_ms + 800) / 1000)); // inside the first utterance
    for (let i = 0; i < mid; i += 1600) {
      c.sendRaw(encodeS16le(samples.subarray(i, Math.min(i + 1600, mid))));
      await new Promise((r) => setTimeout(r, 20));
    }
    await c.next('vad.speech_started', () => true, 60_000);
    c.sendJson({ type: 'session.end' });
    for (let i = 0; i < 3; i++) c.sendRaw(encodeS16le(samples.subarray(mid + i * 1600, mid + (i + 1) * 1600)));
    await c.next('session.ended', () => true, 120_000);
    const late = c.events.filter((e) => e.type === 'error' && e.code === 'PARLEY_ERR_SESSION_ENDED');
    assert.ok(late.length <= 1, 'at most one error for the late frames');
    assert.ok(late.every((e) => e.fatal === false));
    assert.equal(c.events.filter((e) => e.type === 'transcript.final').length, 1, 'the cut turn is stored');
  });
});
