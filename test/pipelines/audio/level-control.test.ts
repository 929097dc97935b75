import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { StreamingAsr } from '../../../pipelines/asr/streaming-asr.js';
import { fixtureSamples, loadAudioFixtures } from '../../../pipelines/audio/fixtures.js';
import { LevelControl, resolveLevelControlOptions } from '../../../pipelines/audio/level-control.js';
import { SileroVadModel } from '../../../pipelines/audio/silero-vad-model.js';
import { SpeechPipeline } from '../../../pipelines/audio/speech-pipeline.js';
import type { GainControlMode } from '../../../pipelines/audio/vad-options.js';
import { seededRandom } from '../../../bench/lib/seeded-random.js';

const dbfs = (x: Float32Array): number => 10 * Math.log10(x.reduce((a, v) => a + v * v, 0) / x.length + 1e-20);
const scaled = (x: Float32Array, db: number): Float32Array => x.map((v) => v * 10 ** (db / 20));

/** Gaussian-ish white noise at about `levelDbfs` RMS, seeded. */
function noise(n: number, levelDbfs: number, seed: number): Float32Array {
  const r = seededRandom(seed);
  const a = 10 ** (levelDbfs / 20) * Math.sqrt(3);
  return Float32Array.from({ length: n }, () => (2 * r() - 1) * a);
}

/** A 200 Hz tone in bursts (1 s on, 1 s off) at `levelDbfs` while on. */
function bursts(seconds: number, levelDbfs: number): Float32Array {
  const a = 10 ** (levelDbfs / 20) * Math.SQRT2;
  return Float32Array.from({ length: seconds * 16000 }, (_, i) => (Math.floor(i / 16000) % 2 === 0 ? a * Math.sin((2 * Math.PI * 200 * i) / 16000) : 0));
}

describe('LevelControl', () => {
  test('options: defaults and range checks', () => {
    assert.deepEqual(resolveLevelControlOptions(), { targetDbfs: -20, maxGainDb: 30, releaseS: 2, noiseCapDbfs: null, sampleRate: 16000 });
    assert.throws(() => new LevelControl({ maxGainDb: -1 }), RangeError);
    assert.throws(() => new LevelControl({ targetDbfs: 3 }), RangeError);
    assert.throws(() => new LevelControl({ releaseS: 0 }), RangeError);
    assert.throws(() => new LevelControl({ noiseCapDbfs: 5 }), RangeError);
  });

  test('the gain is bounded: a very quiet tone gets at most maxGainDb, loud audio is never attenuated', () => {
    const quiet = bursts(6, -80);
    const agc = new LevelControl({ maxGainDb: 30, noiseCapDbfs: null });
    const y = agc.process(quiet);
    for (let i = 0; i < quiet.length; i++) assert.ok(Math.abs(y[i]!) <= Math.abs(quiet[i]!) * 10 ** (30 / 20) * (1 + 1e-6));
    assert.ok(Math.abs(dbfs(y.subarray(0, 16000)) - (-50)) < 1, `tone at ${dbfs(y.subarray(0, 16000)).toFixed(1)} dBFS`);
    const loud = bursts(4, -6);
    const z = new LevelControl().process(loud);
    for (let i = 0; i < loud.length; i++) assert.ok(Math.abs(z[i]!) >= Math.abs(loud[i]!) * (1 - 1e-6) || Math.abs(z[i]!) === 1);
    assert.ok(z.every((v) => v >= -1 && v <= 1));
  });

  test('quiet speech-level bursts are brought near the target', () => {
    const x = bursts(8, -45);
    const y = new LevelControl().process(x);
    const lastOn = y.subarray(6 * 16000, 7 * 16000);
    assert.ok(Math.abs(dbfs(lastOn) - (-20)) <= 3, `bursts at ${dbfs(lastOn).toFixed(1)} dBFS`);
  });

  test('with the noise gate, steady noise and silence are not raised to speech level', () => {
    const hiss = noise(16000 * 8, -62, 3);
    const gated = new LevelControl({ noiseCapDbfs: -50 }).process(hiss);
    assert.ok(dbfs(gated.subarray(16000)) <= -48, `gated noise at ${dbfs(gated.subarray(16000)).toFixed(1)} dBFS`);
    // Without the gate the same noise is pulled up by the full gain: the gate is what keeps it down.
    const ungated = new LevelControl({ noiseCapDbfs: null }).process(hiss);
    assert.ok(dbfs(ungated.subarray(16000)) >= -35, `ungated noise at ${dbfs(ungated.subarray(16000)).toFixed(1)} dBFS`);
    const silence = new LevelControl({ noiseCapDbfs: -50 }).process(new Float32Array(16000));
    assert.ok(silence.every((v) => v === 0));
  });

  test('the default (no gate): silence stays silent, steady noise is raised by at most the largest gain', () => {
    assert.ok(new LevelControl().process(new Float32Array(16000)).every((v) => v === 0));
    const hiss = noise(16000 * 8, -62, 3);
    const y = new LevelControl().process(hiss);
    assert.ok(dbfs(y.subarray(16000)) <= -62 + 30 + 0.5, `noise at ${dbfs(y.subarray(16000)).toFixed(1)} dBFS`);
    // What the gate is for: ungated, noise 25 dB below the target is raised to about the target.
    const louder = new LevelControl().process(noise(16000 * 8, -45, 4));
    assert.ok(dbfs(louder.subarray(16000)) >= -26, `noise at ${dbfs(louder.subarray(16000)).toFixed(1)} dBFS`);
  });

  test('with the gate, noise stays low between quiet speech bursts', () => {
    const x = bursts(10, -45);
    const hiss = noise(x.length, -70, 5);
    for (let i = 0; i < x.length; i++) x[i] = x[i]! + hiss[i]!;
    const y = new LevelControl({ noiseCapDbfs: -50 }).process(x);
    const pause = y.subarray(Math.round(9.3 * 16000), Math.round(9.9 * 16000));
    assert.ok(dbfs(pause) <= -48, `noise in a pause at ${dbfs(pause).toFixed(1)} dBFS`);
  });

  test('causal: output up to sample n is unchanged by any change after n, and by how the input is chunked', () => {
    const x = noise(16000 * 3, -40, 7);
    for (let i = 16000; i < 32000; i++) x[i] = x[i]! * 20;
    const whole = new LevelControl().process(x);
    for (const n of [1, 511, 512, 16000, 20000, 40001]) {
      const changed = Float32Array.from(x);
      changed.set(noise(x.length - n, -6, n), n);
      const y = new LevelControl().process(changed);
      assert.deepEqual(y.subarray(0, n), whole.subarray(0, n), `differs before sample ${n}`);
    }
    const agc = new LevelControl();
    const parts: Float32Array[] = [];
    const r = seededRandom(9);
    for (let i = 0; i < x.length;) { const len = 1 + Math.floor(r() * 3000); parts.push(agc.process(x.subarray(i, i + len))); i += len; }
    assert.deepEqual(Float32Array.from(parts.flatMap((p) => [...p])), whole);
  });

  test('state is per stream: interleaving two streams gives what each gives alone', () => {
    const a = bursts(4, -45), b = noise(16000 * 4, -30, 11);
    const aloneA = new LevelControl().process(a), aloneB = new LevelControl().process(b);
    const ca = new LevelControl(), cb = new LevelControl();
    const outA: number[] = [], outB: number[] = [];
    for (let i = 0; i < a.length; i += 512) {
      outA.push(...ca.process(a.subarray(i, i + 512)));
      outB.push(...cb.process(b.subarray(i, i + 512)));
    }
    assert.deepEqual(Float32Array.from(outA), aloneA);
    assert.deepEqual(Float32Array.from(outB), aloneB);
  });
});

