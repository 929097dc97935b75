import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FESTIVAL_TO_CMU, FestivalG2p, festivalToCmu, parseLexLookups } from '../../../pipelines/asr/festival-g2p.js';

/** The en-us acoustic model's phones (its mdef, less SIL): every mapped phone must be one of them. */
const CMU = new Set(['AA', 'AE', 'AH', 'AO', 'AW', 'AY', 'B', 'CH', 'D', 'DH', 'EH', 'ER', 'EY', 'F', 'G', 'HH', 'IH', 'IY',
  'JH', 'K', 'L', 'M', 'N', 'NG', 'OW', 'OY', 'P', 'R', 'S', 'SH', 'T', 'TH', 'UH', 'UW', 'V', 'W', 'Y', 'Z', 'ZH']);

describe('festival phones to CMU phones', () => {
  test('every festival radio phone maps to acoustic-model phones, reduced and syllabic ones to their cmudict spelling', () => {
    for (const [phone, cmu] of Object.entries(FESTIVAL_TO_CMU)) for (const p of cmu) assert.ok(CMU.has(p), `${phone} → ${p}`);
    assert.deepEqual(festivalToCmu(['s', 'ax', 'w', 'er', 's']), ['S', 'AH', 'W', 'ER', 'S']);
    assert.deepEqual(festivalToCmu(['b', 'ah', 'dx', 'axr']), ['B', 'AH', 'T', 'ER']);
    assert.deepEqual(festivalToCmu(['b', 'aa', 't', 'el']), ['B', 'AA', 'T', 'AH', 'L']);
    assert.deepEqual(festivalToCmu(['pau', 'k', 'w', 'ey1', 'm', 'pau']), ['K', 'W', 'EY', 'M'], 'stress digits and pauses');
  });

  test('a phone with no CMU counterpart, or nothing speakable, gives no pronunciation', () => {
    assert.equal(festivalToCmu(['k', 'y_', 'm']), null);
    assert.equal(festivalToCmu(['pau']), null);
    assert.equal(festivalToCmu([]), null);
  });

  test('lex.lookup output is read per word, syllables joined', () => {
    const out = parseLexLookups('("kwame" nil (((k w ey m) 1)))\n("saoirse" nil (((s ax) 0) ((w er s) 0)))\nnil\n("odd" nil (((q x) 1)))\n');
    assert.deepEqual([...out], [['kwame', ['K', 'W', 'EY', 'M']], ['saoirse', ['S', 'AH', 'W', 'ER', 'S']], ['odd', null]]);
  });
});

describe('FestivalG2p', () => {
  test('looks names up in one festival process and caches them', async () => {
    const g2p = new FestivalG2p();
    assert.equal(g2p.get('kwame'), undefined);
    await g2p.request(['kwame', 'tomasz', 'Bad-Word', 'grace']);
    assert.deepEqual(g2p.get('kwame'), ['K', 'W', 'EY', 'M']);
    assert.deepEqual(g2p.get('grace'), ['G', 'R', 'EY', 'S'], 'words of the lexicon come from it');
    assert.ok(g2p.get('tomasz')?.length, 'letter-to-sound for the rest');
    assert.equal(g2p.get('Bad-Word'), undefined, 'only plain lower-case words are asked');
  });

  test('festival absent: lookups end at once, reported once, and nothing is cached', async () => {
    const reasons: string[] = [];
    const g2p = new FestivalG2p({ command: '/nonexistent/festival', onUnavailable: (r) => reasons.push(r) });
    await g2p.request(['kwame']);
    await g2p.request(['tomasz']);
    assert.equal(g2p.available, false);
    assert.equal(reasons.length, 1);
    assert.match(reasons[0]!, /ENOENT/);
    assert.equal(g2p.get('kwame'), undefined);
  });
});
