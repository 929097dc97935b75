import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { hasTts, synthesise, TTS_SENTENCES } from '../../../pipelines/speaker/eval-corpus.js';
import { fixturePins, readSpeakerPins, SHIFTED_TRAIN_VOICES, ttsPins } from '../../helpers/speaker-pins.js';

/**
 * The speaker parameters must stay reproducible from their scripts (issue #17 item 2): the inputs of the
 * fit are pinned on small fixed cases here (test/fixtures/speaker-pins.json, written by
 * scripts/pin-speaker-fit.ts). A failure means the features, the LDA trainer or the synthesised training
 * voices changed: refit the shipped parameters with their scripts, then re-pin.
 */
const pins = readSpeakerPins();
const noTts = hasTts() ? false : 'skipped: flite, festival or sox is not installed';

function assertClose(actual: number[], expected: number[], relTol: number, what: string): void {
  assert.equal(actual.length, expected.length, `${what}: length`);
  for (const [i, e] of expected.entries()) {
    const a = actual[i]!;
    assert.ok(Math.abs(a - e) <= relTol * Math.max(1, Math.abs(e)), `${what}[${i}]: ${a} against pinned ${e}`);
  }
}

describe('speaker fit inputs are pinned', () => {
  test('features of the committed fixture clips and a tiny LDA fit on them match the pins', () => {
    const now = fixturePins();
    assert.deepEqual(Object.keys(now.fixtureStats), Object.keys(pins.fixtureStats));
    for (const [f, x] of Object.entries(now.fixtureStats)) assertClose(x, pins.fixtureStats[f]!, 1e-9, f);
    assertClose(now.fixtureLdaEigenvalues, pins.fixtureLdaEigenvalues, 1e-7, 'LDA eigenvalues');
  });

  test('the trainer writes the back end of a fit: kind, population, centre and whitening rows as pinned', () => {
    const now = fixturePins().fixtureBackEnd;
    assert.equal(now.kind, pins.fixtureBackEnd.kind);
    assert.equal(now.centredOn, pins.fixtureBackEnd.centredOn);
    assertClose(now.centre, pins.fixtureBackEnd.centre, 1e-4, 'back-end centre');
    assert.equal(now.whiten.length, 3);
    // Eigenvector signs are not pinned by the maths: compare each row up to its sign.
    now.whiten.forEach((row, k) => {
      const pinned = pins.fixtureBackEnd.whiten[k]!;
      const sign = Math.sign(row.reduce((s, x, i) => s + x * pinned[i]!, 0)) || 1;
      assertClose(row.map((x) => sign * x), pinned, 1e-4, `back-end whitening row ${k}`);
    });
  });

  test('a pitch-shifted training voice synthesises to the same clip every time', { skip: noTts }, () => {
    // sox seeds its dither from the clock unless run with -R: each cache of these clips used to differ.
    const dirs = [0, 1].map(() => mkdtempSync(path.join(os.tmpdir(), 'parley-tts-pin-')));
    const saved = process.env.PARLEY_TTS_CACHE;
    try {
      const voice = SHIFTED_TRAIN_VOICES[0]!;
      const clips = dirs.map((d) => {
        process.env.PARLEY_TTS_CACHE = d;
        return synthesise(voice, TTS_SENTENCES[1]!, 1);
      });
      assert.ok(clips[0]!.length > 16_000);
      assert.deepEqual(clips[1], clips[0]);
    } finally {
      if (saved === undefined) delete process.env.PARLEY_TTS_CACHE;
      else process.env.PARLEY_TTS_CACHE = saved;
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    }
  });

  test('features of the synthesised pitch-shifted training clips match the pins (flite / festival / sox unchanged)', { skip: noTts }, () => {
    const now = ttsPins();
    assert.deepEqual(Object.keys(now), Object.keys(pins.ttsStats));
    // Two dither realisations moved a feature by 1.6 %; float noise is far below 1e-6.
    for (const [v, x] of Object.entries(now)) assertClose(x, pins.ttsStats[v]!, 1e-6, v);
  });
});
