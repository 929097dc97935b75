/**
 * Rules 77 (vocatives): the readers of whom a turn is said to (`inferAddressees`) and of names no one present holds
 * (`unknownVocatives`) called `findVocatives` alone, so they missed calls the one reader (pipelines/speaker/vocatives.ts)
 * reads: "thanks ben see you friday", "ben can you tell me what I need", "Done Tom, …", and a listener called by one word
 * of a longer name ("Hi Kim." to Agent Kim). And a known listener's name closing unpunctuated speech calls them ("see you
 * tomorrow ben", "can you send it ben", "thanks for that ana"); not a name a verb or a preposition takes ("I met ben",
 * "talk to ana"), nor one inside what is said ("the ben franklin bridge"), nor one asked about ("is it ben").
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EmbeddedExtractor } from '../../../pipelines/memory/embedded-extractor.js';
import { withoutVocative } from '../../../pipelines/memory/called-listener.js';
import { inferAddressees, type PresentParticipant } from '../../../pipelines/speaker/addressee-inference.js';
import { edgeVocatives } from '../../../pipelines/speaker/vocatives.js';
import { unknownVocatives } from '../../../pipelines/interaction/session-naming.js';
import type { Participant } from '../../../graph/types.js';

/** Monday 23 November 2026. */
const MONDAY = '2026-11-23T10:00:00.000Z';
const NAMES = { sam: 'Sam', ben: 'Ben', ana: 'Ana' };

/** The facts [content, addressees] of `text` said by Sam to `to`. */
async function read(text: string, to: string[]): Promise<Array<[string, string[]]>> {
  const current = { id: 'u1', sessionId: 's', speakerId: 'sam', addresseeIds: to, text, startMs: null, endMs: null, time: MONDAY, confidence: null, audioRef: null, seq: 1 };
  return (await new EmbeddedExtractor().extract({ current, previous: [], names: NAMES })).facts.map((f) => [f.content, f.addresseeIds]);
}

const present: PresentParticipant[] = [
  { id: 'sam', name: 'Sam', aliases: [] }, { id: 'ben', name: 'Ben', aliases: [] }, { id: 'ana', name: 'Ana', aliases: [] },
  { id: 'tom', name: 'Tom Becker', aliases: [] }, { id: 'kim', name: 'Agent Kim', aliases: [] },
];
const to = (text: string): string[] => {
  const r = inferAddressees({ speakerId: 'sam', text, recent: [], present });
  return r.reason === 'vocative' ? r.addresseeIds : [];
};

describe('rules 77: addressee inference and naming read vocatives with the one reader', () => {
  test('calls findVocatives alone missed name the listener called', () => {
    // On main 94365665 each is said to the room (reason "group"), no one called.
    assert.deepEqual(to('thanks ben see you friday'), ['ben']);
    assert.deepEqual(to('ben can you tell me what I need'), ['ben']);
    assert.deepEqual(to('Done Tom, your repair is booked.'), ['tom']);
    assert.deepEqual(to('Hi Kim.'), ['kim']);
    assert.deepEqual(to('Kim!'), ['kim']);
    assert.deepEqual(to('Becker, can you check?'), ['tom']);
    // As before.
    assert.deepEqual(to('Hi Tom.'), ['tom']);
    assert.deepEqual(to('Ana, can you send the slides?'), ['ana']);
    assert.deepEqual(to('I told Ben about the trip.'), []);
  });

  test('a name a listener answers to by one word of a longer name is no unknown name; an acknowledged one is', () => {
    const people = present.map((p) => ({ ...p, tenant: 't' })) as unknown as Participant[];
    // On main: ['kim'] (only first words were held: "agent"), and [] ("Done Maria, …" was no call).
    assert.deepEqual(unknownVocatives('Hi Kim.', people), []);
    assert.deepEqual(unknownVocatives('Done Maria, your repair is booked.', people), ['maria']);
    assert.deepEqual(inferAddressees({ speakerId: 'sam', text: 'Hi Kim.', recent: [], present }).unknownVocatives, []);
    // On main: [] ("I" made the text read as typed).
    assert.deepEqual(unknownVocatives('robert can you tell me what I need', people), ['robert']);
    assert.deepEqual(unknownVocatives('Kevin, can you pass me the salt?', people), ['kevin']);
  });
});

describe('rules 77: a known listener\'s name closing unpunctuated speech calls them', () => {
  test('"see you tomorrow ben", "can you send it ben", "thanks for that ana"', async () => {
    for (const [text, who] of [['see you tomorrow ben', 'ben'], ['can you send it ben', 'ben'], ['thanks for that ana', 'ana']] as const)
      assert.deepEqual(to(text), [who], text);
    assert.equal(edgeVocatives('see you tomorrow ben', ['Ben'])[0]?.at, 'closing');
    assert.equal(withoutVocative('see you tomorrow ben', ['Ben']), 'see you tomorrow');
    assert.equal(withoutVocative('thanks for that ana', ['Ana']), 'thanks for that');
    // On main 94365665: "Sam asked Ben and Ana to send it ben", "Sam will call Ben and Ana on Tuesday … ben".
    assert.deepEqual(await read('can you send it ben', ['ben', 'ana']), [['Sam asked Ben to send it', ['ben']]]);
    assert.deepEqual(await read('i will call you tomorrow ben', ['ben', 'ana']), [['Sam will call Ben on Tuesday 24 November 2026', ['ben']]]);
    // A call alone stays what is said.
    assert.equal(withoutVocative('thank you ben', ['Ben']), 'thank you ben');
  });

  test('not a name a verb or a preposition takes, inside what is said, asked about, typed, or no listener\'s', async () => {
    for (const text of ['I met ben', 'i met ben', 'talk to ana', 'with ben', 'for ana', 'the ben franklin bridge', 'is it ben', 'are you ben', 'was that ana'])
      assert.deepEqual(to(text), [], text);
    for (const text of ['i met ben', 'talk to ana', 'with ben', 'for ana', 'is it ben'])
      assert.deepEqual(edgeVocatives(text, ['Ben', 'Ana']), [], text);
    assert.deepEqual(await read('i want to talk to ana', ['ben', 'ana']), [['Sam wants to talk to ana', ['ben', 'ana']]]);
    assert.deepEqual(await read('i bought it for ana', ['ben', 'ana']), [['Sam bought it for ana', ['ben', 'ana']]]);
    // Typed text reads a name as written ("See you tomorrow Ben." calls Ben: rules 80); a name no one present holds is
    // not read unpunctuated.
    assert.deepEqual(edgeVocatives('See you tomorrow ben.', ['Ben']), []);
    assert.deepEqual(edgeVocatives('see you tomorrow eve', ['Ben']), []);
  });
});
