import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { MOONSHINE_FILES } from '../../pipelines/asr/moonshine-model.js';
import { fixtureSamples, loadAudioFixtures } from '../../pipelines/audio/fixtures.js';
import { modelsDir } from '../../pipelines/models/repo-root.js';
import { appForSuite, startVoiceTestApp } from '../helpers/app.js';
import { TestWsClient, type ServerEvent } from '../helpers/ws-client.js';

const MODELS = modelsDir();
const SKIP = existsSync(path.join(MODELS, 'moonshine-tiny', MOONSHINE_FILES.encoder))
  ? false : `${MODELS}/moonshine-tiny absent: run \`npm run models -- fetch moonshine-tiny\` (scripts/setup.sh does)`;

/**
 * A live WebSocket session with PARLEY_SPEAKER_EMBEDDER=moonshine-l1 (the default recogniser): the speaker ids of
 * the finals come from the Moonshine-tiny layer-1 embedder and its own calibrated thresholds and decision.
 */
describe('voice over WebSocket with PARLEY_SPEAKER_EMBEDDER=moonshine-l1', { skip: SKIP }, () => {
  const t = appForSuite(() => startVoiceTestApp({ PARLEY_SPEAKER_EMBEDDER: 'moonshine-l1', MODELS_DIR: MODELS }));

  test('one voice one speaker id, another voice another; voiceprints stored under moonshine-l1-v2', async () => {
    assert.equal(t.app.models.speakerEmbedder.modelId, 'moonshine-l1-v2');
    assert.equal(t.app.models.speakerDecision?.modelId, 'moonshine-l1-v2', 'its own calibrated decision');
    const fixtures = loadAudioFixtures();
    const awb = fixtures.find((f) => f.file === 'awb.wav')!;
    const slt = fixtures.find((f) => f.file === 'slt.wav')!;
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=ml1-1&sample_rate=16000&encoding=pcm_s16le`, {}, { pacing: 'realtime', frameMs: 100, speed: 1 });
    await c.next('session.started');
    const finalsOf = (): ServerEvent[] => c.events.filter((e) => e.type === 'transcript.final');
    await c.speak(fixtureSamples(awb));
    for (let i = 0; i < 600 && finalsOf().length < awb.utterances.length; i++) await new Promise((r) => setTimeout(r, 100));
    await c.speak(fixtureSamples(slt));
    const expected = awb.utterances.length + slt.utterances.length;
    for (let i = 0; i < 600 && finalsOf().length < expected; i++) await new Promise((r) => setTimeout(r, 100));
    const finals = finalsOf();
    assert.deepEqual(c.events.filter((e) => e.type === 'error'), []);
    assert.equal(finals.length, expected);
    const ids = finals.map((f) => (f.speaker as { id: string }).id);
    assert.ok(ids.every((id) => typeof id === 'string' && id.length > 0), 'every final has a speaker id');
    const awbIds = new Set(ids.slice(0, awb.utterances.length));
    assert.equal(awbIds.size, 1, `one voice, one id: ${ids.join(' ')}`);
    // The new voice founds its own id. Its first turn may still go to the voice just heard: the decision calibrated
    // for this embedder on the training speakers gives the previous speaker a strong prior (logPriorPrevious 3).
    assert.ok(!awbIds.has(ids.at(-1)!), `another voice, another id by its last turn: ${ids.join(' ')}`);
    assert.equal(new Set(ids).size, 2, `two voices, two ids: ${ids.join(' ')}`);
    c.sendJson({ type: 'session.end' });
    await c.next('session.ended', () => true, 60_000);
    const prints = await t.app.stores.voiceprints.list('default');
    assert.equal(prints.length, 2);
    assert.ok(prints.every((p) => p.modelId === 'moonshine-l1-v2'), 'voiceprints carry the embedder\'s model id');
    assert.deepEqual(await t.app.stores.voiceprints.list('default', 'stats-lda-v2'), [], 'not compared with another embedder\'s');
  });
});
