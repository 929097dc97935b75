import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PocketsphinxAsr } from '../../../pipelines/asr/pocketsphinx-asr.js';
import type { AsrFinal, AsrTurnOptions } from '../../../pipelines/asr/streaming-asr.js';
import { fixtureSamples, loadAudioFixtures } from '../../../pipelines/audio/fixtures.js';
import { readWav } from '../../../pipelines/audio/wav.js';
import { detectSelfIntroduction } from '../../../pipelines/speaker/name-patterns.js';

/** A flite voice saying `text`, as 16 kHz mono samples. */
function flite(dir: string, voice: string, text: string): Float32Array {
  const raw = path.join(dir, 'raw.wav');
  const out = path.join(dir, 'out.wav');
  execFileSync('flite', ['-voice', voice, '-t', text, '-o', raw]);
  execFileSync('sox', [raw, '-r', '16000', '-c', '1', '-b', '16', out]);
  return readWav(out).samples;
}

/** One turn on a fresh recogniser (so earlier turns' cepstral means do not differ between the two compared). */
async function firstTurn(samples: Float32Array, spotting: boolean, options: AsrTurnOptions): Promise<AsrFinal> {
  const asr = PocketsphinxAsr.load({ kind: 'pocketsphinx', maxDecoders: 1, ...(spotting ? {} : { nameSpotting: false }) });
  try {
    const turn = asr.startTurn(options);
    for (let i = 0; i < samples.length; i += 1600) turn.accept(samples.subarray(i, i + 1600));
    return await turn.finish();
  } finally {
    await asr.close();
  }
}

const TENANT = ['grace', 'robert', 'linda', 'keith', 'brenda', 'megan', 'susan', 'douglas'];

describe('pocketsphinx name spotting', () => {
  let dir = '';
  before(() => { dir = mkdtempSync(path.join(tmpdir(), 'parley-names-test-')); });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('a known name the plain decoder misses is recognised with the tenant\'s names, and names its speaker', async () => {
    const audio = flite(dir, 'awb', 'hi this is grace from accounts');
    const plain = await firstTurn(audio, false, { names: TENANT });
    assert.doesNotMatch(plain.text, /\bgrace\b/, `the plain decoder heard "${plain.text}"`);
    const biased = await firstTurn(audio, true, { names: TENANT });
    assert.match(biased.text, /\bthis is grace\b/, `with names: "${biased.text}"`);
    assert.equal(detectSelfIntroduction(biased.text, { known: new Set(TENANT) }), 'Grace');
    assert.deepEqual(biased.nameSpotting?.corrections.map((c) => c.to), ['grace']);
    assert.equal(biased.confidence, plain.confidence, 'the first pass is the same decode');
  });

  test('without names, or with names the dictionary lacks, a turn is decoded exactly as by the plain decoder', async () => {
    const audio = flite(dir, 'awb', 'hi this is grace from accounts');
    const plain = await firstTurn(audio, false, {});
    for (const options of [{}, { names: [] }, { names: ['Zzyzxq', 'Qwghlmx', 'Xkcdqa'] }]) {
      const r = await firstTurn(audio, true, options);
      assert.deepEqual(r, plain, JSON.stringify(options));
    }
  });

  test('names not said leave real words alone (fixture speech with the tenant\'s names)', async () => {
    const f = loadAudioFixtures().find((x) => x.file === 'kal16.wav')!;
    const audio = fixtureSamples(f);
    const plain = await firstTurn(audio, false, {});
    const r = await firstTurn(audio, true, { names: TENANT });
    assert.equal(r.text, plain.text);
    assert.ok(r.nameSpotting, 'the spotting pass ran');
    assert.deepEqual(r.nameSpotting.corrections, []);
  });
});
