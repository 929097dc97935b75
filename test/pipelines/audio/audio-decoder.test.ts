import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ParleyError } from '../../../graph/core/errors.js';
import { AudioDecoder } from '../../../pipelines/audio/audio-decoder.js';
import { AUDIO_ENCODINGS, SAMPLE_RATES, validateStreamFormat, type AudioEncoding, type SampleRate } from '../../../pipelines/audio/audio-format.js';
import { encodeMulaw, encodeS16le } from '../../../pipelines/audio/pcm-codecs.js';

function sine(rate: number, ms: number, hz = 440, amp = 0.5): Float32Array {
  const n = Math.round((rate * ms) / 1000);
  return Float32Array.from({ length: n }, (_, i) => amp * Math.sin((2 * Math.PI * hz * i) / rate));
}

function encode(encoding: AudioEncoding, x: Float32Array): Buffer {
  if (encoding === 'pcm_s16le') return encodeS16le(x);
  if (encoding === 'mulaw') return Buffer.from(encodeMulaw(x));
  return Buffer.from(x.buffer, x.byteOffset, x.byteLength);
}

/** Dominant frequency by counting zero crossings (enough for a pure tone). */
function toneHz(x: Float32Array, rate: number): number {
  let crossings = 0;
  for (let i = 1; i < x.length; i++) if (((x[i - 1] ?? 0) < 0) !== ((x[i] ?? 0) < 0)) crossings++;
  return (crossings / 2) * (rate / x.length);
}

function rms(x: Float32Array): number {
  return Math.sqrt(x.reduce((a, v) => a + v * v, 0) / x.length);
}

describe('validateStreamFormat', () => {
  test('applies defaults and accepts every documented encoding and rate', () => {
    assert.deepEqual(validateStreamFormat({}), { encoding: 'pcm_s16le', sampleRate: 16000, channels: 1 });
    for (const encoding of AUDIO_ENCODINGS) for (const sampleRate of SAMPLE_RATES) {
      assert.equal(validateStreamFormat({ encoding, sampleRate: String(sampleRate) }).sampleRate, sampleRate);
    }
  });

  test('rejects unsupported rate, encoding and channel count with PARLEY_ERR_BAD_AUDIO', () => {
    for (const bad of [{ sampleRate: 22050 }, { encoding: 'opus' }, { channels: 2 }, { sampleRate: 'abc' }]) {
      assert.throws(() => validateStreamFormat(bad), (e: unknown) => e instanceof ParleyError && e.code === 'PARLEY_ERR_BAD_AUDIO');
    }
  });
});

describe('AudioDecoder', () => {
  for (const encoding of AUDIO_ENCODINGS) {
    for (const rate of SAMPLE_RATES) {
      test(`${encoding} at ${rate} Hz decodes to a 16 kHz tone of the same pitch and level`, async () => {
        const decoder = await AudioDecoder.create(validateStreamFormat({ encoding, sampleRate: rate }));
        const input = sine(rate, 1000);
        const out: Float32Array[] = [];
        // 100 ms frames: the resampler state must carry across frame boundaries.
        const frame = rate / 10;
        for (let i = 0; i < input.length; i += frame) out.push(decoder.decode(encode(encoding, input.subarray(i, i + frame))));
        decoder.close();
        const all = Float32Array.from(out.flatMap((c) => [...c]));
        assert.ok(Math.abs(all.length - 16000) < 200, `length ${all.length}`);
        const steady = all.subarray(800, all.length - 800);
        assert.ok(Math.abs(toneHz(steady, 16000) - 440) < 10, `pitch ${toneHz(steady, 16000)}`);
        assert.ok(Math.abs(rms(steady) - 0.5 / Math.SQRT2) < 0.03, `rms ${rms(steady)}`);
        assert.ok(all.every((v) => v >= -1 && v <= 1));
        assert.equal(decoder.samplesOut, all.length);
      });
    }
  }

  const isBadAudio = (e: unknown): boolean => e instanceof ParleyError && e.code === 'PARLEY_ERR_BAD_AUDIO';

  test('rejects frames that are not whole samples, too short or too long, and keeps working', async () => {
    const decoder = await AudioDecoder.create(validateStreamFormat({ encoding: 'pcm_s16le', sampleRate: 16000 }));
    assert.throws(() => decoder.decode(Buffer.alloc(3201)), isBadAudio); // odd byte count
    assert.throws(() => decoder.decode(Buffer.alloc(2 * 159)), isBadAudio); // 9.9 ms
    assert.throws(
      () => decoder.decode(Buffer.alloc(2 * 16001)),
      (e: unknown) => e instanceof ParleyError && e.code === 'PARLEY_ERR_FRAME_TOO_LARGE',
    ); // > 1 s
    assert.equal(decoder.decode(Buffer.alloc(2 * 160)).length, 160); // exactly 10 ms
    assert.equal(decoder.decode(Buffer.alloc(2 * 16000)).length, 16000); // exactly 1 s
  });

  test('rejects NaN and infinite f32le samples', async () => {
    const decoder = await AudioDecoder.create(validateStreamFormat({ encoding: 'f32le', sampleRate: 16000 }));
    for (const bad of [NaN, Infinity, -Infinity]) {
      const x = sine(16000, 20);
      x[7] = bad;
      assert.throws(() => decoder.decode(encode('f32le', x)), isBadAudio);
    }
    assert.throws(() => decoder.decode(Buffer.alloc(4 * 160 + 2)), isBadAudio);
    assert.equal(decoder.decode(encode('f32le', sine(16000, 20))).length, 320);
  });

  test('mu-law silence decodes to zero and full scale stays within [-1, 1]', async () => {
    const decoder = await AudioDecoder.create(validateStreamFormat({ encoding: 'mulaw', sampleRate: 8000 as SampleRate }));
    const silence = decoder.decode(Buffer.alloc(800, 0xff));
    assert.ok(silence.subarray(100).every((v) => Math.abs(v) < 1e-3));
    const loud = decoder.decode(Buffer.from(encodeMulaw(sine(8000, 100, 300, 1))));
    assert.ok(loud.every((v) => Math.abs(v) <= 1));
  });
});
