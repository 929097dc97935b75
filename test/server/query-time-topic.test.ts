import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { answerQuestion } from '../../pipelines/retrieval/agentic-query.js';
import { ParleyClient } from '../../clients/typescript/src/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

// F8: a question naming a time ("last week") boosts items dated inside it; an unrelated item from last week must not
// outrank the only topical one, told three weeks ago.
describe('a named time boosts only what matches the question\'s content (timeBoostMatch)', () => {
  let t: TestApp | undefined;
  const now = new Date('2026-11-25T12:00:00Z');
  before(async () => {
    t = await startTestApp();
    const api = new ParleyClient({ baseUrl: t.httpUrl });
    await api.postUtterances('call-early', [
      { speaker: 'Ana', addressees: ['Ben'], text: 'The vendor contract is signed, we pay five percent less from January.', time: '2026-11-04T10:00:00Z' },
    ]);
    await api.postUtterances('call-late', [
      { speaker: 'Ana', addressees: ['Ben'], text: 'I am repainting my kitchen this weekend, bright yellow walls.', time: '2026-11-18T10:00:00Z' },
    ]);
    await drainConsolidation(t.app.stores.queue, 120_000);
  });
  after(async () => {
    await t?.close();
  });

  const ask = async (timeBoostMatch?: number) => {
    const a = await answerQuestion(t!.app.retriever, 'default', { question: 'What did Ana say about the vendor contract last week?', k: 5, now },
      timeBoostMatch === undefined ? {} : { timeBoostMatch });
    return a.evidence.map((e) => `${e.text} ${e.source_text ?? ''}`);
  };

  test('with the boost tied to the content, the topical item told three weeks ago ranks first', async () => {
    const texts = await ask(1);
    assert.match(texts[0] ?? '', /contract/, texts.join(' | '));
  });

  test('by default the topical item outside the window is still among the top 5', async () => {
    const texts = await ask();
    assert.ok(texts.slice(0, 5).some((x) => /contract/.test(x)), texts.join(' | '));
  });

  test('a share outside 0..1 is refused', async () => {
    await assert.rejects(ask(1.5), /timeBoostMatch/);
  });
});
