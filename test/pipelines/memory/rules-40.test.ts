/**
 * Rules 40 (issue #16 items 2–4): each clause that ends a job, a home or a diet is read ("I no longer eat meat and I don't
 * work at Google anymore" ended one of the two), two jobs said together are two facts ("I'm a nurse and a part-time
 * photographer" gave the nurse alone), and "I love this city" likes the place the speaker told they are in.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EMBEDDED_RULES_VERSION, EmbeddedExtractor } from '../../../pipelines/memory/embedded-extractor.js';
import type { ExtractedFact } from '../../../pipelines/memory/extractor.js';
import { factClauses } from '../../../pipelines/memory/fact-clauses.js';
import { placeFrom } from '../../../pipelines/memory/place-here.js';
import { RuleDecider } from '../../../pipelines/memory/decide.js';
import type { Fact } from '../../../graph/memory-store.js';

const TIME = '2026-12-04T12:00:00.000Z';

async function facts(text: string, before: string[] = []): Promise<ExtractedFact[]> {
  const previous = before.map((t, i) => ({ id: `p${i}`, speakerId: 'pat', addresseeIds: ['rae'], text: t, time: '2026-12-04T11:00:00.000Z', sessionId: 's' }));
  const r = await new EmbeddedExtractor().extract({
    current: { id: 'u1', speakerId: 'pat', addresseeIds: ['rae'], text, time: TIME, sessionId: 's' } as never, previous: previous as never, names: { pat: 'Pat', rae: 'Rae' },
  });
  return r.facts;
}

/** The facts that hold a slot or end one: "slot=value" (an ending "slot ended"). */
const slots = (fs: ExtractedFact[]): string[] => fs.filter((f) => f.slot).map((f) => (f.retraction || f.value === null ? `${f.slot} ended` : `${f.slot}=${f.value}`));

