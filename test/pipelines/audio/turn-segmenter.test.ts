import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TurnSegmenter, type SegmentEvent } from '../../../pipelines/audio/turn-segmenter.js';
import { resolveVadOptions } from '../../../pipelines/audio/vad-options.js';

/** Feed a probability per 32 ms window; returns the events with their window index. */
function run(seg: TurnSegmenter, probs: number[]): { i: number; ev: SegmentEvent }[] {
  const out: { i: number; ev: SegmentEvent }[] = [];
  probs.forEach((p, i) => {
    const ev = seg.push(p, i * 32, (i + 1) * 32);
    if (ev) out.push({ i, ev });
  });
  return out;
}

const opts = resolveVadOptions({ minSpeechMs: 96, endSilenceMs: 320, positiveThreshold: 0.6, negativeThreshold: 0.3 });

test('a turn starts after minSpeechMs of speech and ends after endSilenceMs of silence', () => {
  const probs = [0, 0, 0.9, 0.9, 0.9, 0.9, 0.5, 0.9, ...Array(12).fill(0.1)];
  const evs = run(new TurnSegmenter(opts), probs);
  assert.deepEqual(evs.map((e) => e.ev.type), ['start', 'pause', 'stop']);
  assert.deepEqual(evs[0]?.ev, { type: 'start', onsetMs: 64 });
  // Silence from window 8 (256 ms), reported at once as a pause; 10 windows = 320 ms later the
  // decision falls at 576 ms.
  assert.deepEqual(evs[1], { i: 8, ev: { type: 'pause', silenceFromMs: 256 } });
  assert.deepEqual(evs[2]?.ev, { type: 'stop', speechEndMs: 256, decidedAtMs: 576, reason: 'silence' });
});

test('each pause inside a turn is reported once, when its silence begins', () => {
  // speech, a short pause (3 windows), speech again, then the closing silence.
  const probs = [0.9, 0.9, 0.9, 0.9, 0.1, 0.1, 0.1, 0.9, 0.9, ...Array(12).fill(0.1)];
  const evs = run(new TurnSegmenter(opts), probs);
  assert.deepEqual(evs.map((e) => `${e.ev.type}@${e.i}`), ['start@2', 'pause@4', 'pause@9', 'stop@18']);
});

test('short blips below minSpeechMs and hysteresis-band dips do not start or end turns', () => {
  assert.equal(run(new TurnSegmenter(opts), [0.9, 0.9, 0.1, 0.1, 0.1, 0.9, 0.1, 0, 0]).length, 0);
  // A single weak window inside a word does not abandon the onset.
  assert.deepEqual(run(new TurnSegmenter(opts), [0, 0.9, 0.1, 0.9, 0.9])[0]?.ev, { type: 'start', onsetMs: 32 });
  // In a turn, windows between the thresholds neither count as silence nor reset it.
  const evs = run(new TurnSegmenter(opts), [0.9, 0.9, 0.9, ...Array(20).fill(0.45)]);
  assert.deepEqual(evs.map((e) => e.ev.type), ['start']);
});

test('commit ends an open turn and is a no-op otherwise', () => {
  const seg = new TurnSegmenter(opts);
  assert.equal(seg.commit(100), undefined);
  run(seg, [0.9, 0.9, 0.9, 0.9]);
  assert.equal(seg.inSpeech, true);
  assert.deepEqual(seg.commit(128), { type: 'stop', speechEndMs: 128, decidedAtMs: 128, reason: 'commit' });
  assert.equal(seg.inSpeech, false);
});

test('maxTurnMs ends a turn that never pauses', () => {
  const evs = run(new TurnSegmenter(resolveVadOptions({ ...opts, maxTurnMs: 640 })), Array(40).fill(0.9));
  assert.equal(evs.filter((e) => e.ev.type === 'stop' && e.ev.reason === 'max_turn').length >= 1, true);
});

test('invalid options are rejected', () => {
  assert.throws(() => resolveVadOptions({ positiveThreshold: 0.2, negativeThreshold: 0.5 }), RangeError);
  assert.throws(() => resolveVadOptions({ endSilenceMs: -1 }), RangeError);
});

test('the offset threshold follows the onset threshold (0.15 below, not under 0) unless set', () => {
  assert.equal(resolveVadOptions().negativeThreshold, 0.35);
  assert.ok(Math.abs(resolveVadOptions({ positiveThreshold: 0.3 }).negativeThreshold - 0.15) < 1e-9);
  assert.equal(resolveVadOptions({ positiveThreshold: 0.1 }).negativeThreshold, 0);
  assert.equal(resolveVadOptions({ positiveThreshold: 0.3, negativeThreshold: 0.3 }).negativeThreshold, 0.3);
});
