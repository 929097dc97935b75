import assert from 'node:assert/strict';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { WordNet } from '../../../pipelines/retrieval/wordnet.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { writeWordNet } from '../../helpers/wordnet.js';

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
  });
});
