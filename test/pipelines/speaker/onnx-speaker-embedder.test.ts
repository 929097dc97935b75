import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { Piscina } from 'piscina';
import { ParleyError } from '../../../graph/core/errors.js';
import type { EmbedRequest, EmbedResponse } from '../../../pipelines/speaker/onnx-embed-worker.js';
import { OnnxSpeakerEmbedder } from '../../../pipelines/speaker/onnx-speaker-embedder.js';
import { cosine } from '../../../pipelines/speaker/speaker-embedder.js';
import { buildTestSpeakerModel, TEST_SPEAKER_DIM } from '../../doubles/onnx-speaker-model.js';

const DIM = TEST_SPEAKER_DIM;
const buildTestModel = buildTestSpeakerModel;

/** A voiced test signal: harmonics of f0 with a formant-like tilt, plus a little noise. */
function voice(f0: number, seconds: number, tilt: number): Float32Array {
  const a = new Float32Array(Math.round(seconds * 16000));
  let seed = 1;
  for (let i = 0; i < a.length; i++) {
    let s = 0;
    for (let h = 1; h <= 20; h++) s += Math.sin((2 * Math.PI * f0 * h * i) / 16000) / h ** tilt;
    seed = (seed * 16807) % 2147483647;
    a[i] = 0.1 * s + 0.002 * (seed / 2147483647 - 0.5);
  }
  return a;
}

describe('OnnxSpeakerEmbedder plumbing with a test-built ONNX model (variance-pool + MatMul, not pretrained)', () => {
  let dir = '';
  let modelPath = '';
  before(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'parley-onnx-spk-'));
    modelPath = path.join(dir, 'test-spk', 'model.onnx');
    mkdirSync(path.dirname(modelPath), { recursive: true });
    buildTestModel(modelPath);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('embeds to an L2-normalised vector of the model dimension, deterministic', async () => {
    const e = await OnnxSpeakerEmbedder.create({ modelPath });
    try {
      assert.equal(e.dimension, DIM);
      assert.equal(e.modelId, 'test-spk');
      const a = await e.embed(voice(120, 1, 1));
      const norm = Math.sqrt(a.reduce((s, x) => s + x * x, 0));
      assert.ok(Math.abs(norm - 1) < 1e-5);
      assert.deepEqual(Array.from(await e.embed(voice(120, 1, 1))), Array.from(a));
      // Different spectra give different vectors; mean normalisation makes loudness irrelevant.
      assert.ok(cosine(a, await e.embed(voice(220, 1, 2))) < 0.9999);
      const louder = Float32Array.from(voice(120, 1, 1), (x) => x * 3);
      assert.ok(cosine(a, await e.embed(louder)) > 0.999);
    } finally {
      await e.close();
    }
  });

  test('too-short audio is PARLEY_ERR_BAD_AUDIO', async () => {
    const e = await OnnxSpeakerEmbedder.create({ modelPath });
    await assert.rejects(e.embed(new Float32Array(1600)), (err: unknown) => err instanceof ParleyError && err.code === 'PARLEY_ERR_BAD_AUDIO');
    await e.close();
  });

  test('a missing model is PARLEY_ERR_MODEL_MISSING naming the fetch command', async () => {
    await assert.rejects(
      OnnxSpeakerEmbedder.create({ modelPath: path.join(dir, 'wespeaker-resnet34', 'model.onnx') }),
      (err: unknown) => err instanceof ParleyError && err.code === 'PARLEY_ERR_MODEL_MISSING' && err.message.includes('npm run models -- fetch wespeaker-resnet34'),
    );
  });

  test('runs in worker threads through a Piscina pool with the worker entry', async () => {
    const filename = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../pipelines/speaker/onnx-embed-worker.js');
    const pool = new Piscina<EmbedRequest, EmbedResponse>({ filename, maxThreads: 2, minThreads: 2 });
    try {
      const direct = await OnnxSpeakerEmbedder.create({ modelPath });
      const expected = await direct.embed(voice(150, 1, 1.5));
      await direct.close();
      const replies = await Promise.all([0, 1, 2, 3].map(() => {
        const audio = voice(150, 1, 1.5);
        return pool.run({ model: { modelPath }, audio }, { transferList: [audio.buffer as ArrayBuffer] });
      }));
      for (const r of replies) {
        assert.equal(r.modelId, 'test-spk');
        assert.ok(cosine(r.embedding, expected) > 0.99999);
      }
    } finally {
      await pool.destroy();
    }
  });
});
