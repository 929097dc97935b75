/**
 * trial12 F4, F5, F6 (a dental clinic's front desk, rules 66): a possessed attribute stated with a value ("my insurance is
 * Humana") is a slot, so a later value replaces it in any session; a booking moved to a new day and time is written with the
 * new time only; a booking for a dependent is moved by a move naming the thing and the person it is for.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { Fact } from '../../../graph/memory-store.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';
import { statedAttribute } from '../../../pipelines/memory/stated-attribute.js';
import { changedValue, retoldValue } from '../../../pipelines/memory/value-change.js';

/** Lines said in order, each [session, speaker, text, ISO time], every one to the others. */
type Line = [session: string, speaker: string, text: string, time: string];

const fixtures: MemoryFixture[] = [];
after(async () => {
  for (const f of fixtures) await f.close();
});

/** Every fact (history included) after `lines` were said among `people` (each to `to` where given, else to the others). */
async function said(people: string[], lines: Line[], to?: string): Promise<{ f: MemoryFixture; facts: Fact[] }> {
  const f = await memoryFixture('t-attr', people);
  fixtures.push(f);
  for (const [session, speaker, text, time] of lines) await f.say(session, speaker, to ? [to] : people.filter((p) => p !== speaker), text, time);
  return { f, facts: await f.memory.listFacts('t-attr', { includeHistory: true }) };
}

const current = (facts: Fact[]): string[] => facts.filter((x) => x.validTo === null).map((x) => x.content);
const show = (facts: Fact[]): string => JSON.stringify(facts.map((x) => [x.content, x.slot, x.validTo === null ? 'current' : 'closed']));

describe('trial12 F4: a possessed attribute changed', () => {
  test('"My insurance is Humana." then "…is now Kaiser", "I switched…", "My new…" or a plain "…is Kaiser" in another session leaves Kaiser alone current', async () => {
    // On main b4863cfa: "…'s insurance is Humana" and "…'s insurance is now Kaiser" were both current, with no slot.
    const later: Record<string, string> = { Ana: 'My insurance is now Kaiser.', Bea: 'I switched my insurance to Kaiser.', Cy: 'My new insurance is Kaiser.', Dee: 'My insurance is Kaiser.' };
    const people = Object.keys(later);
    const { f, facts } = await said([...people, 'Jo'], people.flatMap((p, i): Line[] => [
      [`s1${p}`, p, 'My insurance is Humana.', `2026-11-28T10:0${i}:00.000Z`],
      [`s2${p}`, p, later[p]!, `2026-11-28T12:0${i}:00.000Z`],
    ]), 'Jo');
    for (const p of people) {
      const now = facts.filter((x) => x.validTo === null && x.subjectId === f.people[p] && /insurance/i.test(x.content)).map((x) => x.content);
      assert.equal(now.length, 1, `${p}: ${show(facts)}`);
      assert.match(now[0]!, /Kaiser/, `${p}: ${show(facts)}`);
    }
  });
});

describe('trial12 F4: only the one attribute named', () => {
  test('another attribute, or the same one of another kind, replaces nothing', async () => {
    const { facts } = await said(['Maria', 'Jo'], [
      ['s1', 'Maria', 'My insurance is Humana.', '2026-11-28T10:00:00.000Z'],
      ['s2', 'Maria', 'My pharmacy is Walgreens.', '2026-11-28T12:00:00.000Z'],
      ['s2', 'Maria', 'My car insurance is Geico.', '2026-11-28T12:01:00.000Z'],
    ]);
    const now = current(facts);
    for (const v of ['Humana', 'Walgreens', 'Geico']) assert.ok(now.some((c) => c.includes(v)), `${v}: ${show(facts)}`);
  });
});

describe('attributes stated', () => {
  const nouns = (): boolean => true;
  test('"my X is V", "my new X is V", "my X is now V", "I switched my X to V" fill the slot X', () => {
    assert.deepEqual(statedAttribute('My insurance is Humana.', nouns), { slot: 'insurance', what: 'insurance', value: 'Humana' });
    assert.deepEqual(statedAttribute('Also, my dental insurance is Delta Dental and I have no allergies.', nouns),
      { slot: 'dental_insurance', what: 'dental insurance', value: 'Delta Dental' });
    assert.equal(statedAttribute('My new insurance is Kaiser.', nouns)?.value, 'Kaiser');
    assert.equal(statedAttribute('My insurance is now Kaiser.', nouns)?.value, 'Kaiser');
    assert.equal(statedAttribute('I switched my insurance to Kaiser.', nouns)?.slot, 'insurance');
    assert.equal(statedAttribute('My car is a Honda.', nouns)?.value, 'Honda');
  });

  test('lists, people, names, numbers, plans, dates, adjectives, denials and questions fill no attribute slot', () => {
    for (const s of ['My kids are Ana and Ben.', 'My son is Leo.', 'My name is Maria.', 'My phone number is 555 0142.',
      'My appointment is on Friday.', 'My birthday is May 3.', 'My back is really sore.', 'My insurance is not Humana.',
      'Is my insurance Humana?', 'My password is sunshine.', 'My favourite colour is blue.', 'My flight is at 9.']) {
      assert.equal(statedAttribute(s, nouns), null, s);
    }
    // An adjective is no value where the tagger says it is no noun phrase.
    assert.equal(statedAttribute('My car is broken.', (p) => p !== 'broken'), null);
  });
});

