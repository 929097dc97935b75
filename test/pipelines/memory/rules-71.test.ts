/**
 * Rules 71 (vocunify): one reader of vocatives (pipelines/speaker/vocatives.ts). Where the readers disagreed, a sentence
 * that is a call and nothing else ("Hi Tom.", "Thanks Tom!", "Tom!") or a call before no words ("Tom, 56?") was a
 * vocative to `findVocatives` but not to the reader that narrows a turn to the one addressee called; now it is to both.
 * Unpunctuated speech calls a listener the session knows ("tom can you send me the invoice", "thanks ben see you…").
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EmbeddedExtractor } from '../../../pipelines/memory/embedded-extractor.js';
import { calledAddressee } from '../../../pipelines/memory/called-addressee.js';
import { calledNames, withoutVocative } from '../../../pipelines/memory/called-listener.js';
import { edgeVocatives, findVocatives } from '../../../pipelines/speaker/vocatives.js';

/** Monday 23 November 2026. */
const MONDAY = '2026-11-23T10:00:00.000Z';
const NAMES = { sam: 'Sam', maria: 'Maria', tom: 'Tom', ben: 'Ben', may: 'May' };

function input(text: string, to: string[]) {
  return {
    current: { id: 'u1', sessionId: 's', speakerId: 'sam', addresseeIds: to, text, startMs: null, endMs: null, time: MONDAY, confidence: null, audioRef: null, seq: 1 },
    previous: [], names: NAMES,
  };
}
/** The facts [content, addressees] of `text` said by Sam to `to`. */
async function read(text: string, to: string[] = ['maria', 'tom']): Promise<Array<[string, string[]]>> {
  return (await new EmbeddedExtractor().extract(input(text, to))).facts.map((f) => [f.content, f.addresseeIds]);
}

describe('rules 71: a sentence that only calls an addressee narrows the turn to them', () => {
  test('"Hi Tom.", "Thanks Tom!", "Tom!", "Tom, 56?" call Tom, as findVocatives reads them', async () => {
    for (const call of ['Hi Tom.', 'Thanks Tom!', 'Tom!']) {
      assert.deepEqual(findVocatives(call), ['Tom']);
      // On main 674fd1be: "Sam changed Maria and Tom's order to size 56", said to both.
      assert.deepEqual(await read(`${call} I changed your order to size 56.`), [["Sam changed Tom's order to size 56", ['tom']]], call);
    }
    assert.deepEqual(findVocatives('Tom, 56?'), ['Tom']);
    assert.equal(calledAddressee(input('Tom, 56? I changed your order to that size.', ['maria', 'tom'])), 'tom');
  });

  test('a bare name as a sentence is an answer, not a call; a call alone stays in what is said', async () => {
    assert.equal(calledAddressee(input('Who took the keys? Tom.', ['maria', 'tom'])), null);
    assert.equal(calledAddressee(input('Hi Tom. Maria, I will call you tomorrow.', ['maria', 'tom'])), null);
    assert.equal(withoutVocative('Thanks Tom!', ['Tom']), 'Thanks Tom!');
    assert.deepEqual(edgeVocatives('Thanks Tom!', ['Tom']), [{ start: 0, end: 11, at: 'whole' }]);
  });
});

describe('rules 71: unpunctuated vocatives of names the session knows', () => {
  test('"ben can you send me the draft", "thanks tom …": the call is cut and narrows "you"', async () => {
    // On main 674fd1be: "Ben can they send Sam the draft", "Tom can Maria and they send Sam the invoice".
    assert.deepEqual(await read('ben can you send me the draft', ['ben']), [['Sam asked Ben to send Sam the draft', ['ben']]]);
    assert.deepEqual(await read('tom can you send me the invoice'), [['Sam asked Tom to send Sam the invoice', ['tom']]]);
    assert.deepEqual(await read('thanks tom i will call you tomorrow'), [['Sam will call Tom on Tuesday 24 November 2026', ['tom']]]);
    assert.equal(calledAddressee(input('thanks tom see you friday', ['maria', 'tom'])), 'tom');
    assert.equal(withoutVocative('thanks ben see you friday', ['Ben']), 'see you friday');
    assert.deepEqual(edgeVocatives('ok ben what do you think', ['Ben']), [{ start: 0, end: 7, at: 'opening' }]);
  });

  test('not a name inside what is said, a name that is also a word, typed text, or a name no one present holds', async () => {
    assert.deepEqual(edgeVocatives('ben is late again', ['Ben']), []);
    assert.deepEqual(edgeVocatives('ben did it yesterday', ['Ben']), []);
    // "hello may i ask you something": May is a listener, but "may" unpunctuated is read as the word.
    assert.deepEqual(edgeVocatives('hello may i ask you something', ['May']), []);
    assert.deepEqual(edgeVocatives('may can you send it', ['May']), []);
    // Typed text is read by its punctuation, as before.
    assert.deepEqual(edgeVocatives('Thanks Ben see you Friday.', ['Ben']), []);
    // Said to no one present: only names findVocatives reads are called ("thanks eve see you friday" calls no one).
    assert.deepEqual(calledNames({ ...input('thanks eve see you friday', []) }), []);
    assert.equal(calledAddressee(input('thanks eve see you friday', ['maria', 'tom'])), null);
  });
});
