import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { encoderWithLayerOutputs, layerOutput } from '../../bench/lib/moonshine-layers.js';
import { MoonshineEncoder } from '../../pipelines/asr/moonshine-encoder.js';
import { MOONSHINE_FILES } from '../../pipelines/asr/moonshine-model.js';
import { modelsDir } from '../../pipelines/models/repo-root.js';
import { buildTestSpeakerModel } from '../doubles/onnx-speaker-model.js';

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
