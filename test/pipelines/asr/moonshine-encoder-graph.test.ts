import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { encoderCutAfterLayer, encoderWithLayerOutputs, layerOutput } from '../../../pipelines/asr/moonshine-encoder-graph.js';
import { MoonshineEncoder } from '../../../pipelines/asr/moonshine-encoder.js';
import { MOONSHINE_FILES } from '../../../pipelines/asr/moonshine-model.js';
import { modelsDir } from '../../../pipelines/models/repo-root.js';
import { buildTestSpeakerModel } from '../../doubles/onnx-speaker-model.js';

const ENCODER = path.join(modelsDir(), 'moonshine-tiny', MOONSHINE_FILES.encoder);

test('the probe copy of the Moonshine encoder outputs each layer\'s states beside the last hidden state', { skip: existsSync(ENCODER) ? false : `${ENCODER} absent` }, async () => {
  const copy = encoderWithLayerOutputs(ENCODER);
  try {
    assert.equal(copy.layers, 6);
    const encoder = await MoonshineEncoder.load(copy.file);
    try {
      const audio = Float32Array.from({ length: 16_000 }, (_, i) => 0.3 * Math.sin(i / 7));
      const names = [layerOutput(0), layerOutput(5), 'last_hidden_state'];
      const states = await encoder.states(audio, names);
      for (const s of states) assert.deepEqual([s.frames, s.dim, s.data.length], [states[2]!.frames, 288, states[2]!.frames * 288]);
      assert.notDeepEqual(states[0]!.data, states[1]!.data, 'layers differ');
    } finally {
      await encoder.release();
    }
  } finally {
    rmSync(copy.file, { force: true });
  }
});

test('a model without Moonshine layer nodes is refused naming the file', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-layers-'));
  try {
    const file = path.join(dir, 'other.onnx');
    buildTestSpeakerModel(file);
    assert.throws(() => encoderWithLayerOutputs(file), (e: unknown) => e instanceof Error && e.message.includes(file) && e.message.includes('/layers.0/Add_1'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the encoder cut after layer 1 gives layer 1\'s states of the whole encoder, from a smaller model', { skip: existsSync(ENCODER) ? false : `${ENCODER} absent` }, async () => {
  const bytes = readFileSync(ENCODER);
  const cut = encoderCutAfterLayer(bytes, ENCODER, 1);
  assert.equal(cut.output, layerOutput(0));
  assert.ok(cut.bytes.length < bytes.length / 2, `cut ${cut.bytes.length} of ${bytes.length} bytes`);
  const copy = encoderWithLayerOutputs(ENCODER);
  const [full, short] = [await MoonshineEncoder.load(copy.file), await MoonshineEncoder.load(ENCODER, undefined, cut)];
  try {
    const audio = Float32Array.from({ length: 24_000 }, (_, i) => 0.3 * Math.sin(i / 7) * Math.sin(i / 900));
    const [a] = await full.states(audio, [layerOutput(0)]);
    const [b] = await short.states(audio);
    assert.deepEqual([b!.frames, b!.dim], [a!.frames, a!.dim]);
    let worst = 0;
    for (let i = 0; i < a!.data.length; i++) worst = Math.max(worst, Math.abs(a!.data[i]! - b!.data[i]!));
    assert.ok(worst < 1e-4, `largest difference ${worst}`);
  } finally {
    await Promise.all([full.release(), short.release()]);
    rmSync(copy.file, { force: true });
  }
  assert.throws(() => encoderCutAfterLayer(bytes, ENCODER, 7), /cannot cut after layer 7 of 6/);
  assert.throws(() => encoderCutAfterLayer(Buffer.from('not a model'), 'junk.onnx', 1), Error);
});
