import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PocketsphinxAsr } from '../../../pipelines/asr/pocketsphinx-asr.js';
import { cString, pocketsphinxApi } from '../../../pipelines/asr/pocketsphinx-ffi.js';
import type { NameSpottingOptions } from '../../../pipelines/asr/pocketsphinx-name-spotter.js';
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

/**
 * One turn on a fresh recogniser, no letter-to-sound (so earlier turns' cepstral means do not differ between the two
 * compared), decoded once with the model's prior cepstral mean (`primeFirstTurn: false`): the first pass then misses
 * the name, which is what these tests need to see the spotting pass correct.
 */
async function firstTurn(samples: Float32Array, spotting: boolean, options: AsrTurnOptions): Promise<AsrFinal> {
  const asr = PocketsphinxAsr.load({ kind: 'pocketsphinx', maxDecoders: 1, primeFirstTurn: false, nameSpotting: spotting ? { letterToSound: false } : false });
  try {
    const turn = asr.startTurn(options);
    for (let i = 0; i < samples.length; i += 1600) turn.accept(samples.subarray(i, i + 1600));
    return await turn.finish();
  } finally {
    await asr.close();
  }
}

/** Turns on one recogniser, names looked up (prepareNames) before the first: the way a stream given names runs. */
async function turns(clips: Float32Array[], spotting: NameSpottingOptions | false, options: AsrTurnOptions,
  warnings: string[] = []): Promise<{ finals: AsrFinal[]; firstPassKnows: boolean }> {
  const asr = PocketsphinxAsr.load({ kind: 'pocketsphinx', maxDecoders: 1, nameSpotting: spotting }, { warn: (_f, msg) => warnings.push(msg) });
  try {
    await asr.prepareNames(options.names ?? []);
    const finals: AsrFinal[] = [];
    for (const samples of clips) {
      const turn = asr.startTurn(options);
      for (let i = 0; i < samples.length; i += 1600) turn.accept(samples.subarray(i, i + 1600));
      finals.push(await turn.finish());
    }
    // The first-pass decoder's own dictionary (each decoder has one): letter-to-sound must not reach it.
    const api = pocketsphinxApi();
    const d = asr.pool.tryTake()!;
    const p = api.psLookupWord(d.ps, 'tomasz');
    if (p) api.ckdFree(p);
    asr.pool.give(d);
    return { finals, firstPassKnows: Boolean(p && cString(p)) };
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

  test('names given while the turn is spoken count for its final as names given at its start', async () => {
    const audio = flite(dir, 'awb', 'hi this is grace from accounts');
    const atStart = await firstTurn(audio, true, { names: TENANT });
    const asr = PocketsphinxAsr.load({ kind: 'pocketsphinx', maxDecoders: 1, primeFirstTurn: false, nameSpotting: { letterToSound: false } });
    try {
      const turn = asr.startTurn({});
      const half = Math.floor(audio.length / 3200) * 1600;
      for (let i = 0; i < half; i += 1600) turn.accept(audio.subarray(i, i + 1600));
      turn.setNames?.(TENANT);
      for (let i = half; i < audio.length; i += 1600) turn.accept(audio.subarray(i, Math.min(i + 1600, audio.length)));
      const late = await turn.finish();
      assert.match(late.text, /\bthis is grace\b/, `names given late: "${late.text}"`);
      assert.deepEqual(late, atStart);
    } finally {
      await asr.close();
    }
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

  test('a name the dictionary lacks is spotted with festival\'s pronunciation, and only by the spotting decoder', async () => {
    const audio = flite(dir, 'rms', 'hello i am tomasz from accounts');
    const names = [...TENANT, 'Tomasz'];
    const plain = await turns([audio, audio], false, { names });
    const without = await turns([audio, audio], { letterToSound: false }, { names });
    const lts = await turns([audio, audio], {}, { names });
    for (const r of [plain, without]) assert.doesNotMatch(r.finals[0]!.text, /\btomasz\b/, r.finals[0]!.text);
    assert.deepEqual(without.finals.map((f) => f.text), plain.finals.map((f) => f.text), 'no letter-to-sound: as today');
    for (const f of lts.finals) {
      assert.match(f.text, /\bi am tomasz from\b/, f.text);
      assert.deepEqual(f.nameSpotting?.corrections.map((c) => c.to), ['tomasz']);
    }
    assert.deepEqual(lts.finals.map((f) => f.confidence), plain.finals.map((f) => f.confidence), 'the first passes are the same decodes');
    assert.equal(lts.firstPassKnows, false, 'the first-pass dictionary never got the word');
    assert.equal(detectSelfIntroduction(lts.finals[0]!.text, { known: new Set(names.map((n) => n.toLowerCase())) }), 'Tomasz');
  });

  test('festival absent: names the dictionary lacks are skipped as without letter-to-sound, with one warning', async () => {
    const audio = flite(dir, 'rms', 'hello i am tomasz from accounts');
    const names = [...TENANT, 'tomasz'];
    const warnings: string[] = [];
    const absent = await turns([audio, audio], { letterToSound: { command: '/nonexistent/festival' } }, { names }, warnings);
    const without = await turns([audio, audio], { letterToSound: false }, { names });
    assert.deepEqual(absent.finals, without.finals);
    assert.equal(warnings.length, 1, warnings.join('; '));
    assert.match(warnings[0]!, /festival/);
  });
});
