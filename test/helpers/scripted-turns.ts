import { fixtureSamples, loadAudioFixtures } from '../../pipelines/audio/fixtures.js';
import type { TestApp } from './app.js';
import { TestWsClient, type ServerEvent } from './ws-client.js';

/** 2.3 s of awb.wav: one turn of speech for sessions whose speaker embedder is scripted. */
export const scriptedTurnSpeech = (): Float32Array => fixtureSamples(loadAudioFixtures().find((f) => f.file === 'awb.wav')!).subarray(0, 16000 * 2.3);

/** `count` turns of {@link scriptedTurnSpeech} in one real-time session; the `transcript.final` of each, and the client after the last. */
export async function scriptedTurns(t: TestApp, sessionId: string, count: number): Promise<{ c: TestWsClient; finals: ServerEvent[] }> {
  const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=${sessionId}`, {}, { pacing: 'realtime', frameMs: 100 });
  await c.next('session.started');
  const finals: ServerEvent[] = [];
  for (let i = 0; i < count; i++) {
    const seen = new Set(finals.map((e) => e.utterance_id));
    await c.speak(scriptedTurnSpeech());
    finals.push(await c.next('transcript.final', (e) => !seen.has(e.utterance_id), 60_000));
  }
  return { c, finals };
}
