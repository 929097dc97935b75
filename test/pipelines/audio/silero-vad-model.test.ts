import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ParleyError } from '../../../graph/core/errors.js';
import { SILERO_WINDOW_SAMPLES, SileroVadModel, sileroModelPath, type SileroFeed } from '../../../pipelines/audio/silero-vad-model.js';
import { CONDITIONS, degrade, librispeechDir, speakerMixture, type Mixture } from '../../../bench/lib/room-audio.js';

const dir = librispeechDir();
const skip = dir ? false : 'needs ../shared/data/speech/librispeech-test-other-10 (real speech); not found';

async function probs(model: SileroVadModel, x: Float32Array): Promise<number[]> {
  const st = model.createState();
  const out: number[] = [];
  for (let i = 0; i + SILERO_WINDOW_SAMPLES <= x.length; i += SILERO_WINDOW_SAMPLES) {
    st.window.set(x.subarray(i, i + SILERO_WINDOW_SAMPLES));
    out.push(await model.predict(st));
  }
  return out;
}

function recall(m: Mixture, p: number[]): { recall: number; falseAlarm: number } {
  let hit = 0, speech = 0, fa = 0, silence = 0;
  p.forEach((v, k) => {
    if (m.speech[k]) { speech++; if (v >= 0.5) hit++; } else { silence++; if (v >= 0.5) fa++; }
  });
  return { recall: hit / speech, falseAlarm: fa / silence };
}

describe('SileroVadModel on real speech', { skip }, () => {
  const models = new Map<SileroFeed, SileroVadModel>();
  let mix: Mixture;
  before(async () => {
    models.set('context', await SileroVadModel.load());
    models.set('bare', await SileroVadModel.load(undefined, 'bare'));
    mix = speakerMixture(dir ?? '', '1688', 1, 4);
  });
  after(async () => { for (const m of models.values()) await m.close(); });

  test('the v5 file is detected as v5', () => {
    assert.equal(models.get('context')?.version, 'v5');
  });

  test('far-field speech: the 64-sample context finds clearly more speech than bare windows', async () => {
    const farField = CONDITIONS.find((c) => c.name.startsWith('far-field'));
    assert.ok(farField);
    const x = await degrade(mix, farField, 11);
    const withContext = recall(mix, await probs(models.get('context')!, x));
    const bare = recall(mix, await probs(models.get('bare')!, x));
    assert.ok(withContext.recall >= bare.recall + 0.05, `context ${withContext.recall.toFixed(3)} vs bare ${bare.recall.toFixed(3)}`);
    assert.ok(withContext.recall >= 0.65, `context recall ${withContext.recall.toFixed(3)}`);
    assert.ok(withContext.falseAlarm <= 0.1, `false alarm ${withContext.falseAlarm.toFixed(3)}`);
  });

  test('streams keep their own context and state: interleaving two streams changes nothing', async () => {
    const m = models.get('context')!;
    const x = mix.clean.subarray(0, 16000 * 6);
    const y = mix.clean.subarray(16000 * 6, 16000 * 12);
    const alone = await probs(m, x);
    const a = m.createState(), b = m.createState();
    const interleaved: number[] = [];
    for (let i = 0; i + SILERO_WINDOW_SAMPLES <= x.length; i += SILERO_WINDOW_SAMPLES) {
      a.window.set(x.subarray(i, i + SILERO_WINDOW_SAMPLES));
      interleaved.push(await m.predict(a));
      b.window.set(y.subarray(i, i + SILERO_WINDOW_SAMPLES));
      await m.predict(b);
    }
    assert.deepEqual(interleaved, alone);
  });

  test('the v4 file (bare windows, h/c state) is detected and finds speech', async () => {
    const v4 = await SileroVadModel.load(sileroModelPath('silero-v4'));
    try {
      assert.equal(v4.version, 'v4');
      const r = recall(mix, await probs(v4, mix.clean));
      assert.ok(r.recall >= 0.55, `v4 recall ${r.recall.toFixed(3)}`);
      assert.ok(r.falseAlarm <= 0.05, `v4 false alarm ${r.falseAlarm.toFixed(3)}`);
    } finally {
      await v4.close();
    }
  });
});

test('a missing or foreign model file is PARLEY_ERR_MODEL_MISSING', async () => {
  await assert.rejects(SileroVadModel.load('/nonexistent/silero.onnx'),
    (e: unknown) => e instanceof ParleyError && e.code === 'PARLEY_ERR_MODEL_MISSING');
});
