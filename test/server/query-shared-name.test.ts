import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { ParleyClient, type MemoryItem } from '../../clients/typescript/src/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

// trial12 F2/F3: two patients share the given name "Sam". "What is Sam Lee's insurance?" ranked Sam Patel's insurance
// first (the shared "Sam" named both), and "what is my insurance?" asked by Sam Lee ranked other patients' above his.
describe('POST /v1/query: a full name shared in part, and "my" of a known asker', () => {
  let t: TestApp;
  let api: ParleyClient;
  const names = (evidence: readonly MemoryItem[]): string => evidence.map((i) => `${i.speaker?.name ?? '?'} (${String(i.relevance)}): ${i.text}`).join(' | ');

  before(async () => {
    t = await startTestApp();
    api = new ParleyClient({ baseUrl: t.httpUrl });
    await api.postUtterances('call-lee', [
      { speaker: 'Sam Lee', text: 'Hi, this is Sam Lee. I would like to book a cleaning for next Tuesday at 10 am.', time: '2026-11-30T09:00:10Z' },
      { speaker: 'Assistant', text: 'Sure Sam, I have booked your cleaning for Tuesday December 8 at 10 am.', time: '2026-11-30T09:00:20Z' },
      { speaker: 'Sam Lee', text: 'Great. Also, I am allergic to penicillin, and my dental insurance is Cigna.', time: '2026-11-30T09:00:30Z' },
    ]);
    await api.postUtterances('call-patel', [
      { speaker: 'Sam Patel', text: 'Hello, I am Sam Patel. I need a filling appointment on Thursday December 3 at 3 pm.', time: '2026-11-30T11:00:10Z' },
      { speaker: 'Assistant', text: 'Booked, Sam. Thursday December 3 at 3 pm for a filling.', time: '2026-11-30T11:00:20Z' },
      { speaker: 'Sam Patel', text: 'Thanks. My new insurance is Blue Cross and I have no allergies.', time: '2026-11-30T11:00:30Z' },
    ]);
    await api.postUtterances('call-gomez', [
      { speaker: 'Maria Gomez', text: 'Hi, this is Maria Gomez. My insurance is Humana.', time: '2026-11-30T13:00:10Z' },
      { speaker: 'Assistant', text: 'Thank you Maria, I have noted your insurance.', time: '2026-11-30T13:00:20Z' },
    ]);
    await drainConsolidation(t.app.stores.queue, 120_000);
  });
  after(async () => {
    await t?.close();
  });

  /** Index of the first item said by `speaker`, or -1. */
  const firstBy = (evidence: readonly MemoryItem[], speaker: string): number => evidence.findIndex((i) => i.speaker?.name === speaker);

  test('"What is Sam Lee\'s insurance?" ranks Sam Lee\'s insurance above anything Sam Patel said', async () => {
    const { evidence } = await api.query({ question: "What is Sam Lee's insurance?", k: 5 });
    assert.equal(evidence[0]?.speaker?.name, 'Sam Lee', names(evidence));
    assert.match(evidence[0]!.text, /Cigna/, names(evidence));
    const patel = firstBy(evidence, 'Sam Patel');
    const lastLee = evidence.map((i) => i.speaker?.name).lastIndexOf('Sam Lee');
    assert.ok(patel === -1 || patel > lastLee, `every Sam Lee item above Sam Patel's: ${names(evidence)}`);
    const lee = evidence.filter((i) => i.speaker?.name === 'Sam Lee').map((i) => i.relevance ?? 0);
    const others = evidence.filter((i) => i.speaker?.name === 'Sam Patel').map((i) => i.relevance ?? 0);
    assert.ok(others.every((r) => r < Math.max(...lee)), `Sam Patel's relevance below Sam Lee's best: ${names(evidence)}`);
  });

  test('the given name alone, held by one person only, still names that person ("What is Maria\'s insurance?")', async () => {
    const { evidence } = await api.query({ question: "What is Maria's insurance?", k: 5 });
    assert.equal(evidence[0]?.speaker?.name, 'Maria Gomez', names(evidence));
    assert.match(evidence[0]!.text, /Humana/);
  });

  test('"What is my insurance?" asked by Sam Lee ranks his own insurance first', async () => {
    for (const question of ['What is my insurance?', 'what is my insurance and when is my appointment?']) {
      const r = await api.query({ question, asker: 'Sam Lee', k: 5 });
      assert.equal(r.asker?.confidence, 'high');
      assert.equal(r.evidence[0]?.speaker?.name, 'Sam Lee', `${question}: ${names(r.evidence)}`);
    }
    const r = await api.query({ question: 'What is my insurance?', asker: 'Sam Lee', k: 5 });
    assert.match(r.evidence[0]!.text, /Cigna/, names(r.evidence));
  });

  test('without a first-person word the asker is not the subject: Sam Lee asking about Maria gets Maria\'s insurance first', async () => {
    const { evidence } = await api.query({ question: "What is Maria's insurance?", asker: 'Sam Lee', k: 5 });
    assert.equal(evidence[0]?.speaker?.name, 'Maria Gomez', names(evidence));
  });
});
