import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ParleyError } from '../../../graph/core/errors.js';
import { MOONSHINE_FILES } from '../../../pipelines/asr/moonshine-model.js';
import { fixtureSamples, loadAudioFixtures } from '../../../pipelines/audio/fixtures.js';
import { modelsDir } from '../../../pipelines/models/repo-root.js';
import {
  loadMoonshineL1Params, MOONSHINE_L1_ID, MoonshineL1SpeakerEmbedder, moonshineL1ParamsPath,
} from '../../../pipelines/speaker/moonshine-l1-speaker-embedder.js';
import { cosine } from '../../../pipelines/speaker/speaker-embedder.js';
import { ECAPA_THRESHOLDS, thresholdsFor } from '../../../pipelines/speaker/speaker-thresholds.js';
import { loadConfig } from '../../../server/config.js';
import { createSpeakerEmbedder } from '../../../server/plugins/models.js';

const MODELS = modelsDir();
const ENCODER = path.join(MODELS, 'moonshine-tiny', MOONSHINE_FILES.encoder);
const SKIP = existsSync(ENCODER) ? false : `${ENCODER} absent: run \`npm run models -- fetch moonshine-tiny\``;
const FETCH = 'npm run models -- fetch moonshine-tiny';

/** Utterance `n` of fixture `file` (16 kHz). */
function utterance(file: string, n: number): Float32Array {
  const f = loadAudioFixtures().find((x) => x.file === file)!;
  const u = f.utterances[n]!;
  return fixtureSamples(f).subarray(u.start_ms * 16, u.end_ms * 16);
}

test('PARLEY_SPEAKER_EMBEDDER takes moonshine-l1; the default stays stats-lda; an unknown name is refused', () => {
  assert.equal(loadConfig({ PARLEY_SPEAKER_EMBEDDER: 'moonshine-l1' }).speakerEmbedder, 'moonshine-l1');
  assert.equal(loadConfig({}).speakerEmbedder, 'stats-lda');
  assert.throws(() => loadConfig({ PARLEY_SPEAKER_EMBEDDER: 'moonshine-l2' }), /PARLEY_SPEAKER_EMBEDDER/);
});

test('the shipped projection is for moonshine-l1-v2, 576 features, with a back end and calibrated thresholds of its own', () => {
  const p = loadMoonshineL1Params();
  assert.equal(p.modelId, MOONSHINE_L1_ID);
  assert.equal(p.mean.length, 576);
  assert.ok(p.backEnd, 'centred by scripts/train-speaker-embedder.ts --features moonshine-l1');
  assert.ok(p.projection.length >= 2 && p.projection.length <= 24);
  assert.ok(p.thresholds, 'calibrated by scripts/calibrate-speaker.ts --features moonshine-l1');
  assert.deepEqual(thresholdsFor(MOONSHINE_L1_ID), p.thresholds);
  assert.notDeepEqual(thresholdsFor(MOONSHINE_L1_ID), ECAPA_THRESHOLDS);
});

test('a projection file of the wrong shape or for another embedder is refused, naming why', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-ml1-params-'));
  try {
    const good = JSON.parse(readFileSync(moonshineL1ParamsPath(), 'utf8')) as { mean: number[]; modelId: string };
    const short = path.join(dir, 'short.json');
    writeFileSync(short, JSON.stringify({ ...good, mean: good.mean.slice(0, 76) }));
    assert.throws(() => loadMoonshineL1Params(short), /576 features/);
    const other = path.join(dir, 'other.json');
    writeFileSync(other, JSON.stringify({ ...good, modelId: 'stats-lda-v2' }));
    assert.throws(() => loadMoonshineL1Params(other), /calibrated for stats-lda-v2/);
    assert.throws(() => loadMoonshineL1Params(path.join(dir, 'absent.json')), /train-speaker-embedder/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

describe('moonshine-l1 start-up errors name the fetch command', () => {
  let root = '';
  before(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'parley-ml1-models-'));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  const refusedNaming = (what: RegExp) => (e: unknown): boolean =>
    e instanceof ParleyError && e.code === 'PARLEY_ERR_MODEL_MISSING' && e.message.includes(FETCH) && what.test(e.message);

  test('no moonshine-tiny in MODELS_DIR', async () => {
    await assert.rejects(createSpeakerEmbedder(loadConfig({ PARLEY_SPEAKER_EMBEDDER: 'moonshine-l1', MODELS_DIR: root })), refusedNaming(/not found/));
  });

  test('an encoder file that is not the fetched one (stand-in bytes, one byte flipped)', { skip: SKIP }, async () => {
    const standIn = path.join(root, 'stand-in');
    mkdirSync(path.join(standIn, 'moonshine-tiny'), { recursive: true });
    writeFileSync(path.join(standIn, 'moonshine-tiny', MOONSHINE_FILES.encoder), 'x');
    await assert.rejects(MoonshineL1SpeakerEmbedder.create(standIn), refusedNaming(/damaged/));
    const flipped = path.join(root, 'flipped');
    mkdirSync(path.join(flipped, 'moonshine-tiny'), { recursive: true });
    const bytes = readFileSync(ENCODER);
    bytes[bytes.length >> 1] = bytes[bytes.length >> 1]! ^ 0xff;
    writeFileSync(path.join(flipped, 'moonshine-tiny', MOONSHINE_FILES.encoder), bytes);
    await assert.rejects(MoonshineL1SpeakerEmbedder.create(flipped), refusedNaming(/damaged.*pinned SHA-256/));
  });
});

describe('the moonshine-l1 embedder on fixture voices', { skip: SKIP }, () => {
  let e: MoonshineL1SpeakerEmbedder;
  before(async () => {
    e = (await createSpeakerEmbedder(loadConfig({ PARLEY_SPEAKER_EMBEDDER: 'moonshine-l1', MODELS_DIR: MODELS }))) as MoonshineL1SpeakerEmbedder;
  });
  after(async () => {
    await e?.close();
  });

  test('an utterance gives a unit vector of the projection\'s dimension, the same every time', async () => {
    assert.ok(e instanceof MoonshineL1SpeakerEmbedder);
    assert.equal(e.modelId, MOONSHINE_L1_ID);
    const audio = utterance('awb.wav', 1);
    const [a, b] = [await e.embed(audio), await e.embed(audio)];
    assert.equal(a.length, e.dimension);
    assert.ok(Math.abs(cosine(a, a) - 1) < 1e-5 && Math.abs(Math.hypot(...a) - 1) < 1e-5);
    assert.deepEqual(a, b);
  });

  test('the same voice is closer than other voices', async () => {
    const awb = [await e.embed(utterance('awb.wav', 0)), await e.embed(utterance('awb.wav', 1))];
    const same = cosine(awb[0]!, awb[1]!);
    for (const other of ['slt.wav', 'rms.wav', 'kal16.wav']) {
      const o = await e.embed(utterance(other, 0));
      assert.ok(same > cosine(awb[0]!, o) && same > cosine(awb[1]!, o), `awb–awb ${same} vs awb–${other} ${cosine(awb[0]!, o)}, ${cosine(awb[1]!, o)}`);
    }
  });

  test('silence or a blip is refused as bad audio', async () => {
    await assert.rejects(e.embed(new Float32Array(16_000)), (x: unknown) => x instanceof ParleyError && x.code === 'PARLEY_ERR_BAD_AUDIO');
    await assert.rejects(e.embed(utterance('awb.wav', 0).subarray(0, 2400)), (x: unknown) => x instanceof ParleyError && x.code === 'PARLEY_ERR_BAD_AUDIO');
  });
});
