/**
 * Rules 38, sentences as a recogniser writes them (issue #16 item 2): a lower-case "i" is the pronoun, fillers and
 * restarts are left out, a liking held for now is its own clause's, a thing pointed at ("that idea") is no lasting
 * liking, "I'll never…" undertakes nothing, "I don't eat meat anymore" takes up a diet, a month told of the past lies
 * behind.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EMBEDDED_RULES_VERSION, EmbeddedExtractor } from '../../../pipelines/memory/embedded-extractor.js';
import type { ExtractedFact } from '../../../pipelines/memory/extractor.js';
import { findDates } from '../../../pipelines/memory/relative-date.js';
import { withCapitalI, withoutFillers } from '../../../pipelines/memory/spoken-text.js';

/** Tuesday 1 December 2026, 12:00 UTC. */
const TUESDAY = '2026-12-01T12:00:00.000Z';

async function facts(text: string): Promise<ExtractedFact[]> {
  const r = await new EmbeddedExtractor().extract({
    current: { id: 'u1', speakerId: 'pat', addresseeIds: ['rae'], text, time: TUESDAY, sessionId: 's' } as never, previous: [], names: { pat: 'Pat', rae: 'Rae' },
  });
  return r.facts;
}

const slotted = (fs: ExtractedFact[]): string[] => fs.filter((f) => f.slot).map((f) => `${f.slot}=${f.value}`).sort();

describe('rules 38: spoken, lower-case sentences', () => {
  test('the version is 38 or later', () => {
    assert.ok(EMBEDDED_RULES_VERSION >= 38);
  });

  test('a lower-case "i" is the pronoun: its verb agrees in the fact', async () => {
    assert.equal(withCapitalI("i think i'm late, i.e. very late, i've got wifi"), "I think I'm late, i.e. very late, I've got wifi");
    const [f] = await facts('i think i need a new phone');
    // On main: "Pat think Pat need a new phone".
    // Named once since rules 45: "they need", the verb agreeing with the pronoun.
    assert.match(f?.content ?? '', /^Pat thinks they need a new phone/);
  });

  test('fillers, laughs and restarts are not written into facts', async () => {
    assert.equal(withoutFillers('um so the the bus was late haha'), 'so the bus was late');
    assert.equal(withoutFillers('the umbrella, uh, is humming'), 'the umbrella, is humming');
    assert.equal(withoutFillers('so we, we went home'), 'so we went home');
    assert.equal(withoutFillers('you, um, you know the place'), 'you know the place');
    // review12: a "you" said twice with no filler between is two words.
    assert.equal(withoutFillers('I told you, you should go to the doctor'), 'I told you, you should go to the doctor');
    assert.equal(withoutFillers('Thank you, you saved my weekend'), 'Thank you, you saved my weekend');
    const all = await facts('uh i i teach maths, um, at the high school lol');
    assert.ok(all.length > 0);
    for (const f of all) assert.doesNotMatch(f.content, /\b(?:uh|um|lol|I I|Pat Pat)\b/, f.content);
  });

  test('a liking held for now is its own clause\'s, beside a lasting liking or a job', async () => {
    // On main: one liking held for now, of rock, from the whole sentence.
    assert.deepEqual(slotted(await facts("I love rock, but for now I'm into salsa")), ['preference:for_now=salsa', 'preference:rock=love']);
    assert.deepEqual(slotted(await facts("i adore opera, but these days i'm listening to jazz")), ['preference:for_now=jazz', 'preference:opera=love']);
    // A job said before it is kept, and the liking is held for now.
    assert.deepEqual(slotted(await facts('i\'m a chef, and these days i\'m drinking oat milk')), ['occupation=chef', 'preference:for_now=oat milk']);
    // One clause, or no liking held for now: read whole as before.
    assert.deepEqual(slotted(await facts('For now I prefer green tea')), ['preference:for_now=green tea']);
  });

  test('a thing pointed at in the talk ("that idea", "this plan") is an opinion of the moment, no lasting liking', async () => {
    for (const text of ['i like that idea', 'I love this plan, honestly']) {
      const all = await facts(text);
      assert.ok(all.every((f) => f.kind !== 'preference' && !f.slot), `${text}: ${JSON.stringify(all)}`);
    }
    assert.deepEqual(slotted(await facts('I like jazz')), ['preference:jazz=like']);
  });

  test('"I\'ll never…" or "I will not…" undertakes nothing; "I\'ll send you…" still does', async () => {
    for (const text of ["I'll probably never finish that course", 'I will not lend him money']) {
      const all = await facts(text);
      assert.ok(all.every((f) => f.kind !== 'commitment' && f.kind !== 'plan'), `${text}: ${JSON.stringify(all)}`);
    }
    assert.ok((await facts("I'll send you the draft")).some((f) => f.kind === 'commitment'));
  });

  test('meat given up told as a negation is a diet taken up, not a withdrawal; a custom is no diet', async () => {
    for (const text of ["i don't eat any meat anymore", 'I no longer eat meat']) {
      const diet = (await facts(text)).find((f) => f.slot === 'diet');
      assert.equal(diet?.value, 'vegetarian', text);
      assert.equal(diet?.retraction, false, text);
      assert.doesNotMatch(diet!.content, /\beat meat/, 'the verb agrees: "no longer eats meat"');
    }
    assert.ok(!(await facts("I don't eat meat on Fridays")).some((f) => f.slot === 'diet'));
    for (const habit of ["I don't eat meat much", "I don't eat meat often these days", "we don't eat meat every day"]) {
      assert.ok(!(await facts(habit)).some((f) => f.slot === 'diet'), habit);
    }
  });

  test('a month told of the past, named without its year, lies behind even when next year\'s is nearer', async () => {
    // Told on Tuesday 1 December 2026. On main: 2027-05 and 2027-03, the nearer May and March.
    assert.deepEqual(findDates('we went camping in May', TUESDAY).map((d) => d.date), ['2026-05']);
    assert.deepEqual(findDates('I moved here on March 3rd', TUESDAY).map((d) => d.date), ['2026-03-03']);
    const [job] = (await facts('i work as a bus driver now, i started in march')).filter((f) => f.slot === 'occupation');
    assert.match(job?.content ?? '', /March 2026/);
    // Told ahead, or with its year, as before.
    assert.deepEqual(findDates('I start in March', TUESDAY).map((d) => d.date), ['2027-03']);
    assert.deepEqual(findDates('I was there in May 2025', TUESDAY).map((d) => d.date), ['2025-05']);
  });
});

describe('rules 38 review fixes', () => {
  test('an acronym is no filler, and "a a" names a grade', () => {
    assert.equal(withoutFillers('I study at UM now'), 'I study at UM now');
    assert.equal(withoutFillers('I work at UH.'), 'I work at UH.');
    assert.equal(withoutFillers('Um, uumm I got a a on my test'), 'I got a a on my test');
  });

  test('a 29 February told of the past in the year after a leap year is that year\'s 28 February', () => {
    // Told in January 2028: the nearest 29 February is this year's, told of the past it is last year's, which had none.
    assert.deepEqual(findDates('we married on February 29th', '2028-01-10T12:00:00.000Z').map((d) => d.date), ['2027-02-28']);
  });
});