describe('rules 40: endings per clause, two jobs, "this city"', () => {
  test('the version is 40 or later', () => {
    assert.ok(EMBEDDED_RULES_VERSION >= 40);
  });

  test('a diet taken up and an employer ended in one sentence are both read', async () => {
    // On rules 39 the sentence was one retraction: the diet alone, as "Pat no longer eats meat and Pat doesn't work…".
    const got = slots(await facts("I no longer eat meat and I don't work at Google anymore"));
    assert.ok(got.includes('diet=vegetarian'), got.join('; '));
    assert.ok(got.includes('works_at ended'), got.join('; '));
    const two = slots(await facts("I'm not vegetarian anymore and I don't live in Leeds anymore"));
    assert.ok(two.includes('diet ended'), two.join('; '));
    assert.ok(two.includes('lives_in ended'), two.join('; '));
  });

  test('an ending clause after another is cut as a sentence of its own; a clause that ends nothing is not', () => {
    assert.deepEqual(factClauses("I quit my job and I'm not vegan anymore"), ['I quit my job.', "I'm not vegan anymore"]);
    assert.deepEqual(factClauses("I live in Oslo, but I don't work there anymore"), ['I live in Oslo.', "I don't work there anymore"]);
    assert.deepEqual(factClauses("I don't eat much and I sleep badly"), ["I don't eat much and I sleep badly"]);
  });

  test('single endings still end their slot', async () => {
    assert.ok(slots(await facts("I'm not vegetarian anymore")).includes('diet ended'));
    assert.ok(slots(await facts('I quit my job at the council last month')).includes('works_at ended'));
    assert.ok(slots(await facts('we broke up in the summer')).includes('relation:partner ended'));
  });

  test('two jobs said together are two facts, the second held beside the first', async () => {
    // On rules 39: the occupation "nurse" alone.
    const fs = await facts("I'm a nurse and a part-time photographer");
    assert.deepEqual(slots(fs), ['occupation=nurse', 'occupation:part time photographer=part-time photographer']);
    assert.match(fs[1]!.content, /^Pat is also a part-time photographer$/);
    assert.deepEqual(slots(await facts("I'm an electrician but also a drummer")), ['occupation=electrician', 'occupation:drummer=drummer']);
    // The second phrase needs a job-holder too: "a mum", "a bit of a mess" are none.
    assert.deepEqual(slots(await facts("I'm a teacher and a mum of two")), ['occupation=teacher']);
    assert.deepEqual(slots(await facts("I'm a plumber and a bit of a perfectionist")), ['occupation=plumber']);
  });

  test('the second job is added beside the first, and a new main job replaces the first only', async () => {
    const [nurse, photographer] = await facts("I'm a nurse and a part-time photographer");
    const stored = (f: ExtractedFact, id: string): Fact => ({ id, content: f.content, speakerId: f.speakerId, addresseeIds: [], subjectId: f.subjectId,
      kind: f.kind, layer: 'profile', slot: f.slot, value: f.value, time: TIME, eventTime: null, referIds: ['u1'], validFrom: TIME, validTo: null,
      validUntil: null, planObject: null, supersedes: null, supersededBy: null, confidence: f.confidence, sessionId: 's', source: 'test', createdAt: TIME });
    const d = new RuleDecider();
    const first = stored(nurse!, 'f1');
    // Both in `occupation` (as a merge of the two would be), the second job replaced the first.
    assert.equal((await d.decide({ fact: photographer!, candidates: [{ fact: first, score: 0.5 }], retractedFacts: [] })).op, 'ADD');
    const teacher = (await facts("I'm a teacher now")).find((f) => f.slot === 'occupation')!;
    const both = [{ fact: first, score: 0.5 }, { fact: stored(photographer!, 'f2'), score: 0.5 }];
    assert.deepEqual(await d.decide({ fact: teacher, candidates: both, retractedFacts: [] }), { op: 'UPDATE', targetId: 'f1' });
  });

  test('"I love this city" likes the place told this turn or before; with none told, no liking and no home', async () => {
    // On rules 39 both were a statement "Pat loves this city".
    const same = await facts('I live in porto and I love this city');
    assert.ok(slots(same).includes('preference:porto=love'), slots(same).join('; '));
    assert.equal(same.find((f) => f.slot === 'preference:porto')?.content, 'Pat loves Porto');
    const before = await facts('I love this town', ["We moved to Whitby in the spring, it's lovely."]);
    assert.ok(slots(before).includes('preference:whitby=love'), slots(before).join('; '));
    const none = await facts('I love this city');
    assert.deepEqual(slots(none), []);
    // A home withdrawn names no place, and "this place" (often a restaurant) is left as said.
    assert.deepEqual(slots(await facts('I love this city', ["I don't live in Leeds anymore."])), []);
    assert.deepEqual(slots(await facts('I love this place', ['I live in Leeds.'])), []);
  });

  test('a place is named from a home or a stay, not from "with my parents" or a bare dwelling', () => {
    assert.equal(placeFrom([{ slot: 'lives_in', value: 'a tiny flat in hackney', retraction: false }]), 'Hackney');
    assert.equal(placeFrom([{ slot: 'lives_in', value: 'Lisbon', retraction: false }]), 'Lisbon');
    assert.equal(placeFrom([{ slot: 'lives_in', value: 'with my parents', retraction: false }]), null);
    assert.equal(placeFrom([{ slot: 'lives_in', value: 'Leeds', retraction: true }]), null);
  });
});

describe('rules 40: "I\'m …" / "I\'ve …" read in the life slots', () => {
  test('a contraction after "I" fills or ends its slot', async () => {
    // On rules 39 each was a plain statement: the patterns wanted a space between "I" and "'m" / "'ve".
    assert.ok(slots(await facts("I'm not vegan anymore")).includes('diet ended'));
    assert.ok(slots(await facts("I've got a new job as a courier")).includes('occupation=courier'));
    assert.ok(slots(await facts("I've got an allergy to shellfish")).includes('allergy:shellfish=allergic'));
    assert.ok(slots(await facts("I'm now a teacher at the primary school")).some((s) => /^occupation=teacher/.test(s)));
  });
});