describe('SpeechPipeline with gain control (real Silero VAD)', () => {
  let vad: SileroVadModel;
  before(async () => { vad = await SileroVadModel.load(); });
  after(async () => { await vad.close(); });

  /** A recogniser double (the VAD is what is under test): returns how many samples each turn got and their peak. */
  const counting: StreamingAsr = {
    name: 'counting double', producesPartials: false, close: async () => {},
    startTurn: () => {
      let n = 0, peak = 0;
      return {
        accept: (s: Float32Array) => { n += s.length; for (const v of s) peak = Math.max(peak, Math.abs(v)); return undefined; },
        flush: () => undefined, abort: () => {},
        finish: async () => ({ text: `${n} ${peak}`, confidence: 1 }),
      };
    },
  };

  async function turns(samples: Float32Array, gainControl: GainControlMode): Promise<{ started: number; peaks: number[] }> {
    const events: { type: string; text?: string }[] = [];
    const p = new SpeechPipeline(vad, counting, (e) => events.push(e), { vad: { gainControl } });
    for (let i = 0; i < samples.length; i += 1600) await p.process(samples.subarray(i, i + 1600), i);
    p.commit();
    await new Promise((r) => setImmediate(r));
    return { started: events.filter((e) => e.type === 'speech_started').length,
      peaks: events.filter((e) => e.type === 'final').map((e) => Number(e.text?.split(' ')[1])) };
  }

  const fixture = loadAudioFixtures().find((f) => f.file === 'awb.wav')!;

  // Measured: 35 dB down the fixture is still found without gain control (3 of 3 turns); 55 dB down it is not.
  test('a fixture 35 dB down: found with and without gain control', async () => {
    const quiet = scaled(fixtureSamples(fixture), -35);
    assert.equal((await turns(quiet, 'off')).started, fixture.utterances.length);
    assert.equal((await turns(quiet, 'vad')).started, fixture.utterances.length);
  });

  test('a fixture 55 dB down: every utterance is a turn with gain control, none without', async () => {
    const quiet = scaled(fixtureSamples(fixture), -55);
    const off = await turns(quiet, 'off');
    const on = await turns(quiet, 'vad');
    assert.equal(off.started, 0, `without gain control ${off.started} turns`);
    assert.equal(on.started, fixture.utterances.length, `with gain control ${on.started} turns of ${fixture.utterances.length} utterances`);
  });

  test('`vad` leaves the recogniser\'s audio as it was; `vad+asr` gives it the gained audio', async () => {
    const quiet = scaled(fixtureSamples(fixture), -35);
    const peak = quiet.reduce((a, v) => Math.max(a, Math.abs(v)), 0);
    const vadOnly = await turns(quiet, 'vad');
    const both = await turns(quiet, 'vad+asr');
    assert.ok(vadOnly.peaks.length > 0 && vadOnly.peaks.every((p) => p <= peak));
    assert.ok(both.peaks.length > 0 && both.peaks.every((p) => p > peak * 10), `peaks ${both.peaks.join(', ')} vs input ${peak}`);
  });

  test('the fixture at its own level: the same turns with and without gain control', async () => {
    const x = fixtureSamples(fixture);
    assert.equal((await turns(x, 'vad')).started, (await turns(x, 'off')).started);
  });
});