describe('trial12 F5: a booking moved to a new day and time', () => {
  test('"move my cleaning from Tuesday to Thursday December 10 at 11 am" writes 11am in place of 10am', async () => {
    // On main b4863cfa: "Sam would like to book a cleaning for Thursday 10 December 2026 at 11am at 10am".
    const { facts } = await said(['Sam', 'Assistant'], [
      ['s1', 'Sam', 'I would like to book a cleaning for next Tuesday at 10 am.', '2026-11-30T09:00:10.000Z'],
      ['s2', 'Sam', 'Can you move my cleaning from Tuesday to Thursday December 10 at 11 am?', '2026-12-02T09:30:10.000Z'],
      ['s2', 'Assistant', 'Done Sam, your cleaning is now on Thursday December 10 at 11 am.', '2026-12-02T09:30:20.000Z'],
    ]);
    assert.deepEqual(current(facts).filter((c) => /cleaning/.test(c)), ['Sam would like to book a cleaning for Thursday 10 December 2026 at 11am'], show(facts));
  });

  test('the new time replaces the old one only where the move says a time', () => {
    const move = changedValue('Sam asked Ana to move their cleaning from Tuesday 8 December 2026 to Thursday 10 December 2026 at 11am')!;
    assert.equal(retoldValue('Sam would like to book a cleaning for Tuesday 8 December 2026 at 10am', move),
      'Sam would like to book a cleaning for Thursday 10 December 2026 at 11am');
    const dayOnly = changedValue('Sam asked Ana to move their cleaning from Tuesday 8 December 2026 to Thursday 10 December 2026')!;
    assert.equal(retoldValue('Sam would like to book a cleaning for Tuesday 8 December 2026 at 10am', dayOnly),
      'Sam would like to book a cleaning for Thursday 10 December 2026 at 10am');
  });
});

describe("trial12 F6: a dependent's booking moved", () => {
  test("the receptionist's booking for Leo is replaced when Leo is booked for another day", async () => {
    // On main b4863cfa: "Jo can put Leo in on Friday 4 December 2026 at 9am" stayed current beside the Monday booking.
    const { facts } = await said(['Maria', 'Jo'], [
      ['s1', 'Maria', 'Hi, I am Maria Gomez. I want to book a checkup for my son Leo Gomez, he is seven.', '2026-12-01T10:00:10.000Z'],
      ['s1', 'Jo', 'Hi Maria, this is Jo at the front desk. I can put Leo in on Friday December 4 at 9 am.', '2026-12-01T10:00:20.000Z'],
      ['s2', 'Maria', 'Hi, Maria Gomez here. Leo has a school trip Friday, can we move his checkup to Monday December 7 at 4 pm?', '2026-12-03T12:00:00.000Z'],
      ['s2', 'Jo', 'Sure Maria, Leo is now booked for Monday December 7 at 4 pm.', '2026-12-03T12:00:10.000Z'],
    ]);
    const friday = facts.find((x) => /Friday 4 December 2026 at 9am/.test(x.content));
    assert.notEqual(friday?.validTo, null, show(facts));
    assert.deepEqual(current(facts).filter((c) => /December/.test(c)), ['Jo can put Leo in on Monday 7 December 2026 at 4pm'], show(facts));
  });

  test('"move Leo\'s checkup to Monday" moves the booking naming Leo\'s checkup, not one of another person', async () => {
    const { facts } = await said(['Maria', 'Jo'], [
      ['s1', 'Jo', 'Leo has a checkup on Friday December 4 at 9 am.', '2026-12-01T10:00:20.000Z'],
      ['s1', 'Jo', 'Mia has a checkup on Friday December 4 at 10 am.', '2026-12-01T10:00:30.000Z'],
      ['s2', 'Maria', "Can you move Leo's checkup to Monday December 7 at 4 pm?", '2026-12-03T12:00:10.000Z'],
    ]);
    const now = current(facts).filter((c) => /December/.test(c));
    assert.ok(now.some((c) => /Mia.*Friday 4 December 2026 at 10am/.test(c)), show(facts));
    assert.ok(!now.some((c) => /Leo.*Friday/.test(c)), show(facts));
    assert.ok(now.some((c) => /Leo.*Monday 7 December 2026 at 4pm/.test(c)), show(facts));
  });
});
