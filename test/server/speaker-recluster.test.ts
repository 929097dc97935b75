import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { scriptedTurns } from '../helpers/scripted-turns.js';
import { RECLUSTER_SCRIPT, SCRIPTED_DECISION, SCRIPTED_RULES, ScriptedEmbedder } from '../helpers/scripted-speakers.js';
import type { TestWsClient, ServerEvent } from '../helpers/ws-client.js';

/**
 * The end-of-session re-clustering in a live voice session (`PARLEY_SPEAKER_RECLUSTER`, off by default). As in
 * test/server/speaker-revision.test.ts the speaker embedder is scripted (a vector per turn) with a calibrated decision
 * whose LLR is 10·cosine − 5; everything else is the server's own: audio, VAD, ASR, storage, events. The script is
 * `RECLUSTER_SCRIPT` (test/helpers/scripted-speakers.ts): its seventh turn gets an id of its own online, and the
 * re-clustering moves it to the first voice.
 */
const SCRIPT = RECLUSTER_SCRIPT;

async function scriptedApp(recluster: boolean): Promise<TestApp> {
  const t = await startTestApp({
    PARLEY_SPEAKER_RECLUSTER: String(recluster), PARLEY_VOICEPRINTS: 'none', PARLEY_INFERENCE_WORKERS: '1', PARLEY_AUDIO_MAX_QUEUED_MS: '600000',
  });
  Object.assign(t.app.models, { speakerEmbedder: new ScriptedEmbedder(SCRIPT), speakerDecision: SCRIPTED_DECISION, speakerSessionRules: SCRIPTED_RULES, speakerCentroid: null });
  await t.app.models.inference();
  return t;
}

const speakerOf = (f: ServerEvent): string => (f.speaker as { id: string }).id;

/** The script's turns in one session, then its end: the `transcript.final` of each, the client, the stored speakers. */
async function scriptedSession(t: TestApp, sessionId: string): Promise<{ c: TestWsClient; finals: ServerEvent[]; stored: string[] }> {
  const { c, finals } = await scriptedTurns(t, sessionId, SCRIPT.length);
  c.sendJson({ type: 'session.end' });
  await c.next('session.ended', () => true, 60_000);
  const stored = (await t.app.stores.graph.getTranscript('default', sessionId)).map((u) => u.speakerId);
  return { c, finals, stored };
}

describe('end-of-session re-clustering (PARLEY_SPEAKER_RECLUSTER)', () => {
  let on: TestApp;
  let off: TestApp;
  before(async () => {
    on = await scriptedApp(true);
    off = await scriptedApp(false);
  });
  after(async () => {
    await on.close();
    await off.close();
  });

  test('off by default', () => {
    assert.equal(off.config.speakerRecluster, false);
  });

  test('a turn the tracker gave an id of its own moves to the voice it clusters with: stored and told (speaker.revised)', async () => {
    const { c, finals, stored } = await scriptedSession(on, 'recluster-on');
    try {
      const [a, b, x] = [speakerOf(finals[0]!), speakerOf(finals[3]!), speakerOf(finals[6]!)];
      assert.deepEqual(finals.map(speakerOf), [a, a, a, b, b, b, x], 'as first attributed');
      assert.equal(new Set([a, b, x]).size, 3);
      assert.deepEqual(c.events.filter((e) => e.type === 'speaker.merged'), [], 'the id merge keeps the third id apart');
      const told = c.events.filter((e) => e.type === 'speaker.revised').map((e) => [e.utterance_id, e.from, e.into]);
      assert.deepEqual(told, [[finals[6]!.utterance_id, x, a]]);
      assert.deepEqual(stored, [a, a, a, b, b, b, a]);
      assert.deepEqual(c.events.filter((e) => e.type === 'error'), []);
    } finally {
      c.close();
    }
  });

  test('switched off, the same session keeps its three ids', async () => {
    const { c, finals, stored } = await scriptedSession(off, 'recluster-off');
    try {
      assert.deepEqual(c.events.filter((e) => e.type === 'speaker.revised'), []);
      assert.deepEqual(stored, finals.map(speakerOf));
    } finally {
      c.close();
    }
  });
});
