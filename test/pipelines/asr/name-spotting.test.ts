import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { clears, correctNames, isFunctionWord, keyphraseFile, LOG_BASE, type SpottedName, type TimedWord } from '../../../pipelines/asr/name-spotting.js';

/** A few cmudict pronunciations (stress removed), as the decoder's dictionary gives them. */
const DICT: Record<string, string[][]> = {
  hi: [['HH', 'AY']], this: [['DH', 'IH', 'S']], is: [['IH', 'Z']], from: [['F', 'R', 'AH', 'M']],
  great: [['G', 'R', 'EY', 'T']], grace: [['G', 'R', 'EY', 'S']], window: [['W', 'IH', 'N', 'D', 'OW']],
  linda: [['L', 'IH', 'N', 'D', 'AH']], sue: [['S', 'UW']], sand: [['S', 'AE', 'N', 'D']], susan: [['S', 'UW', 'Z', 'AH', 'N']],
  accounts: [['AH', 'K', 'AW', 'N', 'T', 'S']], 'what(2)': [['HH', 'W', 'AH', 'T']],
  my: [['M', 'AY']], names: [['N', 'EY', 'M', 'Z']], and: [['AH', 'N', 'D']], an: [['AE', 'N']], anne: [['AE', 'N']], a: [['AH']],
  "we'll": [['W', 'IY', 'L']], will: [['W', 'IH', 'L']], call: [['K', 'AO', 'L']],
};
const phones = (w: string): string[][] => DICT[w] ?? [];
const words = (...ws: [string, number, number][]): TimedWord[] => ws.map(([word, startFrame, endFrame]) => ({ word, startFrame, endFrame }));
const spot = (name: string, startFrame: number, endFrame: number, score = -1000): SpottedName => ({ name, startFrame, endFrame, score });

describe('name spotting: correcting first-pass words', () => {
  const first = words(['hi', 0, 20], ['this', 21, 40], ['is', 41, 50], ['great', 51, 90], ['from', 91, 110], ['accounts', 111, 160]);

  test('a spotted name replaces the overlapping words that sound like it', () => {
    const r = correctNames(first, [spot('grace', 55, 88)], phones, { maxPhoneDistance: 0.3 });
    assert.equal(r.words.join(' '), 'hi this is grace from accounts');
    assert.deepEqual(r.corrections, [{ from: 'great', to: 'grace', distance: 0.25 }]);
  });

  test('a name split over two words is joined into one', () => {
    const r = correctNames(words(['hi', 0, 20], ['sue', 21, 40], ['sand', 41, 70]), [spot('susan', 22, 69)], phones, { maxPhoneDistance: 0.5 });
    assert.equal(r.words.join(' '), 'hi susan');
  });

  test('words that sound unlike the spotted name are kept (a spotter false alarm changes nothing)', () => {
    const r = correctNames(first, [spot('linda', 111, 160)], phones, { maxPhoneDistance: 0.3 });
    assert.equal(r.words.join(' '), 'hi this is great from accounts');
    assert.equal(r.corrections.length, 0);
  });

  test('beyond the distance nothing changes; a name already written is confirmed, not rewritten', () => {
    assert.equal(correctNames(first, [spot('grace', 55, 88)], phones, { maxPhoneDistance: 0.2 }).corrections.length, 0);
    const already = words(['hi', 0, 20], ['grace', 21, 60]);
    const r = correctNames(already, [spot('grace', 20, 58)], phones, { maxPhoneDistance: 0.5 });
    assert.deepEqual(r, { words: ['hi', 'grace'], corrections: [] });
  });

  test('of two overlapping detections only the better scored one is used', () => {
    const r = correctNames(first, [spot('linda', 50, 92, -3000), spot('grace', 52, 90, -900)], phones, { maxPhoneDistance: 0.5 });
    assert.equal(r.words.join(' '), 'hi this is grace from accounts');
  });

  test('a detection with no first-pass word under it, or words the dictionary lacks, changes nothing', () => {
    assert.equal(correctNames(first, [spot('grace', 200, 240)], phones, { maxPhoneDistance: 1 }).corrections.length, 0);
    const unknown = words(['zzyzx', 0, 30]);
    assert.equal(correctNames(unknown, [spot('grace', 0, 30)], phones, { maxPhoneDistance: 0.9 }).corrections.length, 0);
  });

  test('alternate pronunciation markers are looked up as written and dropped from the text', () => {
    const r = correctNames(words(['what(2)', 0, 30], ['is', 31, 40]), [], phones, { maxPhoneDistance: 0.3 });
    assert.deepEqual(r.words, ['what', 'is']);
  });
});

