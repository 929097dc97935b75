import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { POCKETSPHINX_DEFAULT_OPTIONS, PocketsphinxAsr } from '../../../pipelines/asr/pocketsphinx-asr.js';
import { PocketsphinxNameSpotter } from '../../../pipelines/asr/pocketsphinx-name-spotter.js';
import { streamStateAccess, type StreamState } from '../../../pipelines/asr/pocketsphinx-stream-state.js';
import { pocketsphinxApi } from '../../../pipelines/asr/pocketsphinx-ffi.js';
import type { AsrTurnStream } from '../../../pipelines/asr/streaming-asr.js';
import { synth } from '../../../bench/lib/room-audio.js';

// issue #17 item 5: pooled decoders carried one stream's cepstral mean into another stream's first turn.
const GRACE = 'Hi, this is Grace. I moved to Lisbon last month.';
const KEYWORDS = ['hi', 'grace', 'moved', 'lisbon', 'month'];
const OTHER = ['The delivery trucks leave the warehouse at seven every morning.', 'Robert checks the invoices on Friday afternoons.'];

function missing(text: string): string[] {
  const words = new Set(text.split(' '));
  return KEYWORDS.filter((k) => !words.has(k));
}

function scaled(x: Float32Array, gain: number): Float32Array {
  return x.map((v) => Math.max(-1, Math.min(1, v * gain)));
}

function feed(turn: AsrTurnStream, samples: Float32Array): void {
  for (let i = 0; i < samples.length; i += 1600) turn.accept(samples.subarray(i, i + 1600));
}

async function say(asr: PocketsphinxAsr, stream: object | undefined, samples: Float32Array): Promise<string> {
  const turn = asr.startTurn(stream ? { stream } : {});
  feed(turn, samples);
  return (await turn.finish()).text;
}

