/**
 * Rules 41 (issue #16 items 2–4): "I'm a terrible cook and a worse driver" holds no job; a negated clause ended by "now"
 * withdraws what it denies ("I don't smoke now", "I don't live with my parents now"); "I'm not a photographer anymore"
 * ends that job, held beside the main one, and no other; "I gave up my job at the bank", "i left google" end the
 * employer; "I don't drink coffee anymore", "I stopped drinking coffee" end the liking. The endings are checked through
 * consolidation (real USE-lite, real SQLite), where they must close the stored fact.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { EMBEDDED_RULES_VERSION } from '../../../pipelines/memory/embedded-extractor.js';
import type { ExtractedFact } from '../../../pipelines/memory/extractor.js';
import { judgesSkill } from '../../../pipelines/memory/kinds.js';
import { factsSaid, slotsOf } from '../../helpers/extract-said.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';

const TIME = '2026-12-04T12:00:00.000Z';

const facts = (text: string): Promise<ExtractedFact[]> => factsSaid(text, TIME, ['pat', 'Pat'], ['rae', 'Rae']);
const slots = slotsOf;

describe('rules 41: extraction', () => {
  test('the version is 41 or later', () => {
    assert.ok(EMBEDDED_RULES_VERSION >= 41);
  });

  test('how well one does a thing is no job; a job said with it still is', async () => {
    // On rules 40: "a terrible cook" the occupation and "a worse driver" a second job.
    assert.deepEqual(slots(await facts("i'm a terrible cook and a worse driver")), []);
    assert.deepEqual(slots(await facts("i'm a terrible singer")), []);
    assert.deepEqual(slots(await facts("i'm a plumber and a pretty bad singer")), ['occupation=plumber']);
    assert.deepEqual(slots(await facts("i'm a terrible cook and an even worse baker")), []);
    assert.deepEqual(slots(await facts("I'm a senior nurse")), ['occupation=senior nurse']);
    assert.deepEqual(slots(await facts("I'm a nurse and a part-time photographer")),
      ['occupation=nurse', 'occupation:part time photographer=part-time photographer']);
    assert.equal(judgesSkill('much better cook'), true);
    assert.equal(judgesSkill('trainee chef'), false);
  });

  test('a negated clause ended by "now" withdraws what it denies; "right now", "can\'t … now" do not', async () => {
    // On rules 40 each was a plain statement ("Pat doesn't work at the library now"), ending nothing.
    // Rules 41b: a value withdrawn by "now" ends that value only (the library, if held; rules-41b.test).
    assert.deepEqual(slots(await facts("i don't work at the library now")), ['works_at ended if =the library']);
    assert.deepEqual(slots(await facts("i don't live with my parents now")), ['lives_in ended if =with my parents']);
    assert.deepEqual(slots(await facts("i'm not vegan now, i eat fish again")), ['diet ended']);
    const smoke = await facts("i don't smoke now");
    assert.deepEqual(smoke.map((f) => [f.content, f.retraction]), [["Pat doesn't smoke now", true]]);
    for (const said of ["i can't talk now", "i'm busy right now", "i'm not in the mood for now", 'i know that now']) {
      assert.ok((await facts(said)).every((f) => !f.retraction), said);
    }
  });

  test('a job stopped is withdrawn by name', async () => {
    // On rules 40 "stopped being a lifeguard" was an outcome, done.
    const [f] = await facts('i stopped being a lifeguard last summer');
    assert.deepEqual([f?.slot, f?.value, f?.retraction], ['occupation', 'lifeguard', true]);
  });

  test('a job given up, packed in or left, and a firm left said in lower case, end the employer', async () => {
    for (const said of ['i gave up my job at the bank last spring', 'i packed in my job at the warehouse', "i've given up my job at the cafe"]) {
      assert.deepEqual(slots(await facts(said)), ['works_at ended'], said);
    }
    // Rules 41b: a word left in lower case ends the employer only if it is the one held (the decider compares; rules-41b.test).
    assert.deepEqual(slots(await facts('i left google in the summer')), ['works_at ended if =google']);
    assert.deepEqual(slots(await facts('i quit tesco in may')), ['works_at ended if =tesco']);
    // A school, a time or a thing left behind is no employer; a person or a place names none held, and ends nothing there.
    for (const said of ['i left school at sixteen', 'i left early because of the traffic', 'i left my phone at the bank']) {
      assert.deepEqual(slots(await facts(said)), [], said);
    }
    for (const said of ['i left jake in the end', 'i left leeds in may', 'i left town last year']) {
      assert.ok(slots(await facts(said)).every((s) => s.startsWith('works_at ended if =')), said);
    }
  });

  test('a job ending told as a condition, a maybe or a denial ends nothing', async () => {
    // Before this check "gave up my job" and "quit my job" ended the employer wherever they stood.
    for (const said of ["if I gave up my job at the bakery, we'd struggle", 'I might quit my job at the council', "I didn't quit my job, I moved teams",
      "i'd never give up my job", "if i quit tesco in may i'd have the summer off"]) {
      assert.deepEqual(slots(await facts(said)), [], said);
    }
    assert.deepEqual(slots(await facts('Honestly I quit my job at the council')), ['works_at ended']);
  });

  test('a liking given up ends it; a habit, a stop or a thing given up that is no liking do not', async () => {
    // On rules 40 each was a statement (or an outcome), and the liking stayed.
    for (const [said, slot] of [["i don't drink coffee anymore", 'preference:coffee'], ['i stopped drinking coffee in october', 'preference:coffee'],
      ['i gave up chocolate for good', 'preference:chocolate'], ['i quit coffee a month ago', 'preference:coffee'],
      ["i don't really drink tea anymore", 'preference:tea']] as const) {
      const got = await facts(said);
      assert.deepEqual(slots(got), [`${slot} ended`], said);
      assert.equal(got.find((f) => f.slot)?.kind, 'preference', said);
    }
    for (const said of ["i don't drink coffee after six", 'i stopped for coffee on the way in', 'i gave up my seat on the bus', 'i quit the gym in january']) {
      assert.ok((await facts(said)).every((f) => !f.slot?.startsWith('preference:')), said);
    }
  });
});

describe('rules 41: the LLM path is told the same', () => {
  test('facts-v10 and decide-v4 (since facts-v9, decide-v3) tell of skill that is no job, "now" endings, a job withdrawn by name, employers and likings given up', async () => {
    const { DECIDE_PROMPT_VERSION, DECIDE_SYSTEM_PROMPT, FACTS_PROMPT_VERSION, FACTS_SYSTEM_PROMPT } = await import('../../../pipelines/memory/llm-prompts.js');
    assert.ok(Number(/^facts-v(\d+)$/.exec(FACTS_PROMPT_VERSION)?.[1]) >= 10, FACTS_PROMPT_VERSION);
    assert.ok(Number(/^decide-v(\d+)$/.exec(DECIDE_PROMPT_VERSION)?.[1]) >= 4, DECIDE_PROMPT_VERSION);
    for (const said of ["I'm a terrible cook and a worse driver", "I don't smoke now", "I stopped being a lifeguard", 'I gave up my job at the bank',
      'I stopped drinking coffee']) {
      assert.ok(FACTS_SYSTEM_PROMPT.includes(said), said);
    }
    assert.ok(DECIDE_SYSTEM_PROMPT.includes('never another job'));
  });
});

describe('rules 41: endings close the stored fact (consolidation, real USE-lite and SQLite)', () => {
  const T = 't_rules41';
  let f: MemoryFixture;
  let minute = 0;
  const say = async (text: string, session = 's1'): Promise<void> => {
    minute += 1;
    await f.say(session, 'Ana', ['Ben'], text, `2026-12-04T10:${String(minute).padStart(2, '0')}:00Z`);
  };
  /** Ana's current facts, as "slot=value" (slotted) or their text. */
  const current = async (): Promise<string[]> => (await f.memory.listFacts(T, { subjectId: f.people.Ana, limit: 200 }))
    .map((x) => (x.slot ? `${x.slot}=${x.value}` : x.content));

  before(async () => {
    f = await memoryFixture(T, ['Ana', 'Ben']);
  });
  after(async () => {
    await f.close();
  });

  test('"I\'m not a photographer anymore" ends the side job and keeps the main one', async () => {
    await say("I'm a nurse and a part-time photographer.", 'jobs');
    assert.deepEqual((await current()).filter((s) => s.startsWith('occupation')).sort(),
      ['occupation:part time photographer=part-time photographer', 'occupation=nurse']);
    // On rules 40 the withdrawal took the slot `occupation`: the nurse was ended and the photographer held on.
    await say("I'm not a photographer anymore.", 'jobs');
    assert.deepEqual((await current()).filter((s) => s.startsWith('occupation')), ['occupation=nurse']);
  });

  test('the employer given up, a home denied "now", a liking given up and a habit denied "now" are closed', async () => {
    await say('I work at the bank.', 'ends');
    await say('I live with my parents.', 'ends');
    await say('I love coffee.', 'ends');
    await say('I smoke roll-ups in the evening.', 'ends');
    const held = await current();
    for (const s of ['works_at=the bank', 'lives_in=with my parents', 'preference:coffee=love']) assert.ok(held.includes(s), held.join('; '));
    assert.ok(held.some((s) => /smokes/.test(s)), held.join('; '));
    await say('i gave up my job at the bank last spring', 'ends');
    await say("i don't live with my parents now", 'ends');
    await say('i stopped drinking coffee in october', 'ends');
    await say("i don't smoke now", 'ends');
    const now = await current();
    assert.ok(!now.some((s) => s.startsWith('works_at=') || s.startsWith('lives_in=') || s === 'preference:coffee=love'), now.join('; '));
    assert.ok(!now.some((s) => /smokes roll-ups/.test(s)), now.join('; '));
  });

  test('"I live in Denver now" replaces the home, and "I\'m now retired" ends the job', async () => {
    await say('I live in Leeds.', 'moves');
    await say("I'm a teacher.", 'moves');
    await say('i live in denver now', 'moves');
    await say("i'm now retired", 'moves');
    const now = await current();
    assert.ok(now.some((s) => /^lives_in=denver$/i.test(s)), now.join('; '));
    assert.ok(!now.some((s) => s === 'lives_in=Leeds' || s === 'occupation=teacher'), now.join('; '));
  });
});
