import { test } from 'node:test';
import assert from 'node:assert/strict';
import { wink } from '../../../pipelines/wink.js';
import { conjugateAfterI, reportedAsFirstPerson, reportedSubject } from '../../../pipelines/memory/grammar.js';

test('reportedSubject: who a sentence tells about when not the speaker', () => {
  const by = (s: string): string | null => reportedSubject(wink(), s);
  assert.equal(by('Our neighbours decided on a dog.'), 'neighbor');
  assert.equal(by('My sister is going to move to Lyon.'), 'sister');
  assert.equal(by('So my older brother sold his motorbike.'), 'brother');
  assert.equal(by('My brother and his wife decided to go to Spain.'), 'brother', 'the first person named');
  assert.equal(by('My parents painted their kitchen.'), 'parent');
  assert.equal(by('Anna decided on a guitar.'), 'anna', 'a name of no participant');
  for (const s of ['I decided on a dog.', 'We decided on a dog.', 'My sister and I decided to move to Lyon.', 'My partner and I decided on the sofa.',
    'My passport renewal is done.', 'My new licence arrived in the post.', 'The plumber fixed the tap.', 'Someone bought my old sofa.',
    "Let's chat soon.", 'Maybe we should get a cat.', "I'm going to run the half marathon in May.", "I've pulled out of the race.",
    "We're going to host a garden party.", "You're going to love it.", 'Yesterday was great.']) {
    assert.equal(by(s), null, s);
  }
});

test('reportedSubject: coordinated people are told about too ("Mum and Dad", "my aunt and uncle", "Tom and Sara")', () => {
  const by = (s: string): string | null => reportedSubject(wink(), s);
  assert.equal(by('Mum and Dad decided to sell their piano.'), 'mom', 'kin words said as names');
  assert.equal(by('My aunt and uncle bought an electric car.'), 'aunt', 'a bare kin word after the first conjunct');
  assert.equal(by('Anna and Tom decided on a dog.'), 'anna');
  assert.equal(by('My brother and sister-in-law repainted their kitchen.'), 'brother', 'a hyphenated kin word');
  assert.equal(by('The kids and their teacher planted a tree.'), 'kid');
  assert.equal(by('My grandparents decided to adopt a rescue dog.'), 'grandparent');
  for (const s of ['Dad and I fixed the gate.', 'Mum and me went to the beach.', 'My sister and the car are fine.', 'The car service is done.']) {
    assert.equal(by(s), null, s);
  }
});

test("reportedAsFirstPerson: a participant's possessive opening the subject is told about that participant", () => {
  const names = { p1: 'Lena', p2: 'Ben' };
  const read = (s: string) => reportedAsFirstPerson(wink(), s, names, 'p2');
  assert.deepEqual(read("Lena's parents bought a caravan last week."), { subjectId: 'p1', text: 'My parents bought a caravan last week.' });
  assert.deepEqual(read("Lena's new job starts on Monday."), { subjectId: 'p1', text: 'My new job starts on Monday.' });
  assert.equal(read("Lena's happy about it."), null, '"Lena\'s happy" is "Lena is happy"');
  assert.equal(read("Tom's parents bought a caravan."), null, 'not a participant');
  assert.equal(read("Lena's sister called me."), null, 'about the speaker too');
});

test('conjugateAfterI: with one person addressed, a present verb after "you" as a subject agrees too', () => {
  const c = (s: string, one = true): string => conjugateAfterI(wink(), s, one);
  assert.equal(c('Glad you like it'), 'Glad you likes it');
  assert.equal(c('I hope you enjoy it and I think you need a rest'), 'I hopes you enjoys it and I thinks you needs a rest');
  assert.equal(c('I will let you know'), 'I will let you know', 'an object of "let"');
  assert.equal(c('I can help you find it'), 'I can help you find it');
  assert.equal(c('Did you like it?'), 'Did you like it?', 'after an auxiliary');
  assert.equal(c('Glad you like it', false), 'Glad you like it', 'several people addressed: plural');
});

test('reportedAsFirstPerson: a participant and a person of theirs as the subject is the participant\'s "X and I"', () => {
  const names = { p1: 'Lena', p2: 'Ben' };
  const read = (s: string) => reportedAsFirstPerson(wink(), s, names, 'p2');
  assert.deepEqual(read("Lena and her brother are going to fix their grandad's shed."),
    { subjectId: 'p1', text: "My brother and I are going to fix my grandad's shed." });
  assert.deepEqual(read('Lena and her parents are flying to Rome.'), { subjectId: 'p1', text: 'My parents and I are flying to Rome.' });
  assert.equal(read('Lena and her car were stuck in the snow.'), null, 'a thing of hers is no person');
  assert.equal(read('Tom and his sister are moving.'), null, 'not a participant');
  assert.equal(read('Lena and her sister invited me.'), null, 'about the speaker too');
});
