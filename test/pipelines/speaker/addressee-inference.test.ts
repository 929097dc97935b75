import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { inferAddressees, type PresentParticipant } from '../../../pipelines/speaker/addressee-inference.js';
import { pronunciations } from '../../../pipelines/speaker/phonetic.js';

const present: PresentParticipant[] = [
  { id: 'ana', name: 'Ana Silva', aliases: ['Annie'] },
  { id: 'ben', name: 'Ben', aliases: [] },
  { id: 'cy', name: null, aliases: [] },
];
const ctx = (speakerId: string, text: string, recent: string[] = [], who = present) => ({ speakerId, text, recent: recent.map((s) => ({ speakerId: s })), present: who });

describe('inferAddressees', () => {
  test('vocative at the start, at the end, after thanks, by alias, in lower case', () => {
    assert.deepEqual(inferAddressees(ctx('cy', 'Ana, can you send the slides?', ['ben'])).addresseeIds, ['ana']);
    assert.deepEqual(inferAddressees(ctx('cy', 'Did you book it, Ben?', ['ana'])), { addresseeIds: ['ben'], reason: 'vocative', unknownVocatives: [] });
    assert.deepEqual(inferAddressees(ctx('ben', 'thanks annie', ['cy'])).addresseeIds, ['ana']);
    assert.deepEqual(inferAddressees(ctx('cy', 'ana and ben, lunch is ready')).addresseeIds.sort(), ['ana', 'ben']);
  });
  test('a mention is not a vocative: falls back to replying to the previous speaker', () => {
    assert.deepEqual(inferAddressees(ctx('cy', 'I told Ben about the trip yesterday.', ['ana', 'ben', 'ana'])), { addresseeIds: ['ana'], reason: 'reply', unknownVocatives: [] });
  });
  test('group address goes to everyone present but the speaker', () => {
    const r = inferAddressees(ctx('ben', 'Okay everyone, let us start.', ['ana']));
    assert.deepEqual([r.addresseeIds.sort(), r.reason], [['ana', 'cy'], 'group']);
    assert.equal(inferAddressees(ctx('ana', 'What do you guys think?')).reason, 'group');
  });
  test('an unknown first name called ("Kevin, …") is not a listener named otherwise, but may be an unnamed one', () => {
    const two = present.filter((p) => p.id !== 'cy');
    assert.deepEqual(inferAddressees(ctx('ana', 'Kevin, can you pass the salt?', [], two)), { addresseeIds: [], reason: 'none', unknownVocatives: ['Kevin'] });
    assert.deepEqual(inferAddressees(ctx('cy', 'Kevin, can you pass the salt?', ['ana', 'ben'])).addresseeIds, [], 'nor the previous speaker, named Ben');
    assert.deepEqual(inferAddressees(ctx('ben', 'Kevin, can you pass the salt?', ['cy'])).addresseeIds, ['cy'], 'the unnamed voice may be Kevin');
    assert.deepEqual(inferAddressees(ctx('ben', 'Silva, can you pass the salt?', [], two)).addresseeIds, ['ana'], 'another word of her name');
    assert.deepEqual(inferAddressees(ctx('ben', 'Great, thanks.', [], two)).addresseeIds, ['ana'], 'no listed first name: still the other party');
  });
  test('a called name that sounds like the listener\'s is their name misheard ("Ken" for "Ben")', { skip: pronunciations('ben').length === 0 && 'no pronunciation dictionary (pocketsphinx-en-us)' }, () => {
    const two = present.filter((p) => p.id !== 'cy');
    assert.deepEqual(inferAddressees(ctx('ana', 'Ken, can you pass the salt?', [], two)).addresseeIds, ['ben']);
    assert.deepEqual(inferAddressees(ctx('cy', 'Ken, can you pass the salt?', ['ana', 'ben'])).addresseeIds, ['ben'], 'the previous speaker too');
    assert.deepEqual(inferAddressees(ctx('ana', 'Kevin, can you pass the salt?', [], two)).addresseeIds, [], 'a name that does not sound like his is someone else');
  });
  test('reply skips the speaker’s own previous turns', () => {
    assert.deepEqual(inferAddressees(ctx('ana', 'And one more thing.', ['cy', 'ben', 'ana', 'ana'])).addresseeIds, ['ben']);
  });
  test('two-party exchange: the other party, even with no history', () => {
    assert.deepEqual(inferAddressees(ctx('ana', 'Shall we go?', [], present.slice(0, 2))), { addresseeIds: ['ben'], reason: 'two-party', unknownVocatives: [] });
  });
  test('nobody when alone or no one else spoke yet', () => {
    assert.deepEqual(inferAddressees(ctx('ana', 'Testing.', [], present.slice(0, 1))).reason, 'none');
    assert.deepEqual(inferAddressees(ctx('ana', 'Hello?', ['ana'])).addresseeIds, []);
  });
  test('the speaker is never their own addressee; unknown vocatives are reported for naming', () => {
    const r = inferAddressees(ctx('ana', 'Thanks, Dora.', ['cy']));
    assert.deepEqual(r, { addresseeIds: ['cy'], reason: 'reply', unknownVocatives: ['Dora'] });
    assert.deepEqual(inferAddressees(ctx('ben', 'Ben, you said that yourself.', ['cy'])).addresseeIds, ['cy']);
  });
});
