import assert from 'node:assert/strict';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { WordNet } from '../../../pipelines/retrieval/wordnet.js';
import { REVIEW_LOOKALIKES } from '../../helpers/lookalike-pairs.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { writePlanWordNet, writeWordNet, writeWordNetGraph } from '../../helpers/wordnet.js';

describe('WordNet synonyms', () => {
  const tmp = tempDir('parley-wordnet-');
  after(() => tmp.remove());

  test('the other words of the most frequent sense, from an inflected form; multi-word lemmas left out', () => {
    const dir = path.join(tmp.dir, 'wn');
    writeWordNet(dir, 'noun', [
      { words: ['car', 'auto', 'automobile', 'motor_vehicle'] },
      { words: ['car', 'railcar'] },
      { words: ['child', 'kid', 'youngster'] },
    ], ['children child']);
    writeWordNet(dir, 'verb', [{ words: ['buy', 'purchase'] }], ['bought buy']);
    const wn = new WordNet(dir);
    assert.equal(wn.available, true);
    assert.deepEqual(wn.synonymsOf('cars'), ['auto', 'automobile'], 'first sense only, plural → base, "motor vehicle" left out');
    assert.deepEqual(wn.synonymsOf('Car', { senses: 2, perWord: 5 }), ['auto', 'automobile', 'railcar']);
    assert.deepEqual(wn.synonymsOf('children'), ['kid', 'youngster'], 'irregular form from the exception list');
    assert.deepEqual(wn.synonymsOf('bought'), ['purchase']);
    assert.deepEqual(wn.synonymsOf('kids', { perWord: 1 }), ['child']);
    assert.deepEqual(wn.synonymsOf('garden'), [], 'a word WordNet does not list');
    wn.close();
  });

  test('without a WordNet database: not available, no synonyms', () => {
    const wn = new WordNet(path.join(tmp.dir, 'nowhere'));
    assert.equal(wn.available, false);
    assert.deepEqual(wn.synonymsOf('car'), []);
    assert.deepEqual(wn.derivedForms('apply', 'verb'), []);
    assert.equal(wn.derivedFrom('application', 'apply'), false);
    assert.equal(wn.derivedFrom('move', 'move'), true, 'the same word needs no WordNet');
    assert.equal(wn.sharedHypernym('dog', 'cat'), null);
    assert.equal(wn.related('organization', 'organ'), null, 'cannot tell');
  });

  test('derivational relatives: the other part of speech, from the word itself, over all its senses', () => {
    const dir = path.join(tmp.dir, 'derive');
    writeWordNetGraph(dir, [
      { id: 'v-apply', pos: 'verb', words: ['apply', 'use'], pointers: [
        { symbol: '+', to: 'n-application', source: 1, target: 1 },
        { symbol: '+', to: 'n-usage', source: 2, target: 1 }] },
      { id: 'v-apply2', pos: 'verb', words: ['apply'], pointers: [{ symbol: '+', to: 'n-applicant', source: 1, target: 1 }] },
      { id: 'n-application', pos: 'noun', words: ['application'], pointers: [{ symbol: '+', to: 'v-apply', source: 1, target: 1 }] },
      { id: 'n-usage', pos: 'noun', words: ['usage'] },
      { id: 'n-applicant', pos: 'noun', words: ['applicant'] },
      { id: 'n-renewal', pos: 'noun', words: ['renewal'], pointers: [{ symbol: '+', to: 'v-renew', source: 1, target: 1 }] },
      { id: 'v-renew', pos: 'verb', words: ['renew'] },
    ]);
    const wn = new WordNet(dir);
    assert.deepEqual(wn.derivedForms('apply', 'verb'), ['application', 'applicant'], 'both senses; not "usage", which derives from "use"');
    assert.deepEqual(wn.derivedForms('applies', 'verb'), ['application', 'applicant'], 'from an inflected form');
    assert.deepEqual(wn.derivedForms('application', 'noun'), ['apply']);
    assert.equal(wn.derivedFrom('application', 'apply'), true);
    assert.equal(wn.derivedFrom('renewal', 'renew'), true, 'a pointer from the noun side only');
    assert.equal(wn.derivedFrom('usage', 'apply'), false);
    assert.equal(wn.derivedFrom('interview', 'interview'), true, 'one word, noun and verb');
    wn.close();
  });

  test('related: one base form or a derivational pointer from either side, any senses; null when WordNet lists a word not (issue #16, stem)', () => {
    const dir = path.join(tmp.dir, 'related');
    writeWordNetGraph(dir, [
      { id: 'v-cancel', pos: 'verb', words: ['cancel', 'call_off'], pointers: [{ symbol: '+', to: 'n-cancellation', source: 1, target: 1 }] },
      { id: 'n-cancellation', pos: 'noun', words: ['cancellation'] },
      { id: 'n-pianist', pos: 'noun', words: ['pianist'], pointers: [{ symbol: '+', to: 'n-piano', source: 1, target: 1 }] },
      { id: 'n-piano', pos: 'noun', words: ['piano', 'pianoforte'] },
      { id: 'n-organ', pos: 'noun', words: ['organ'] },
      { id: 'v-organize', pos: 'verb', words: ['organize'], pointers: [{ symbol: '+', to: 'n-organization', source: 1, target: 1 }] },
      { id: 'n-organization', pos: 'noun', words: ['organization', 'organisation'], pointers: [
        { symbol: '+', to: 'v-organize', source: 1, target: 1 }, { symbol: '+', to: 'n-organ', source: 2, target: 1 }] },
    ]);
    const wn = new WordNet(dir);
    assert.equal(wn.related('cancels', 'cancel'), true, 'one base form');
    assert.equal(wn.related('cancellations', 'cancel'), true, 'a pointer from the verb');
    assert.equal(wn.related('cancel', 'cancellations'), true, 'either order');
    assert.equal(wn.related('pianist', 'piano'), true, 'noun to noun');
    assert.equal(wn.related('pianoforte', 'pianist'), false, 'a pointer between words joins those words only, not their synonyms');
    assert.equal(wn.related('organisation', 'organ'), true);
    assert.equal(wn.related('organization', 'organ'), false, 'alike letters, no pointer');
    assert.equal(wn.related('organ', 'organize'), false);
    assert.equal(wn.related('cancel', 'kayak'), null, 'WordNet does not list "kayak"');
    assert.equal(wn.related('kayak', 'kayak'), true, 'the same word needs no WordNet');
    wn.close();
  });

  test('related: sibling derivations of one base, by pointers from both or from the base to both (review finding 2)', () => {
    const dir = path.join(tmp.dir, 'siblings');
    writeWordNetGraph(dir, [
      { id: 'v-manage', pos: 'verb', words: ['manage'] },
      { id: 'n-manager', pos: 'noun', words: ['manager'], pointers: [{ symbol: '+', to: 'v-manage', source: 1, target: 1 }] },
      { id: 'n-management', pos: 'noun', words: ['management'], pointers: [{ symbol: '+', to: 'v-manage', source: 1, target: 1 }] },
      { id: 'n-economy', pos: 'noun', words: ['economy'], pointers: [{ symbol: '+', to: 'v-economize', source: 1, target: 1 }] },
      { id: 'v-economize', pos: 'verb', words: ['economize'], pointers: [
        { symbol: '+', to: 'n-economy', source: 1, target: 1 }, { symbol: '+', to: 'n-economics', source: 1, target: 1 }] },
      { id: 'n-economics', pos: 'noun', words: ['economics'] },
      { id: 'n-organ', pos: 'noun', words: ['organ'], pointers: [{ symbol: '+', to: 'v-play', source: 1, target: 1 }] },
      { id: 'v-play', pos: 'verb', words: ['play'] },
      { id: 'n-organization', pos: 'noun', words: ['organization'], pointers: [{ symbol: '+', to: 'v-organize', source: 1, target: 1 }] },
      { id: 'v-organize', pos: 'verb', words: ['organize'], pointers: [{ symbol: '+', to: 'n-organization', source: 1, target: 1 }] },
    ]);
    const wn = new WordNet(dir);
    assert.equal(wn.related('manager', 'management'), true, 'both point to manage');
    assert.equal(wn.related('management', 'managers'), true, 'either order, any inflection');
    assert.equal(wn.related('economics', 'economy'), true, 'economize points to both; economics points to nothing');
    assert.equal(wn.related('organization', 'organ'), false, 'no pointer meets: organize and play are apart');
    wn.close();
  });

  test('derivedForms and related read one pointer walk: derivedForms keeps `+` to the other part of speech, related every `+` and `\\`', () => {
    const dir = path.join(tmp.dir, 'one-walk');
    writeWordNetGraph(dir, [
      { id: 'n-pianist', pos: 'noun', words: ['pianist'], pointers: [
        { symbol: '+', to: 'n-piano', source: 1, target: 1 }, { symbol: '+', to: 'v-play', source: 1, target: 1 }] },
      { id: 'n-piano', pos: 'noun', words: ['piano'] },
      { id: 'v-play', pos: 'verb', words: ['play'] },
      { id: 'n-nature', pos: 'noun', words: ['nature'] },
      { id: 'n-naturist', pos: 'noun', words: ['naturist'], pointers: [{ symbol: '\\', to: 'n-nature', source: 1, target: 1 }] },
      { id: 'v-perform', pos: 'verb', words: ['perform', 'execute'], pointers: [
        { symbol: '+', to: 'n-performance', source: 1, target: 1 }, { symbol: '+', to: 'n-execution', source: 2, target: 1 },
        { symbol: '+', to: 'n-show', source: 0, target: 0 }] },
      { id: 'n-performance', pos: 'noun', words: ['performance'] },
      { id: 'n-execution', pos: 'noun', words: ['execution'] },
      { id: 'n-show', pos: 'noun', words: ['show', 'public_show'] },
    ]);
    const wn = new WordNet(dir);
    assert.deepEqual(wn.derivedForms('pianist', 'noun'), ['play'], 'not "piano": a noun, like pianist');
    assert.deepEqual(wn.derivedForms('naturist', 'noun'), [], 'a pertainym is no derivation of derivedForms');
    assert.deepEqual(wn.derivedForms('perform', 'verb'), ['performance', 'show'], 'from perform itself or its whole synset; multi-word lemmas left out');
    assert.deepEqual(wn.derivedForms('execute', 'verb'), ['execution', 'show']);
    assert.equal(wn.related('pianist', 'piano'), true, 'related reads `+` between nouns');
    assert.equal(wn.related('naturist', 'nature'), true, 'and pertainyms');
    assert.equal(wn.related('perform', 'execution'), false, 'a pointer of a synonym joins that synonym only');
    wn.close();
  });

  test('related: a counted sense defined by the other word or its derivation, or one synset both derive to (issue #16 item 6)', () => {
    const dir = path.join(tmp.dir, 'defined');
    writeWordNetGraph(dir, [
      { id: 'n-gymnast', pos: 'noun', words: ['gymnast'], gloss: 'an athlete who is skilled in gymnastics  ' },
      { id: 'n-gymnastics', pos: 'noun', words: ['gymnastics'], gloss: 'a sport that involves exercises intended to display strength  ' },
      { id: 'v-bake', pos: 'verb', words: ['bake'], gloss: 'cook and make edible by putting in a hot oven; "bake the potatoes"' },
      { id: 'n-baker', pos: 'noun', words: ['baker'], pointers: [{ symbol: '+', to: 'v-bake', source: 1, target: 1 }], gloss: 'someone who bakes bread' },
      { id: 'n-bakery', pos: 'noun', words: ['bakery'], gloss: 'a workplace where baked goods are produced or sold  ' },
      { id: 'n-comedian', pos: 'noun', words: ['comedian', 'comic'], pointers: [{ symbol: '+', to: 'n-comicality', source: 2, target: 1 }],
        gloss: 'a professional performer who tells jokes' },
      { id: 'n-comedy', pos: 'noun', words: ['comedy'], pointers: [{ symbol: '+', to: 'n-comicality', source: 1, target: 1 }], gloss: 'light drama' },
      { id: 'n-comicality', pos: 'noun', words: ['comicality'], gloss: 'the quality of being funny' },
      { id: 'n-secretary', pos: 'noun', words: ['secretary'], gloss: 'an assistant who handles correspondence and clerical work for a boss' },
      { id: 'n-secretary2', pos: 'noun', words: ['secretary'], gloss: 'a person to whom a secret is entrusted  ' },
      { id: 'n-secret', pos: 'noun', words: ['secret'], gloss: 'something that should remain hidden from others' },
      { id: 'n-organ', pos: 'noun', words: ['organ'], gloss: 'a fully differentiated structural and functional unit in an animal' },
      { id: 'n-organization', pos: 'noun', words: ['organization'], gloss: 'a group of people who work together; "the organ of the party"' },
      { id: 'n-hope', pos: 'noun', words: ['hope'], gloss: 'a feeling of expectation, as in all our hopes' },
      { id: 'v-hop', pos: 'verb', words: ['hop'], gloss: 'jump lightly' },
      { id: 'v-prove', pos: 'verb', words: ['prove'], gloss: 'provide evidence for' },
      { id: 'v-provide', pos: 'verb', words: ['provide'], gloss: 'give something useful or necessary' },
    ], { secretary: 1 });
    const wn = new WordNet(dir);
    assert.equal(wn.related('gymnast', 'gymnastics'), true, "gymnast's definition names gymnastics");
    assert.equal(wn.related('gymnastics', 'gymnasts'), true, 'either order, any inflection');
    assert.equal(wn.related('bakery', 'baker'), true, "bakery's definition names bake (baked), which baker derives from");
    assert.equal(wn.related('comedian', 'comedy'), true, 'comedian (as comic) and comedy derive to one synset');
    assert.equal(wn.related('secretary', 'secret'), false, 'only a sense WordNet does not count names a secret');
    assert.equal(wn.related('organization', 'organ'), false, 'an example ("the organ of the party") is no definition');
    assert.equal(wn.related('hop', 'hope'), false, '"hopes" in the definition of hope is hope itself, though hop + es spells it too');
    assert.equal(wn.related('prove', 'provide'), false, 'a verb is defined by another verb (its kind), not by a relative');
    wn.close();
  });

  test('related: two words meet in one counted sense of a verb or noun, not in two senses of one word or an adjective both derive to (wnsyn)', () => {
    const dir = path.join(tmp.dir, 'meet');
    writeWordNetGraph(dir, [
      { id: 'v-commit', pos: 'verb', words: ['commit'], pointers: [{ symbol: '+', to: 'n-commitment', source: 1, target: 1 }] },
      { id: 'v-commit2', pos: 'verb', words: ['commit'], pointers: [{ symbol: '+', to: 'n-committee', source: 1, target: 1 }] },
      { id: 'n-commitment', pos: 'noun', words: ['commitment'], pointers: [{ symbol: '+', to: 'v-commit', source: 1, target: 1 }] },
      { id: 'n-committee', pos: 'noun', words: ['committee'], pointers: [{ symbol: '+', to: 'v-commit2', source: 1, target: 1 }] },
      { id: 'a-organic', pos: 'adj', words: ['organic'], pointers: [
        { symbol: '+', to: 'n-organ', source: 1, target: 1 }, { symbol: '+', to: 'n-organism', source: 1, target: 1 }] },
      { id: 'n-organ', pos: 'noun', words: ['organ'], pointers: [{ symbol: '+', to: 'a-organic', source: 1, target: 1 }] },
      { id: 'n-organism', pos: 'noun', words: ['organism'], pointers: [{ symbol: '+', to: 'a-organic', source: 1, target: 1 }] },
      { id: 'a-economic', pos: 'adj', words: ['economic'], pointers: [
        { symbol: '+', to: 'n-economy', source: 1, target: 1 }, { symbol: '\\', to: 'n-economics', source: 1, target: 1 }] },
      { id: 'n-economy', pos: 'noun', words: ['economy'], pointers: [{ symbol: '+', to: 'a-economic', source: 1, target: 1 }] },
      { id: 'n-economics', pos: 'noun', words: ['economics'] },
      { id: 'n-phone', pos: 'noun', words: ['phone', 'telephone'] },
      { id: 'n-phone2', pos: 'noun', words: ['phone'], pointers: [{ symbol: '+', to: 'a-phonetic', source: 1, target: 1 }] },
      { id: 'a-phonetic', pos: 'adj', words: ['phonetic'], pointers: [
        { symbol: '\\', to: 'n-phonetics', source: 1, target: 1 }, { symbol: '+', to: 'n-phone2', source: 1, target: 1 }] },
      { id: 'n-phonetics', pos: 'noun', words: ['phonetics'], pointers: [{ symbol: '+', to: 'a-phonetic', source: 1, target: 1 }] },
      { id: 'v-signify', pos: 'verb', words: ['signify'] },
      { id: 'n-sign', pos: 'noun', words: ['sign'], pointers: [{ symbol: '+', to: 'v-signify', source: 1, target: 1 }] },
      { id: 'a-significant', pos: 'adj', words: ['significant'], pointers: [{ symbol: '+', to: 'v-signify', source: 1, target: 1 }] },
      { id: 'n-clerk', pos: 'noun', words: ['clerk'], gloss: 'an employee who performs clerical work',
        pointers: [{ symbol: '+', to: 'a-clerical', source: 1, target: 1 }] },
      { id: 'n-clergy', pos: 'noun', words: ['clergy'], gloss: 'clergymen collectively', pointers: [{ symbol: '+', to: 'a-clerical2', source: 1, target: 1 }] },
      { id: 'a-clerical', pos: 'adj', words: ['clerical'], gloss: 'of or relating to clerks', pointers: [{ symbol: '\\', to: 'n-clerk', source: 1, target: 1 }] },
      { id: 'a-clerical2', pos: 'adj', words: ['clerical'], gloss: 'of or relating to the clergy', pointers: [{ symbol: '\\', to: 'n-clergy', source: 1, target: 1 }] },
    ], { phone: 1 });
    const wn = new WordNet(dir);
    assert.equal(wn.related('commitment', 'committee'), false, 'they derive to two senses of commit');
    assert.equal(wn.related('organism', 'organ'), false, 'organic derives from both: an adjective is no base of theirs');
    assert.equal(wn.related('economics', 'economy'), true, 'economic, "of or relating to economics", derives to both');
    assert.equal(wn.related('phonetics', 'phone'), false, 'only the sense WordNet does not count (a speech sound) meets phonetics');
    assert.equal(wn.related('significant', 'sign'), false, 'a noun and an adjective by one verb: no sibling derivations');
    assert.equal(wn.related('clerk', 'clergy'), false, "clerk's definition names clerical, which clerk derives to itself");
    assert.equal(wn.related('clerk', 'clerical'), true);
    wn.close();
  });

  test('related on WordNet 3.0: look-alikes by their letters stay apart, relatives by the graph match (wnsyn)', () => {
    const wn = new WordNet();
    assert.equal(wn.available, true, 'needs WordNet 3.0 (wordnet-base)');
    for (const [a, b] of REVIEW_LOOKALIKES) {
      assert.equal(wn.related(a, b), false, `${a} !~ ${b}`);
      assert.equal(wn.related(b, a), false, `${b} !~ ${a}`);
    }
    for (const [a, b] of [['gymnast', 'gymnastics'], ['comedian', 'comedy'], ['nature', 'natural'], ['baker', 'bakery'],
      ['economy', 'economics'], ['manager', 'management'], ['painter', 'paintings'], ['employer', 'employment']]) {
      assert.equal(wn.related(a!, b!), true, `${a} ~ ${b}`);
      assert.equal(wn.related(b!, a!), true, `${b} ~ ${a}`);
    }
    wn.close();
  });

  test('the close hypernym two nouns share: within a few steps, never near the root', () => {
    const dir = path.join(tmp.dir, 'kin');
    writePlanWordNet(dir);
    const wn = new WordNet(dir);
    assert.equal(wn.sharedHypernym('dog', 'cat'), 'carnivore');
    assert.equal(wn.sharedHypernym('dogs', 'cat'), 'carnivore', 'from an inflected form');
    assert.equal(wn.sharedHypernym('dog', 'hamster'), 'placental', 'three steps up from dog, two from hamster');
    assert.equal(wn.sharedHypernym('dog', 'hamster', { maxUp: 2 }), null, 'past the step limit');
    assert.equal(wn.sharedHypernym('table', 'sofa'), null, 'they share only "artifact", four steps below the root');
    assert.equal(wn.sharedHypernym('table', 'sofa', { minDepth: 4 }), 'artifact');
    assert.equal(wn.sharedHypernym('dog', 'dog'), null, 'one word is no kin of itself');
    assert.equal(wn.sharedHypernym('dog', 'garden'), null, 'a word WordNet does not list');
    wn.close();
  });
});
