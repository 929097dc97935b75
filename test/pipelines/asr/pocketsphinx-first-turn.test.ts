import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PocketsphinxAsr } from '../../../pipelines/asr/pocketsphinx-asr.js';
import type { AsrTurnStream } from '../../../pipelines/asr/streaming-asr.js';
import { synth } from '../../../bench/lib/room-audio.js';

// issue #17 item 5: a fresh decoder's first turn was normalised by the model's prior cepstral mean.
const GRACE = 'Hi, this is Grace. I moved to Lisbon last month.';
const KEYWORDS = ['hi', 'grace', 'moved', 'lisbon', 'month'];

function missing(text: string): string[] {
  const words = new Set(text.split(' '));
  return KEYWORDS.filter((k) => !words.has(k));
}

function feed(turn: AsrTurnStream, samples: Float32Array): void {
  for (let i = 0; i < samples.length; i += 1600) turn.accept(samples.subarray(i, i + 1600));
}

describe('pocketsphinx first turn of a fresh decoder', () => {
  let dir: string;
  let slt: Float32Array;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'parley-first-turn-test-'));
    slt = synth(dir, 'flite:slt', GRACE);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('the first turn of a new recogniser is recognised like a later one', async () => {
    const asr = PocketsphinxAsr.load({ kind: 'pocketsphinx', maxDecoders: 1, nameSpotting: false });
    try {
      const first = asr.startTurn();
      feed(first, slt);
      const { text } = await first.finish();
      assert.deepEqual(missing(text), [], `first turn heard as "${text}"`);
    } finally {
      await asr.close();
    }
  });

  test('a turn that waited for a decoder nobody primed is decoded again from the audio it held', async () => {
    const asr = PocketsphinxAsr.load({ kind: 'pocketsphinx', maxDecoders: 1, nameSpotting: false });
    try {
      const holder = asr.startTurn();
      const waiting = asr.startTurn();
      feed(waiting, slt);
      holder.abort();
      const { text } = await waiting.finish();
      assert.deepEqual(missing(text), [], `waiting first turn heard as "${text}"`);
    } finally {
      await asr.close();
    }
  });

  test('primeFirstTurn: false keeps the single pass (the first turn then misses words)', async () => {
    const asr = PocketsphinxAsr.load({ kind: 'pocketsphinx', maxDecoders: 1, nameSpotting: false, primeFirstTurn: false });
    try {
      const first = asr.startTurn();
      feed(first, slt);
      assert.notDeepEqual(missing((await first.finish()).text), []);
    } finally {
      await asr.close();
    }
  });
});
