/**
 * Rules 80 (text): courtesy and the listener in fact text. A "please" closing a request said as "I would like…", "I'd
 * like…", "I want…" is a courtesy; the "you" of "a thank you", "a thank-you note", "thank you card" and "say thank you"
 * is no listener; and a name closing typed text after a word that ends a clause ("See you tomorrow Ben.") calls the
 * listener as it does in unpunctuated speech (rules 77). Each fails on main 8c75e332 (what it did there in the comment).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ExtractedFact } from '../../../pipelines/memory/extractor.js';
import { EmbeddedExtractor } from '../../../pipelines/memory/embedded-extractor.js';
import { withoutCourtesyTail } from '../../../pipelines/memory/call-phrases.js';
import { withoutVocative } from '../../../pipelines/memory/called-listener.js';
import { inferAddressees, type PresentParticipant } from '../../../pipelines/speaker/addressee-inference.js';
import { edgeVocatives, findVocatives } from '../../../pipelines/speaker/vocatives.js';
import { unknownVocatives } from '../../../pipelines/interaction/session-naming.js';
import type { Participant } from '../../../graph/types.js';
import { factsSaid } from '../../helpers/extract-said.js';

const MONDAY = '2026-12-07T10:00:00.000Z';
/** The facts' texts of `text` said by Maria Gomez to Receptionist Jo. */
const read = async (text: string): Promise<string[]> =>
  (await factsSaid(text, MONDAY, ['maria', 'Maria Gomez'], ['jo', 'Receptionist Jo'])).map((f: ExtractedFact) => f.content);

describe('rules 80: a "please" closing a request', () => {
  test('"I would like…", "I\'d like…", "I want…" with "please" is a request: the "please" goes', async () => {
    // On main: "Maria Gomez would like a table for two please".
    assert.deepEqual(await read('I would like a table for two please'), ['Maria Gomez would like a table for two']);
    assert.equal(withoutCourtesyTail('I would like a table for two please'), 'I would like a table for two');
    assert.equal(withoutCourtesyTail("I'd like the salmon please."), "I'd like the salmon.");
    assert.equal(withoutCourtesyTail('I want a refund please'), 'I want a refund');
    assert.equal(withoutCourtesyTail('We would like two coffees thanks'), 'We would like two coffees');
    // As before: "can I have", "could you".
    assert.equal(withoutCourtesyTail('Can I have the bill please'), 'Can I have the bill');
    assert.equal(withoutCourtesyTail('Could you call me back please'), 'Could you call me back');
  });

  test('a "please" the sentence needs stays', () => {
    for (const s of ['She is hard to please.', 'The kids were eager to please', 'I got a card that said many thanks', 'I sent her flowers as thanks.',
      'Cheers', 'I want to please her', 'I want to please', 'I would like to say thank you', 'I would like a thank you']) assert.equal(withoutCourtesyTail(s), s);
  });
});

describe('rules 80: the "you" of "a thank you" is no listener', () => {
  test('"a thank you", "a thank-you note", "thank you card", "say thank you to"', async () => {
    // On main: "Maria Gomez needs to write Grandma a thank Receptionist Jo".
    assert.deepEqual(await read('I need to write Grandma a thank you.'), ['Maria Gomez needs to write Grandma a thank you']);
    // On main: "…a thank-Receptionist Jo note" was already right; "thank Receptionist Jo cards".
    assert.deepEqual(await read('I need to write a thank-you note to Grandma.'), ['Maria Gomez needs to write a thank-you note to Grandma']);
    assert.deepEqual(await read('I bought some thank you cards for the wedding.'), ['Maria Gomez bought some thank you cards for the wedding']);
    assert.deepEqual(await read('I owe Grandma a big thank you.'), ['Maria Gomez owes Grandma a big thank you']);
    // On main: "Maria Gomez should say thank Receptionist Jo to Grandma".
    assert.deepEqual(await read('I should say thank you to Grandma.'), ['Maria Gomez should say thank you to Grandma']);
  });

  test('"thank you" said to the listener is still the listener', async () => {
    assert.deepEqual(await read('I want to thank you for the flowers.'), ['Maria Gomez wants to thank Receptionist Jo for the flowers']);
  });
});