describe('name spotting: the function-word gate', () => {
  /** A detection score of 10^-(perPhone × phones), in the decoder's log base. */
  const scoreAt = (perPhone: number, phones: number): number => Math.round(-perPhone * phones / Math.log10(LOG_BASE));
  const intro = words(['my', 0, 20], ['names', 21, 50], ['an', 51, 70], ['and', 71, 90], ['a', 91, 100]);

  test('a run of function words is refused unless the detection clears the stricter bar', () => {
    const weak = spot('anne', 52, 69, scoreAt(1.5, 2));
    assert.equal(correctNames(intro, [weak], phones, { maxPhoneDistance: 0.3 }).words.join(' '), 'my names anne and a', 'no gate: the old behaviour');
    const gated = correctNames(intro, [weak], phones, { maxPhoneDistance: 0.3, functionWordThreshold: 0.5 });
    assert.deepEqual(gated, { words: ['my', 'names', 'an', 'and', 'a'], corrections: [] });
    assert.equal(correctNames(intro, [weak], phones, { maxPhoneDistance: 0.3, functionWordThreshold: -Infinity }).corrections.length, 0);
    const sure = spot('anne', 52, 69, scoreAt(0.2, 2));
    assert.equal(correctNames(intro, [sure], phones, { maxPhoneDistance: 0.3, functionWordThreshold: 0.5 }).words.join(' '), 'my names anne and a');
  });

  test('a multi-word run of function words is refused too ("and a" → linda)', () => {
    const r = correctNames(intro, [spot('linda', 70, 100, scoreAt(1.9, 5))], phones, { maxPhoneDistance: 0.6, functionWordThreshold: 0.5 });
    assert.equal(r.corrections.length, 0);
  });

  test('a content-word run is still corrected at the spotting threshold alone', () => {
    const first = words(['hi', 0, 20], ['this', 21, 40], ['is', 41, 50], ['great', 51, 90]);
    const r = correctNames(first, [spot('grace', 55, 88, scoreAt(1.9, 4))], phones, { maxPhoneDistance: 0.3, functionWordThreshold: -Infinity });
    assert.equal(r.words.join(' '), 'hi this is grace');
  });

  test('contractions count as function words only when asked', () => {
    assert.equal(isFunctionWord("we'll", true), true);
    assert.equal(isFunctionWord("we'll", false), false);
    assert.equal(isFunctionWord('great', true), false);
    const first = words(["we'll", 0, 30], ['call', 31, 60]);
    const d = spot('will', 0, 29, scoreAt(1.5, 3));
    const gate = { maxPhoneDistance: 0.4, functionWordThreshold: -Infinity };
    assert.equal(correctNames(first, [d], phones, { ...gate, functionWordContractions: true }).corrections.length, 0);
    assert.equal(correctNames(first, [d], phones, { ...gate, functionWordContractions: false }).words.join(' '), 'will call');
  });

  test('the bar is a keyphrase threshold per phone of the name', () => {
    assert.equal(clears(scoreAt(1, 4), 4, 1.01), true);
    assert.equal(clears(scoreAt(1, 4), 4, 0.99), false);
    assert.equal(clears(0, 4, -Infinity), false);
    assert.equal(clears(-1e9, 4, Infinity), true);
  });
});

describe('name spotting: the keyphrase list', () => {
  test('one line per distinct name the dictionary holds, threshold scaled by phone count', () => {
    const text = keyphraseFile(['Grace', 'grace', 'Zzyzx', 'Sue Sand', 'linda!'], phones, 5, 100);
    assert.equal(text, 'grace /1e-20/\nsue sand /1e-30/\nlinda /1e-25/\n');
  });

  test('names the dictionary lacks give an empty list; the cap is applied', () => {
    assert.equal(keyphraseFile(['Zzyzx', 'Qwghlm'], phones, 5, 100), '');
    assert.equal(keyphraseFile(['grace', 'linda', 'susan'], phones, 5, 2).split('\n').filter(Boolean).length, 2);
  });
});
