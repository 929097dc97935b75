import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AsrTurnStream, StreamingAsr } from '../../../pipelines/asr/streaming-asr.js';
import type { AudioSessionEvent } from '../../../pipelines/audio/audio-events.js';
import { SILERO_CONTEXT_SAMPLES, SILERO_WINDOW_SAMPLES, type SileroVadModel } from '../../../pipelines/audio/silero-vad-model.js';
import { SpeechPipeline } from '../../../pipelines/audio/speech-pipeline.js';

/**
 * Overload used to shed the audio between two speakers' lines, the pause included: the pipeline moved its clock
 * over the gap without counting it as anything, the VAD never heard the pause, and the next speaker's words joined
 * the open turn, stored under one speaker. Here the VAD and the recogniser are doubles (a level threshold, and a
 * recogniser that names the voices it heard), so the test depends on neither model nor machine speed.
 */

const RATE = 16;
/** Speaker A speaks at level 0.3, speaker B at 0.6 (alternating sign: a loud buzz). */
const LEVEL = { alice: 0.3, bob: 0.6 } as const;

/** A VAD that hears speech where the window's mean level is over 0.05. */
const levelVad = {
  createState: () => ({ state: new Float32Array(256), window: new Float32Array(SILERO_WINDOW_SAMPLES), input: new Float32Array(SILERO_CONTEXT_SAMPLES + SILERO_WINDOW_SAMPLES) }),
  predict: async (st: { window: Float32Array }) => (st.window.reduce((n, x) => n + Math.abs(x), 0) / st.window.length > 0.05 ? 0.95 : 0.01),
} as unknown as SileroVadModel;

/** A recogniser whose final names the voices it was fed: "alice", "bob", or both. */
const voiceNamer: StreamingAsr = {
  name: 'voice-namer', producesPartials: false, close: async () => {},
  startTurn: (): AsrTurnStream => {
    const heard = new Set<string>();
    return {
      accept: (samples) => {
        for (const x of samples) {
          if (Math.abs(Math.abs(x) - LEVEL.alice) < 0.01) heard.add('alice');
          if (Math.abs(Math.abs(x) - LEVEL.bob) < 0.01) heard.add('bob');
        }
        return undefined;
      },
      flush: () => undefined,
      finish: async () => ({ text: ['alice', 'bob'].filter((w) => heard.has(w)).join(' '), confidence: 1 }),
      abort: () => {},
    };
  },
};

/** Silence 0–500 ms, A 500–2500, a pause 2500–3300 (longer than the 500 ms end of turn), B 3300–5300, silence to 6500. */
function twoSpeakers(): Float32Array {
  const out = new Float32Array(6500 * RATE);
  const speak = (fromMs: number, toMs: number, level: number): void => {
    for (let i = fromMs * RATE; i < toMs * RATE; i++) out[i] = i % 2 === 0 ? level : -level;
  };
  speak(500, 2500, LEVEL.alice);
  speak(3300, 5300, LEVEL.bob);
  return out;
}

/** Run the audio through a pipeline in 100 ms chunks, leaving out (shedding) those in `[shedFromMs, shedUntilMs)`. */
async function run(samples: Float32Array, shed?: [number, number]): Promise<AudioSessionEvent[]> {
  const events: AudioSessionEvent[] = [];
  const p = new SpeechPipeline(levelVad, voiceNamer, (e) => events.push(e), { vad: { gainControl: 'off' } });
  for (let i = 0; i < samples.length; i += 1600) {
    if (shed && i >= shed[0] * RATE && i < shed[1] * RATE) continue;
    await p.process(samples.subarray(i, i + 1600), i);
  }
  p.commit();
  await new Promise((r) => setImmediate(r));
  return events;
}

const finals = (events: AudioSessionEvent[]): string[] => events.flatMap((e) => (e.type === 'final' ? [e.text] : []));
const stops = (events: AudioSessionEvent[]) => events.flatMap((e) => (e.type === 'speech_stopped' ? [e] : []));

test('unshed, the pause between the two speakers ends the first turn (the doubles work)', async () => {
  assert.deepEqual(finals(await run(twoSpeakers())), ['alice', 'bob']);
});

test('two speakers whose pause falls in shed audio give two turns: the first ends where the shed audio begins', async () => {
  // 2400–3400 ms shed: the last 100 ms of A, the whole pause, the first 100 ms of B.
  const events = await run(twoSpeakers(), [2400, 3400]);
  assert.deepEqual(finals(events), ['alice', 'bob'], 'not one turn "alice bob" under one speaker');
  const [first, second] = stops(events);
  assert.equal(first?.reason, 'overload');
  assert.equal(first?.audioEndMs, 2400, 'closed at the start of the audio nobody heard');
  assert.equal(second?.reason, 'silence');
  const starts = events.flatMap((e) => (e.type === 'speech_started' ? [e.audioStartMs] : []));
  assert.ok(starts[1]! >= 3400, `the second turn starts after the gap (${starts[1]} ms)`);
  const secondFinal = events.filter((e) => e.type === 'final')[1];
  assert.ok(secondFinal?.type === 'final' && secondFinal.audioOffsetMs >= 3400, 'its padding does not reach back across the gap');
});

test('shed audio with no turn open starts nothing and ends nothing', async () => {
  const events = await run(twoSpeakers(), [3100, 3200]);
  assert.deepEqual(finals(events), ['alice', 'bob']);
  assert.deepEqual(stops(events).map((e) => e.reason), ['silence', 'silence']);
});

test('a turn whose closing silence had begun when audio was shed ends where its speech ended', async () => {
  const events = await run(twoSpeakers(), [2700, 3000]);
  assert.deepEqual(finals(events), ['alice', 'bob']);
  const [first] = stops(events);
  assert.equal(first?.reason, 'overload');
  assert.ok(first!.audioEndMs >= 2400 && first!.audioEndMs <= 2500, `at the start of the silence (${first?.audioEndMs} ms), not at the gap`);
});