/** Monday 23 November 2026. */
const NOV = '2026-11-23T10:00:00.000Z';
const NAMES = { sam: 'Sam', ben: 'Ben', ana: 'Ana' };
/** The facts [content, addressees] of `text` said by Sam to `to`. */
async function told(text: string, to: string[]): Promise<Array<[string, string[]]>> {
  const current = { id: 'u1', sessionId: 's', speakerId: 'sam', addresseeIds: to, text, startMs: null, endMs: null, time: NOV, confidence: null, audioRef: null, seq: 1 };
  return (await new EmbeddedExtractor().extract({ current, previous: [], names: NAMES })).facts.map((f) => [f.content, f.addresseeIds]);
}
const present: PresentParticipant[] = [{ id: 'sam', name: 'Sam', aliases: [] }, { id: 'ben', name: 'Ben', aliases: [] }, { id: 'ana', name: 'Ana', aliases: [] }];
const to = (text: string): string[] => {
  const r = inferAddressees({ speakerId: 'sam', text, recent: [], present });
  return r.reason === 'vocative' ? r.addresseeIds : [];
};

describe('rules 80: a name closing typed text after a word that ends a clause calls the listener', () => {
  test('"See you tomorrow Ben.", "Can you send it Ben!", "Thanks for that Ana"', async () => {
    // On main: [] for each (read only unpunctuated, rules 77).
    assert.deepEqual(findVocatives('See you tomorrow Ben.'), ['Ben']);
    assert.deepEqual(findVocatives('Can you send it Ben!'), ['Ben']);
    assert.deepEqual(findVocatives('Thanks for that Ana', new Set(['ana'])), ['ana']);
    assert.equal(edgeVocatives('See you tomorrow Ben.', ['Ben'])[0]?.at, 'closing');
    assert.equal(withoutVocative('See you tomorrow Ben.', ['Ben']), 'See you tomorrow.');
    for (const [text, who] of [['See you tomorrow Ben.', 'ben'], ['Can you send it Ben!', 'ben'], ['Thanks for that Ana', 'ana']] as const)
      assert.deepEqual(to(text), [who], text);
    // On main: "Sam asked Ben and Ana to send it Ben", "Sam will call Ben and Ana on Tuesday 24 November 2026 Ben".
    // Read as the same call set off by a comma.
    assert.deepEqual(await told('Can you send it Ben.', ['ben', 'ana']), await told('Can you send it, Ben.', ['ben', 'ana']));
    assert.deepEqual((await told('Can you send it Ben.', ['ben', 'ana']))[0]?.[1], ['ben']);
    assert.deepEqual(await told('I will call you tomorrow Ben.', ['ben', 'ana']), [['Sam will call Ben on Tuesday 24 November 2026', ['ben']]]);
    // A name no one present holds, called so in typed text.
    const people = present.map((p) => ({ ...p, tenant: 't' })) as unknown as Participant[];
    assert.deepEqual(unknownVocatives('See you tomorrow Kevin.', people), ['kevin']);
  });

  test('not after a verb or a preposition, asked about, nor unpunctuated with a name no one holds', async () => {
    for (const text of ['I saw Ben.', 'I went with Ben.', 'I met Ben!', 'Talk to Ana.', 'Is it Ben.', 'Was that Ana!'])
      assert.deepEqual(findVocatives(text), [], text);
    // A name no one is known by: a listed first name, no day or month, not after a determiner.
    for (const text of ['I will be there this Sunday.', 'See you Friday.', 'See you Sunday.', 'I visited them this April.', 'I saw that Madonna.',
      'I read it today Times.']) assert.deepEqual(findVocatives(text), [], text);
    for (const text of ['I saw Ben.', 'I went with Ben.', 'Is it Ben.'])
      assert.deepEqual(edgeVocatives(text, ['Ben']), [], text);
    for (const text of ['I saw Ben.', 'I went with Ben.']) assert.deepEqual(to(text), [], text);
    assert.deepEqual(await told('I went to the cinema with Ben.', ['ben', 'ana']), [['Sam went to the cinema with Ben', ['ben', 'ana']]]);
    // Unpunctuated speech reads only a listener's name (rules 77): an unknown lower-case name is no call.
    assert.deepEqual(findVocatives('see you tomorrow kevin'), []);
  });
});
