import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { answerQuestion } from '../../../pipelines/retrieval/agentic-query.js';
import type { MemoryScope } from '../../../pipelines/retrieval/context-scope.js';
import { Retriever } from '../../../pipelines/retrieval/retriever.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';

const T = 't_scoped_feedback';
const ASK = 'Which bike problems came up?';

/**
 * scopeagents L2: round 2's pseudo-relevance feedback words were drawn from round 1's best 15 turns before the scope
 * was applied, so under `context_scope: participants` another customer who dominates the tenant's best turns chose the
 * words the scoped search was expanded with: Maria's "marmalade" pulled Luis's unrelated marmalade line into his answer.
 */
describe('a scoped question: its feedback words come from turns within the scope', () => {
  let f: MemoryFixture;
  let retriever: Retriever;
  let scope: MemoryScope;
  const texts = (items: { text: string }[]): string => JSON.stringify(items.map((i) => i.text));

  before(async () => {
    f = await memoryFixture(T, ['Maria', 'Luis', 'Ola', 'Sam']);
    const at = (day: number, i: number): string => `2026-11-${String(day).padStart(2, '0')}T10:${String(i).padStart(2, '0')}:00Z`;
    // Out of scope: Maria's call, every turn on the question's words and the distinctive "marmalade".
    await f.sayBatch('call-maria', Array.from({ length: 14 }, (_, i) => ({
      speaker: 'Maria', addressees: ['Sam'], text: `The bike problems came back on ride ${i + 1}, marmalade on the marmalade jar again.`, time: at(2, i),
    })));
    // Out of scope too: enough other bike talk that round 1 keeps a full list (no early stop before the feedback).
    await f.sayBatch('call-ola', Array.from({ length: 40 }, (_, i) => ({
      speaker: 'Ola', addressees: ['Sam'], text: `My bike number ${i + 1} was fine on the road today.`, time: at(3, i),
    })));
    // Luis's call: his bike problems, and one line that shares only "marmalade" with Maria's.
    await f.sayBatch('call-luis', [
      { speaker: 'Luis', addressees: ['Sam'], text: 'My bike chain keeps slipping on the hills.', time: at(4, 0) },
      { speaker: 'Luis', addressees: ['Sam'], text: 'The bike brakes squeak badly in the rain.', time: at(4, 1) },
      { speaker: 'Luis', addressees: ['Sam'], text: 'The bike gears grind on every climb.', time: at(4, 2) },
      { speaker: 'Luis', addressees: ['Sam'], text: 'The bike saddle is too hard for long rides.', time: at(4, 3) },
      { speaker: 'Luis', addressees: ['Sam'], text: 'My bike tyre went flat twice this month.', time: at(4, 4) },
      { speaker: 'Luis', addressees: ['Sam'], text: 'The bike lights flicker at night.', time: at(4, 5) },
      { speaker: 'Luis', addressees: ['Sam'], text: 'The bike bell on the handlebar is broken.', time: at(4, 6) },
      { speaker: 'Luis', addressees: ['Sam'], text: 'My bike lock has gone rusty.', time: at(4, 7) },
      { speaker: 'Luis', addressees: ['Sam'], text: 'My grandmother made marmalade on Sunday.', time: at(4, 8) },
      { speaker: 'Luis', addressees: ['Sam'], text: 'My daughter started school this autumn.', time: at(4, 9) },
    ]);
    retriever = new Retriever(f, f.entities, f.embedder, { minPool: 1 });
    scope = { people: new Set([f.people.Luis!, f.people.Sam!]), agents: new Set([f.people.Sam!]), sessionId: 'call-luis' };
  });
  after(async () => {
    await f.close();
  });

  test('Maria\'s "marmalade" does not steer Luis\'s scoped answer', async () => {
    const all = await answerQuestion(retriever, T, { question: ASK, k: 5 });
    assert.ok(all.evidence.filter((i) => /marmalade/.test(i.text)).length >= 2, `unscoped, Maria's marmalade turns are among the best (${texts(all.evidence)})`);
    const scoped = await answerQuestion(retriever, T, { question: ASK, k: 10, scope });
    assert.ok(scoped.evidence.length > 0 && scoped.evidence.every((i) => i.session_id === 'call-luis'), texts(scoped.evidence));
    assert.ok(scoped.evidence.some((i) => /chain keeps slipping/.test(i.text)), `Luis's own bike problems are found (${texts(scoped.evidence)})`);
    assert.ok(!scoped.evidence.some((i) => /marmalade/.test(i.text)), `no line found only through Maria's word (${texts(scoped.evidence)})`);
  });
});
