import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { favourKnownNames, heardWords, KNOWN_NAME_DEFAULTS } from '../../../pipelines/asr/known-names.js';

/** A few cmudict pronunciations (stress removed), as the recogniser's dictionary gives them. */
const DICT: Record<string, string[][]> = {
  ellen: [['EH', 'L', 'AH', 'N']], alan: [['AE', 'L', 'AH', 'N']], grays: [['G', 'R', 'EY', 'Z']], grace: [['G', 'R', 'EY', 'S']],
  great: [['G', 'R', 'EY', 'T']], rob: [['R', 'AA', 'B']], it: [['IH', 'T']], robert: [['R', 'AA', 'B', 'ER', 'T']],
  hail: [['HH', 'EY', 'L']], and: [['AH', 'N', 'D'], ['AE', 'N', 'D']], helen: [['HH', 'EH', 'L', 'AH', 'N']],
  an: [['AE', 'N']], anne: [['AE', 'N']], fine: [['F', 'AY', 'N']], finn: [['F', 'IH', 'N']], jan: [['JH', 'AE', 'N']],
  jon: [['JH', 'AA', 'N']], john: [['JH', 'AA', 'N']], gary: [['G', 'EH', 'R', 'IY']], my: [['M', 'AY']], name: [['N', 'EY', 'M']],
  is: [['IH', 'Z']], this: [['DH', 'IH', 'S']], hi: [['HH', 'AY']], work: [['W', 'ER', 'K']], today: [['T', 'AH', 'D', 'EY']],
};
const phones = (w: string): string[][] => DICT[w] ?? [];
const favour = (text: string, names: string[], options = {}): ReturnType<typeof favourKnownNames> =>
  favourKnownNames(text, names, phones, { ...KNOWN_NAME_DEFAULTS, ...options });

describe('known names in a recogniser\'s cased text', () => {
  test('a word capitalised inside a sentence is marked; the first word of a sentence and "I" are not', () => {
    const w = heardWords("Hi, I'm Grays. Great, this is Ellen.");
    assert.deepEqual(w.map((x) => [x.lower, x.cased]), [['hi', false], ["i'm", false], ['grays', true], ['great', false], ['this', false], ['is', false], ['ellen', true]]);
    assert.deepEqual(w.map((x) => x.breakBefore), [false, true, false, true, true, false, false]);
  });

  describe('must rewrite', () => {
    test('a capitalised word that sounds like a known name', () => {
      const r = favour('Hi, this is Grays.', ['Grace', 'Robert']);
      assert.equal(r.text, 'hi this is grace');
      assert.deepEqual(r.corrections, [{ from: 'grays', to: 'grace', distance: 0.125 }]);
    });

    test('another first name the recogniser wrote, by default ("Ellen" for a known alan)', () => {
      assert.equal(favour('My name is Ellen and I run the depot.', ['alan']).text, 'my name is alan and i run the depot');
    });

    test('a name split over two capitalised words, a function word second ("Rob It" for robert)', () => {
      const r = favour('I am Rob It. I drive the van.', ['robert']);
      assert.equal(r.text, 'i am robert i drive the van');
      assert.equal(r.corrections[0]!.from, 'rob it');
    });

    test('with context evidence, a lower-case word where the sentence names someone ("it\'s hail and from…")', () => {
      const r = favour("It's hail and from the finance team.", ['helen'], { evidence: 'context', maxPhoneDistance: 0.3 });
      assert.equal(r.text, "it's helen from the finance team");
    });

    test('a word without a pronunciation by its letters ("Kwami" for a known kwame)', () => {
      assert.equal(favour('Hi, this is Kwami from the dock.', ['kwame']).text, 'hi this is kwame from the dock');
    });
  });

  describe('must not rewrite', () => {
    test('a lower-case word without a naming context ("this is great" is not grace), by default', () => {
      assert.equal(favour('This is great.', ['grace']).corrections.length, 0);
      assert.equal(favour('This is great.', ['grace'], { evidence: 'cased' }).text, 'this is great');
    });

    test('the first word of a sentence: its capital is no evidence', () => {
      assert.equal(favour('Great work today.', ['grace']).corrections.length, 0);
    });

    test('a function word, even one that sounds exactly like the name and stands where a name would', () => {
      assert.equal(favour('Call me An.', ['anne'], { evidence: 'cased-or-context', maxPhoneDistance: 0.5 }).corrections.length, 0);
    });

    test('a word that is never a name ("I\'m Fine" is not finn)', () => {
      assert.equal(favour("I'm Fine, thanks.", ['finn'], { evidence: 'cased-or-context', maxPhoneDistance: 0.5 }).corrections.length, 0);
    });

    test('a word that sounds equally like two known names', () => {
      assert.equal(favour('Hi, this is Jan.', ['jon', 'john'], { maxPhoneDistance: 0.5 }).corrections.length, 0);
    });

    test('a word too far from every known name, and a known name already written', () => {
      assert.equal(favour('Hi, this is Gary.', ['grace']).corrections.length, 0);
      assert.equal(favour('Hi, this is Grace.', ['grace']).corrections.length, 0);
    });

    test('words across punctuation are not joined into one name', () => {
      assert.equal(favour('I saw Rob. It was late.', ['robert']).corrections.length, 0);
    });

    test('with keepOtherNames, a capitalised listed first name stays as written', () => {
      assert.equal(favour('My name is Ellen.', ['alan'], { keepOtherNames: true }).corrections.length, 0);
    });

    test('without names the text is only normalised', () => {
      assert.deepEqual(favour('Hi, this is Grays.', []), { text: 'hi this is grays', corrections: [] });
    });
  });
});
