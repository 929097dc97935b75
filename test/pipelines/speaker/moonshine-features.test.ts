import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ParleyError } from '../../../graph/core/errors.js';
import { MoonshineEncoder } from '../../../pipelines/asr/moonshine-encoder.js';
import { MOONSHINE_FILES } from '../../../pipelines/asr/moonshine-model.js';
import { fixtureSamples, loadAudioFixtures } from '../../../pipelines/audio/fixtures.js';
import { modelsDir } from '../../../pipelines/models/repo-root.js';
import { MOONSHINE_FRAME_SAMPLES, pooledEncoderStates, voicedFrames } from '../../../pipelines/speaker/moonshine-features.js';

const ENCODER = path.join(modelsDir(), 'moonshine-tiny', MOONSHINE_FILES.encoder);
const SKIP = existsSync(ENCODER) ? false : `${ENCODER} absent: run \`npm run models -- fetch moonshine-tiny\``;

test('voiced frames are those within ~35 dB of the loudest, above an absolute floor', () => {
  const audio = new Float32Array(10 * MOONSHINE_FRAME_SAMPLES);
  // Frames 2–4 loud, frame 6 40 dB down, frame 8 at 20 dB down; the rest digital silence.
  for (const [f, amp] of [[2, 0.5], [3, 0.5], [4, 0.5], [6, 0.005], [8, 0.05]] as const)
    for (let i = 0; i < MOONSHINE_FRAME_SAMPLES; i++) audio[f * MOONSHINE_FRAME_SAMPLES + i] = amp * Math.sin(i / 3);
  assert.deepEqual(voicedFrames(audio, 10), [2, 3, 4, 8]);
  assert.deepEqual(voicedFrames(new Float32Array(10 * MOONSHINE_FRAME_SAMPLES), 10), [], 'silence has no voiced frame');
});

describe('pooled Moonshine encoder states', { skip: SKIP }, () => {
  let encoder: MoonshineEncoder;
  before(async () => {
    encoder = await MoonshineEncoder.load(ENCODER);
  });
  after(async () => {
    await encoder?.release();
  });

  test('a fixture utterance gives mean and std of the 288-wide states (576 values), the same every time', async () => {
    const f = loadAudioFixtures().find((x) => x.file === 'awb.wav')!;
    const u = f.utterances[1]!;
    const audio = fixtureSamples(f).subarray(u.start_ms * 16, u.end_ms * 16);
    const a = await pooledEncoderStates(encoder, audio);
    const b = await pooledEncoderStates(encoder, audio);
    assert.ok(a && b);
    assert.equal(a.length, 576);
    assert.ok(a.every(Number.isFinite));
    assert.ok(a.subarray(288).every((x) => x >= 0), 'standard deviations are not negative');
    assert.ok(a.subarray(288).some((x) => x > 0));
    assert.deepEqual(a, b);
  });

  test('silence and a turn shorter than 0.3 s of voiced frames give null', async () => {
    assert.equal(await pooledEncoderStates(encoder, new Float32Array(16_000)), null);
    const f = loadAudioFixtures().find((x) => x.file === 'awb.wav')!;
    const u = f.utterances[0]!;
    assert.equal(await pooledEncoderStates(encoder, fixtureSamples(f).subarray(u.start_ms * 16, u.start_ms * 16 + 3200)), null);
  });

  test('a file that is not a Moonshine encoder is refused naming the file', async () => {
    const decoder = path.join(path.dirname(ENCODER), MOONSHINE_FILES.decoder);
    await assert.rejects(MoonshineEncoder.load(decoder), (e: unknown) =>
      e instanceof ParleyError && e.code === 'PARLEY_ERR_MODEL_MISSING' && e.message.includes(decoder) && e.message.includes('not a Moonshine ONNX encoder'));
  });
});