describe('pocketsphinx: each stream normalised by its own cepstral mean', () => {
  let dir: string;
  let loud: Float32Array[];
  let quietGrace: Float32Array;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'parley-stream-cmn-test-'));
    // Stream A: another voice, near full scale; stream B: slt at a tenth of the amplitude (20 dB down).
    loud = OTHER.map((t) => scaled(synth(dir, 'flite:awb', t), 3));
    quietGrace = scaled(synth(dir, 'flite:slt', GRACE), 0.1);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('the decoder\'s mean and noise statistics are read as loaded (the model prior, none) and written back exactly', async () => {
    const asr = PocketsphinxAsr.load({ kind: 'pocketsphinx', maxDecoders: 1, nameSpotting: false });
    try {
      const d = asr.pool.tryTake()!;
      const reach = streamStateAccess(pocketsphinxApi(), d.ps);
      assert.ok('access' in reach, `the installed sphinxbase exposes its cepstral-mean and noise state: ${JSON.stringify(reach)}`);
      const state = reach.access;
      const prior = state.read();
      assert.equal(prior.mean.length, 13);
      assert.equal(prior.frames, 0);
      assert.ok(Math.abs(prior.mean[0]! - 41) < 1e-3, `en-us -cmninit c0 is 41, read ${prior.mean[0]}`);
      asr.pool.give(d);
      await say(asr, undefined, loud[0]!);
      const d2 = asr.pool.tryTake()!;
      const heard = state.read();
      assert.ok(heard.frames > 0 && Math.abs(heard.mean[0]! - 41) > 1, 'a turn moves the mean');
      assert.ok(prior.noiseUnset && !heard.noiseUnset && heard.noise.some((v) => v > 0), 'and sets the noise statistics');
      assert.ok(prior.slowPeak === 0 && heard.slowPeak > 5, `and the silence removal's energy peak (${heard.slowPeak})`);
      state.write(prior);
      assert.deepEqual(state.read(), prior);
      asr.pool.give(d2);
    } finally {
      await asr.close();
    }
  });

  test('a stream\'s first turn on a decoder another stream warmed is recognised as on a fresh decoder', async () => {
    const fresh = PocketsphinxAsr.load({ kind: 'pocketsphinx', maxDecoders: 1, nameSpotting: false });
    const shared = PocketsphinxAsr.load({ kind: 'pocketsphinx', maxDecoders: 1, nameSpotting: false });
    try {
      const alone = await say(fresh, {}, quietGrace);
      assert.deepEqual(missing(alone), [], `on a fresh decoder heard as "${alone}"`);
      const a = {};
      for (const clip of loud) await say(shared, a, clip);
      const b = await say(shared, {}, quietGrace);
      assert.deepEqual(missing(b), [], `after a loud stream on the same decoder heard as "${b}"`);
      assert.equal(shared.pool.peakSize, 1);
    } finally {
      await fresh.close();
      await shared.close();
    }
  });

  test('interleaved and overlapping streams on one thread are each decoded as alone, bit for bit', async () => {
    // B alone on its own recogniser: the texts and cepstral means each of its turns should get.
    const solo = PocketsphinxAsr.load({ kind: 'pocketsphinx', maxDecoders: 2, nameSpotting: false });
    const both = PocketsphinxAsr.load({ kind: 'pocketsphinx', maxDecoders: 2, nameSpotting: false });
    try {
      const texts = [GRACE, OTHER[0]!, GRACE];
      const bTurns = texts.map((t) => (t === GRACE ? quietGrace : scaled(synth(dir, 'flite:slt', t), 0.1)));
      const expected: { text: string; state: StreamState }[] = [];
      const sb = {};
      for (const clip of bTurns) expected.push({ text: await say(solo, sb, clip), state: solo.streamState(sb)! });
      const a = {};
      const b = {};
      // A and B speak at once (two decoders), finishing in alternating order, so the pool hands the
      // decoders back swapped and B's later turns land on the decoder A used last.
      for (const [k, clip] of bTurns.entries()) {
        const ta = both.startTurn({ stream: a });
        const tb = both.startTurn({ stream: b });
        feed(ta, loud[k % loud.length]!);
        feed(tb, clip);
        let text: string;
        if (k % 2 === 0) {
          await ta.finish();
          text = (await tb.finish()).text;
        } else {
          text = (await tb.finish()).text;
          await ta.finish();
        }
        const want = expected[k]!;
        // Bit-identical to B alone: the same words, and the same state after the turn (the front end passed
        // the same frames as speech: the silence removal's slow energy peak is B's own, not A's louder one).
        assert.equal(text, want.text, `turn ${k}`);
        if (texts[k] === GRACE) assert.deepEqual(missing(text), [], `turn ${k}: "${text}"`);
        const state = both.streamState(b)!;
        assert.equal(state.frames, want.state.frames, `turn ${k}: frames in B's mean`);
        assert.deepEqual(state, want.state, `turn ${k}: B's state`);
        const stateA = both.streamState(a)!;
        assert.ok(Math.abs(stateA.mean[0]! - state.mean[0]!) > 5, `turn ${k}: A's mean ${stateA.mean[0]} is not B's ${state.mean[0]}`);
        assert.ok(stateA.slowPeak - state.slowPeak > 2, `turn ${k}: A's energy peak ${stateA.slowPeak} is above B's ${state.slowPeak}`);
      }
      assert.equal(both.pool.peakSize, 2);
    } finally {
      await solo.close();
      await both.close();
    }
  });

  test('the name-spotting pass hears a stream\'s turn with that stream\'s mean, not the last one it heard', async () => {
    const model = '/usr/share/pocketsphinx/model/en-us';
    const pcm = (x: Float32Array): Int16Array[] => [Int16Array.from(x, (v) => Math.round(Math.max(-1, Math.min(1, v)) * 32767))];
    // B's own state, as its first turn leaves it (what the first pass hands the spotting pass).
    const asr = PocketsphinxAsr.load({ kind: 'pocketsphinx', maxDecoders: 1, nameSpotting: false });
    const b = {};
    await say(asr, b, quietGrace);
    const own = asr.streamState(b)!;
    await asr.close();
    const spotted: Record<string, string[]> = {};
    for (const mode of ['own', 'last heard'] as const) {
      const spotter = new PocketsphinxNameSpotter(pocketsphinxApi(), model, { ...POCKETSPHINX_DEFAULT_OPTIONS }, { letterToSound: false });
      try {
        const file = spotter.keyphraseFile(['grace', 'robert'])!;
        for (const clip of loud) spotter.spot(file, pcm(clip), []);
        const fixed = spotter.spot(file, pcm(quietGrace), [], mode === 'own' ? own : undefined)!;
        spotted[mode] = fixed.spotted.map((d) => d.name);
      } finally {
        spotter.close();
      }
    }
    assert.deepEqual(spotted['own'], ['grace']);
    assert.deepEqual(spotted['last heard'], [], 'control: with the loud stream\'s mean the name is not heard');
  });
});
