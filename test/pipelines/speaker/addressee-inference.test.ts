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
  test('a mention is not a vocative: with three or more, said to the room', () => {
    assert.deepEqual(inferAddressees(ctx('cy', 'I told Ben about the trip yesterday.', ['ana', 'ben', 'ana'])), { addresseeIds: ['ana', 'ben'], reason: 'group', unknownVocatives: [] });
  });
  test('with three or more, a turn with no cue for one listener is said to the room, not to the previous speaker (trial10 F6)', () => {
    const four: PresentParticipant[] = ['ana', 'ben', 'chidi', 'dana'].map((id) => ({ id, name: id.charAt(0).toUpperCase() + id.slice(1), aliases: [] }));
    const at = (speakerId: string, text: string, recent: Array<[string, string]>) =>
      inferAddressees({ speakerId, text, recent: recent.map(([s, t]) => ({ speakerId: s, text: t })), present: four });
    // Fails on main (['dana'], 'reply'): "addressee = previous speaker".
    assert.deepEqual(at('ana', "We're targeting March 14 for the launch.", [['dana', 'The designs are done.']]),
      { addresseeIds: ['ben', 'chidi', 'dana'], reason: 'group', unknownVocatives: [] });
    assert.deepEqual(at('ana', "Okay, we'll use ClickHouse.", [['chidi', 'ClickHouse is faster for analytics.']]).addresseeIds, ['ben', 'chidi', 'dana']);
    // A cue for one listener: "you" said to the one who just spoke, an answer to their question, a vocative.
    assert.deepEqual(at('ana', 'You are right about that.', [['chidi', 'ClickHouse is faster.']]), { addresseeIds: ['chidi'], reason: 'reply', unknownVocatives: [] });
    assert.deepEqual(at('ana', 'Friday at the latest.', [['ben', 'When will the checklist be ready?']]).addresseeIds, ['ben']);
    assert.deepEqual(at('ana', 'Dana, can you take the vendor contract?', [['ben', 'Who takes it?']]).addresseeIds, ['dana']);
    // "you know", "thank you", "see you" are no cue; nor is the speaker's own question before.
    assert.deepEqual(at('ana', 'So, you know, the launch slips a week.', [['ben', 'Noted.']]).reason, 'group');
    assert.deepEqual(at('ana', 'The launch slips a week.', [['ben', 'Noted.'], ['ana', 'Any news?']]).reason, 'group');
  });
  test('an answer goes to the asker past the answerer\'s own turns, a later sentence and a backchannel (review12 F6)', () => {
    // Ana and Ben talk; spk3 is a voice split or someone present a while ago.
    const three: PresentParticipant[] = [{ id: 'ana', name: 'Ana', aliases: [] }, { id: 'ben', name: 'Ben', aliases: [] }, { id: 'spk3', name: null, aliases: [] }];
    const at = (text: string, recent: Array<[string, string]>) =>
      inferAddressees({ speakerId: 'ana', text, recent: recent.map(([s, t]) => ({ speakerId: s, text: t })), present: three });
    const toBen = { addresseeIds: ['ben'], reason: 'reply', unknownVocatives: [] };
    // Each was ['ben', 'spk3'], 'group' before the fix.
    assert.deepEqual(at("I'll send the deck tonight.", [['ben', 'Can you send the deck?'], ['ana', 'Sure.']]), toBen);
    assert.deepEqual(at("Sure, I'll send it.", [['ben', 'Can you send the deck? It is due Friday.']]), toBen);
    assert.deepEqual(at("Sure, I'll send it.", [['ben', 'Can you send the deck?'], ['spk3', 'Uh-huh.']]), toBen);
    // A statement after no question stays the room's; a substantive turn in between is the one replied to.
    assert.deepEqual(at("I'll send the deck tonight.", [['ben', 'The deck is due Friday.'], ['ana', 'Right.']]).reason, 'group');
    assert.deepEqual(at("I'll send the deck tonight.", [['ben', 'Can you send the deck?'], ['spk3', 'The venue is booked.']]).reason, 'group');
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
    assert.deepEqual(inferAddressees(ctx('ana', 'And one more thing for you.', ['cy', 'ben', 'ana', 'ana'])).addresseeIds, ['ben']);
  });
  test('two-party exchange: the other party, even with no history', () => {
    assert.deepEqual(inferAddressees(ctx('ana', 'Shall we go?', [], present.slice(0, 2))), { addresseeIds: ['ben'], reason: 'two-party', unknownVocatives: [] });
  });
  test('nobody when alone or no one else spoke yet', () => {
    assert.deepEqual(inferAddressees(ctx('ana', 'Testing.', [], present.slice(0, 1))).reason, 'none');
    assert.deepEqual(inferAddressees(ctx('ana', 'Hello?', ['ana'], present.slice(0, 1))).addresseeIds, []);
    assert.deepEqual(inferAddressees(ctx('ana', 'Hello?', ['ana'])).reason, 'group', 'three present: said to the room');
  });
  test('the speaker is never their own addressee; unknown vocatives are reported for naming', () => {
    const r = inferAddressees(ctx('ana', 'Thanks, Dora.', ['cy']));
    assert.deepEqual(r, { addresseeIds: ['cy'], reason: 'reply', unknownVocatives: ['Dora'] });
    assert.deepEqual(inferAddressees(ctx('ben', 'Ben, you said that yourself.', ['cy'])).addresseeIds, ['cy']);
  });
});
