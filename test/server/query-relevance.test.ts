import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { ParleyClient } from '../../clients/typescript/src/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

describe('POST /v1/query items carry a relevance comparable across questions (embedded embedder)', () => {
  let t: TestApp;
  let api: ParleyClient;

  before(async () => {
    t = await startTestApp();
    api = new ParleyClient({ baseUrl: t.httpUrl });
    await api.postUtterances('call-1', [
      { speaker: 'Ana', addressees: ['Ben'], text: 'Ben, I will send you the contract draft on Friday.', time: '2026-11-02T10:00:00Z' },
      { speaker: 'Ben', addressees: ['Ana'], text: 'Thanks Ana. I am flying to Lisbon next week for the conference.', time: '2026-11-02T10:00:30Z' },
      { speaker: 'Ana', addressees: ['Ben'], text: 'Enjoy it, the weather there is lovely in November.', time: '2026-11-02T10:01:00Z' },
    ]);
    await drainConsolidation(t.app.stores.queue, 120_000);
  });
  after(async () => {
    await t?.close();
  });

  test('a question memory answers gets a higher top relevance than one it cannot, asked of the same store', async () => {
    const knownAnswer = await api.query({ question: 'When will Ana send Ben the contract draft?' });
    const unknownAnswer = await api.query({ question: 'What is Ana\'s blood type?' });
    const known = knownAnswer.evidence;
    const unknown = unknownAnswer.evidence;
    assert.ok(known[0] && unknown[0], 'both answers have a best item');
    for (const m of [...known, ...unknown]) {
      assert.equal(typeof m.relevance, 'number', JSON.stringify(m));
      assert.ok(m.relevance! >= 0 && m.relevance! <= 1);
      assert.equal(typeof m.score, 'number', 'score stays');
    }
    assert.match(known[0].text, /draft/);
    assert.ok(known[0].relevance! > unknown[0].relevance!, `known ${known[0].relevance} vs unknown ${unknown[0].relevance}`);
    assert.equal(knownAnswer.answerable, true);
    assert.equal(unknownAnswer.answerable, false, `unknown's top relevance ${unknown[0].relevance}`);
  });
});

describe('POST /v1/query with PARLEY_ANSWERABLE_TOPIC_GATE=on: answerable depends on the question\'s topic (embedded embedder)', () => {
  let t: TestApp;
  let api: ParleyClient;

  before(async () => {
    t = await startTestApp({ PARLEY_ANSWERABLE_TOPIC_GATE: 'on' });
    api = new ParleyClient({ baseUrl: t.httpUrl });
    // Ana is well known, but nobody ever said anything about blood.
    await api.postUtterances('call-ana', [
      { speaker: 'Ana', addressees: ['Ben'], text: 'Ben, my name is Ana and I am your new team lead.', time: '2026-11-02T10:00:00Z' },
      { speaker: 'Ana', addressees: ['Ben'], text: 'I am Ana, I grew up in Porto and I moved here two years ago.', time: '2026-11-02T10:00:30Z' },
      { speaker: 'Ana', addressees: ['Ben'], text: 'My favourite food is grilled sardines with potatoes.', time: '2026-11-02T10:01:00Z' },
      { speaker: 'Ana', addressees: ['Ben'], text: 'I went to the doctor on Monday for my yearly check-up, everything is fine.', time: '2026-11-02T10:01:30Z' },
      { speaker: 'Ben', addressees: ['Ana'], text: 'Great to meet you, Ana. What is your favourite thing about the job?', time: '2026-11-02T10:02:00Z' },
      { speaker: 'Ana', addressees: ['Ben'], text: 'I love working with people, Ben.', time: '2026-11-02T10:02:30Z' },
    ]);
    await drainConsolidation(t.app.stores.queue, 120_000);
  });
  after(async () => {
    await t?.close();
  });

  test('"What is Ana\'s blood type?" reads unanswerable: no item shares its topic, though Ana is known', async () => {
    const blood = await api.query({ question: 'What is Ana\'s blood type?' });
    assert.ok(blood.evidence.length > 0, 'Ana\'s items are still returned');
    assert.equal(blood.answerable, false, `top ${blood.evidence[0]?.text} relevance ${blood.evidence[0]?.relevance}`);
    const food = await api.query({ question: 'What is Ana\'s favourite food?' });
    assert.match(food.evidence[0]?.text ?? '', /sardines/);
    assert.equal(food.answerable, true, 'a question whose topic was spoken of stays answerable');
  });
});
