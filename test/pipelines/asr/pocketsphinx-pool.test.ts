import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PocketsphinxAsr } from '../../../pipelines/asr/pocketsphinx-asr.js';
import type { AsrTurnStream } from '../../../pipelines/asr/streaming-asr.js';
import { wordErrorRate } from '../../../pipelines/asr/wer.js';
import { fixtureSamples, loadAudioFixtures } from '../../../pipelines/audio/fixtures.js';

/** Real speech: three utterances of one fixture, with the pipeline's 300 ms padding. */
function clips(): { text: string; audio: Float32Array }[] {
  const f = loadAudioFixtures().find((x) => x.file === 'festival-slt.wav');
  assert.ok(f);
  const samples = fixtureSamples(f);
  return f.utterances.slice(0, 3).map((u) => ({
    text: u.text,
    audio: samples.subarray(Math.round((u.start_ms - 300) * 16), Math.round((u.end_ms + 300) * 16)),
  }));
}

describe('pocketsphinx decoder pool', () => {
  test('many overlapping turns over many rounds never hold more decoders than the cap, and all decode', async () => {
    const asr = PocketsphinxAsr.load({ kind: 'pocketsphinx', maxDecoders: 2 });
    const speech = clips();
    try {
      for (let round = 0; round < 3; round++) {
        // Six turns overlap (e.g. six sessions on one worker thread), fed 100 ms at a time in turn.
        const turns: { turn: AsrTurnStream; text: string; audio: Float32Array }[] = [];
        for (let i = 0; i < 6; i++) {
          const clip = speech[i % speech.length];
          assert.ok(clip);
          turns.push({ turn: asr.startTurn(), ...clip });
        }
        assert.equal(asr.pool.size, 2);
        assert.equal(asr.pool.waiters, 4, 'turns past the cap wait for a decoder');
        const longest = Math.max(...turns.map((t) => t.audio.length));
        for (let at = 0; at < longest; at += 1600) {
          for (const t of turns) t.turn.accept(t.audio.subarray(at, at + 1600));
        }
        const finals = await Promise.all(turns.map((t) => t.turn.finish()));
        for (const [i, final] of finals.entries()) {
          const t = turns[i];
          assert.ok(t);
          assert.ok(wordErrorRate([{ reference: t.text, hypothesis: final.text }]) < 0.4,
            `turn ${i} of round ${round}: "${final.text}" for "${t.text}"`);
        }
        assert.ok(asr.pool.size <= 2);
        assert.equal(asr.pool.waiters, 0);
      }
      assert.equal(asr.pool.peakSize, 2, 'never more than the cap alive at once');
    } finally {
      await asr.close();
    }
    assert.equal(asr.pool.size, 0, 'closing frees every decoder');
  });

  test('an aborted waiting turn gives up its place; a busy decoder goes to the next waiting turn', async () => {
    const asr = PocketsphinxAsr.load({ kind: 'pocketsphinx', maxDecoders: 1 });
    const [clip] = clips();
    assert.ok(clip);
    try {
      const first = asr.startTurn();
      const dropped = asr.startTurn();
      const third = asr.startTurn();
      assert.equal(asr.pool.waiters, 2);
      dropped.abort();
      assert.equal(asr.pool.waiters, 1);
      for (let at = 0; at < clip.audio.length; at += 1600) third.accept(clip.audio.subarray(at, at + 1600));
      first.abort();
      const final = await third.finish();
      assert.ok(wordErrorRate([{ reference: clip.text, hypothesis: final.text }]) < 0.4, final.text);
      assert.equal(asr.pool.size, 1);
      assert.equal(asr.pool.peakSize, 1);
    } finally {
      await asr.close();
    }
  });

  test('a turn still waiting when the recogniser closes finishes empty instead of hanging', async () => {
    const asr = PocketsphinxAsr.load({ kind: 'pocketsphinx', maxDecoders: 1 });
    const busy = asr.startTurn();
    const waiting = asr.startTurn();
    await asr.close();
    assert.deepEqual(await waiting.finish(), { text: '', confidence: 0 });
    busy.abort();
    assert.equal(asr.pool.size, 0);
  });
});
