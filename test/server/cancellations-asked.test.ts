import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ParleyClient, type MemoryItem } from '../../clients/typescript/src/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { at, JO, postCalls, ROUTINE_CALLS, show, type Call } from '../helpers/front-desk.js';

// trial12 F11 (a dental front desk's simulated week): two callers cancel their cleanings, one in a comma-joined turn,
// among the week's other calls; at the end of the week the desk asks "did anyone cancel this week?". Before, the
// comma-joined turn gave no fact, and Sam's dated "I need to cancel…" was a plan of its own that settled nothing.
const CALLS: Call[] = [
  ...ROUTINE_CALLS,
  ['wed-sam', at(2, 9.5), [['Sam Lee', 'I need to cancel my cleaning on Thursday, something came up, sorry.'], [JO, "No problem, I've noted it."]]],
  ['wed-maria', at(2, 14), [['Maria Gomez', "hi, it's Maria, cancel my Thursday cleaning, thanks"], [JO, 'Done, take care.']]],
  ['mon-tara', at(0, 13), [['Tara Bell', 'Can I come in this week for a whitening?'], [JO, 'Yes, Wednesday at 3pm works.']]],
  ['wed-ali', at(2, 10), [['Ali Khan', 'Is Dr Lee in this week?'], [JO, 'She is in every day this week except Thursday.']]],
  ['wed-tara', at(2, 16), [['Tara Bell', 'My tooth still hurts after the whitening.'], [JO, "I'll ask Dr Lee to call you."]]],
  ['thu-ben', at(3, 9), [['Ben Ortiz', 'Can you send me the bill for this week?'], [JO, "Sure, I'll email it today."]]],
  ['thu-kim', at(3, 15), [['Kim Sato', 'My son is nervous about his checkup this week.'], [JO, "Don't worry, Dr Lee is very gentle."]]],
  ['fri-ali', at(4, 9), [['Ali Khan', 'I need a new appointment next week.'], [JO, 'Monday at 11am?']]],
];
/** The end of that week. */
const FRIDAY = at(4, 17);

describe('cancellations heard at a front desk over a week are found by "did anyone cancel this week?" (trial12 F11)', () => {
  let t: TestApp;
  let api: ParleyClient;

  before(async () => {
    t = await startTestApp();
    api = new ParleyClient({ baseUrl: t.httpUrl });
    await postCalls(t, api, CALLS);
  });
  after(async () => {
    await t?.close();
  });

  test('Maria\'s comma-joined cancellation is a fact, and Sam\'s ends his booking', async () => {
    const current = (await api.memories({ layer: 'fact', limit: 100 })).map((m) => m.text);
    assert.ok(current.some((f) => /^Maria.* to cancel their cleaning on Thursday \d/.test(f)), current.join(' | '));
    assert.ok(!current.some((f) => /Sam Lee.*book.*cleaning/i.test(f)), current.join(' | '));
    const all = (await api.memories({ layer: 'fact', limit: 100, include_history: true })).map((m) => m.text);
    assert.ok(all.some((f) => /Sam Lee.*book.*cleaning/i.test(f)), all.join(' | '));
  });

  test('"did anyone cancel this week?" leads with both callers\' cancellations, and reads answerable', async () => {
    const cancelled = (evidence: MemoryItem[], name: string): boolean =>
      evidence.slice(0, 3).some((i) => /\bcancel\b/i.test(i.text) && (i.speaker?.name === name || i.text.includes(name.split(' ')[0]!)));
    for (const question of ['Did anyone cancel this week?', 'did anyone cancel?']) {
      const answer = await api.query({ question, k: 10, now: FRIDAY });
      for (const name of ['Sam Lee', 'Maria Gomez']) assert.ok(cancelled(answer.evidence, name), `${question}: ${name} not in the top 3 of ${show(answer.evidence)}`);
      // Maria's is her fact (her turn gave none before).
      assert.ok(answer.evidence.some((i) => i.layer === 'fact' && /^Maria.* to cancel their cleaning/.test(i.text)), show(answer.evidence));
    }
    // "anyone" asks who, as "who" does: read as a word, no memory held it and the best item fell under the answerable bar.
    assert.equal((await api.query({ question: 'Did anyone cancel this week?', k: 10, now: FRIDAY })).answerable, true);
  });
});
