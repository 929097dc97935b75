/**
 * The console's AudioWorklet (dist/console/pcm-worklet.js, as the browser loads it) run in a Node vm with the
 * AudioWorkletGlobalScope stubbed: capture-rate audio in 128-sample render quanta, 100 ms frames of 16 kHz
 * pcm_s16le out, speech band kept, what would alias above 8 kHz removed.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import vm from 'node:vm';
import { CONSOLE_DIR } from '../../server/routes/console.js';

type Processor = { process(inputs: Float32Array[][]): boolean; port: { onmessage: ((e: { data: unknown }) => void) | null } };

/** Load the bundled worklet at `rate` Hz; returns the processor and the frames it posts. */
function loadWorklet(rate: number): { proc: Processor; frames: Int16Array[]; messages: unknown[] } {
  const file = path.join(CONSOLE_DIR, 'pcm-worklet.js');
  assert.ok(existsSync(file), `no ${file}: run \`npm run build\``);
  const frames: Int16Array[] = [];
  const messages: unknown[] = [];
  let ctor: (new () => Processor) | undefined;
  class AudioWorkletProcessor {
    port = { onmessage: null, postMessage: (m: unknown) => (typeof m === 'string' ? messages.push(m) : frames.push(new Int16Array(m as ArrayBuffer))) };
  }
  const scope = { sampleRate: rate, AudioWorkletProcessor, registerProcessor: (name: string, c: new () => Processor) => {
    assert.equal(name, 'pcm16k');
    ctor = c;
  } };
  vm.runInNewContext(readFileSync(file, 'utf8'), scope);
  assert.ok(ctor, 'the worklet registers its processor');
  return { proc: new ctor(), frames, messages };
}

/** Feed `seconds` of a sine at `hz` (amplitude 0.5) in render quanta of 128 samples. */
function feedSine(proc: Processor, rate: number, hz: number, seconds: number): void {
  const total = Math.round(rate * seconds);
  for (let start = 0; start < total; start += 128) {
    const block = Float32Array.from({ length: Math.min(128, total - start) }, (_, i) => 0.5 * Math.sin((2 * Math.PI * hz * (start + i)) / rate));
    proc.process([[block]]);
  }
}

const rms = (x: Int16Array, from = 0): number => {
  let s = 0;
  for (let i = from; i < x.length; i++) s += (x[i]! / 32768) ** 2;
  return Math.sqrt(s / (x.length - from));
};

/** Zero crossings per second of a 16 kHz signal: twice its frequency for a sine. */
const crossingsPerSecond = (x: Int16Array, from: number): number => {
  let n = 0;
  for (let i = from + 1; i < x.length; i++) if ((x[i - 1]! < 0) !== (x[i]! < 0)) n++;
  return (n * 16000) / (x.length - from);
};

describe('console AudioWorklet: capture rate → 16 kHz pcm_s16le frames', () => {
  for (const rate of [48_000, 44_100, 16_000]) {
    test(`${rate} Hz: 100 ms frames at 16 kHz, a 440 Hz tone kept in level and pitch`, () => {
      const { proc, frames } = loadWorklet(rate);
      feedSine(proc, rate, 440, 2);
      assert.ok(frames.length >= 19 && frames.length <= 20, `${frames.length} frames for 2 s`);
      assert.ok(frames.every((f) => f.length === 1600), 'every frame is 1600 samples (100 ms)');
      const all = Int16Array.from(frames.flatMap((f) => [...f]));
      const level = rms(all, 800); // past the filter's start-up
      assert.ok(Math.abs(level - 0.5 / Math.SQRT2) < 0.01, `rms ${level}`);
      const hz = crossingsPerSecond(all, 800) / 2;
      assert.ok(Math.abs(hz - 440) < 3, `pitch ${hz} Hz`);
    });
  }

  test('48 kHz: a 12 kHz tone (which would alias to 4 kHz) is removed', () => {
    const { proc, frames } = loadWorklet(48_000);
    feedSine(proc, 48_000, 12_000, 1);
    const all = Int16Array.from(frames.flatMap((f) => [...f]));
    assert.ok(rms(all, 800) < 0.005, `rms ${rms(all, 800)} left of a 0.35 rms tone`);
  });

  test('flush posts the partial last frame, then says so', () => {
    const { proc, frames, messages } = loadWorklet(48_000);
    feedSine(proc, 48_000, 440, 0.05); // 50 ms: no whole frame yet
    assert.equal(frames.length, 0);
    proc.port.onmessage!({ data: 'flush' });
    assert.equal(frames.length, 1);
    assert.ok(Math.abs(frames[0]!.length - 800) <= 1, `${frames[0]!.length} samples`);
    assert.deepEqual(messages, ['flushed']);
  });

  test('a flushed tail shorter than 10 ms is padded with silence to 10 ms (the shortest frame accepted)', () => {
    const { proc, frames } = loadWorklet(48_000);
    feedSine(proc, 48_000, 440, 0.003);
    proc.port.onmessage!({ data: 'flush' });
    assert.equal(frames.length, 1);
    assert.equal(frames[0]!.length, 160);
    assert.equal(frames[0]![159], 0);
  });
});
