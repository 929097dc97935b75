import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { ParleyClient, type MemoryItem } from '../../clients/typescript/src/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

// The newcomer trial of issue #16 item 1: a 30-turn chat in two sessions, then "where does Ana live now?".
const FIRST: [string, string][] = [
  ['Ana', "Hi Ben, I'm Ana. I live in Lisbon."], ['Ben', 'Nice to meet you Ana. I work at Initech as an engineer.'],
  ['Ana', 'Ben, I will send you the draft on Monday.'], ['Ben', "Great. I'll book the hotel for the conference by Wednesday."],
  ['Ana', 'My favourite drink is coffee.'], ['Ben', 'Our friend Cara just moved to Madrid.'],
  ['Ana', 'Really? I thought Cara lived in Paris.'], ['Ben', 'She did, but she moved to Madrid last month for her new job at Hooli.'],
  ['Ana', "I can't lift heavy things for two weeks, I hurt my back."], ['Ben', "Sorry to hear that. I'm vegetarian, by the way."],
  ['Ana', "Let's have dinner at the Italian place on December 5th."], ['Ben', 'Sounds good, the 5th at seven.'],
  ['Ana', 'Actually, for now I prefer tea, not coffee.'], ['Ben', 'Cara has a dog called Max.'],
  ['Ana', "I'm staying in Madrid for two weeks in December to visit Cara."],
];
const SECOND: [string, string][] = [
  ['Ana', 'Ben, I sent you the draft yesterday.'], ['Ben', 'Got it, thanks. I booked the hotel too.'],
  ['Ana', "I can't make dinner on the 5th anymore, let's cancel it, sorry."],
  ['Ben', "No problem. By the way, I don't work at Initech anymore, I joined Globex."],
  ['Ana', 'Congratulations! I moved to Porto last week.'], ['Ben', 'Porto is lovely. Is Cara still in Madrid?'],
  ['Ana', 'No, Cara moved back to Paris, she quit Hooli.'], ['Ben', "I'm not vegetarian anymore, I eat fish now."],
  ['Ana', 'I will call Cara on Sunday to plan the trip.'], ['Ben', 'Tell her I said hi.'],
  ['Ana', "Actually I won't go to Madrid after all, since Cara is in Paris."], ['Ben', 'Makes sense. My sister Dana is visiting me this weekend.'],
  ['Ana', 'Lovely. My back is fine now, I can lift things again.'], ['Ben', 'Good to hear.'], ['Ana', 'Okay, bye Ben!'],
];
const ZOE = ['I live in Oslo.', 'I work as a nurse at the city hospital.', 'I moved to Bergen last month.', 'I love hiking in the fjords.', 'I have two cats.'];

describe('answers from the current fact: "where does Ana live now?" after a 30-turn chat (issue #16 item 1, real consolidation)', () => {
  let t: TestApp;
  let api: ParleyClient;
  const ask = async (question: string): Promise<MemoryItem[]> => (await api.query({ question, k: 10 })).evidence;
  const show = (items: MemoryItem[]): string => items.map((i) => `${i.speaker?.name}: ${i.text}`).join(' | ');

  before(async () => {
    t = await startTestApp();
    api = new ParleyClient({ baseUrl: t.httpUrl });
    const post = (session: string, turns: [string, string][], day: string) => api.postUtterances(session, turns.map(([speaker, text], i) => ({
      speaker, text, addressees: [speaker === 'Ana' ? 'Ben' : 'Ana'], time: new Date(Date.parse(day) + i * 30_000).toISOString(),
    })));
    await post('trial-1', FIRST, '2026-11-20T10:00:00Z');
    await post('trial-2', SECOND, '2026-12-01T18:00:00Z');
    await api.postUtterances('zoe', ZOE.map((text, i) => ({ speaker: 'Zoe', text, time: new Date(Date.parse('2026-11-25T10:00:00Z') + i * 30_000).toISOString() })));
    await drainConsolidation(t.app.stores.queue, 120_000);
  });
  after(async () => {
    await t?.close();
  });

  test('"Where does Ana live now?" leads with Porto, her open home, not turns that merely say "lived"', async () => {
    const evidence = await ask('Where does Ana live now?');
    assert.match(evidence[0]?.text ?? '', /Porto/, show(evidence));
    assert.ok(!evidence.some((i) => /Lisbon/.test(i.text)), 'the replaced home is not served to a question about now');
  });

  test('"Where is Zoe now?", in any case, answers from Zoe\'s memories, and "now" matches no turn that says it', async () => {
    for (const q of ['Where is Zoe now?', 'where is zoe now', 'Where is Zoe at the moment?']) {
      const evidence = await ask(q);
      assert.equal(evidence[0]?.speaker?.name, 'Zoe', `${q}: ${show(evidence)}`);
      assert.match(evidence[0]?.text ?? '', /Bergen/, `${q}: ${show(evidence)}`);
      assert.ok(!evidence.slice(0, 5).some((i) => /back is fine now/.test(i.text)), `${q}: ${show(evidence)}`);
    }
  });

  test('greetings, farewells and backchannels with a name ("Okay, bye Ben!", "Good to hear.") are no evidence', async () => {
    for (const q of ['Where does Ana live now?', 'Where is Ben now?', 'How is Ana\'s back?']) {
      const evidence = await ask(q);
      assert.ok(!evidence.some((i) => /^(?:Okay, bye Ben!|Good to hear\.)$/.test(i.text)), `${q}: ${show(evidence)}`);
    }
  });

  test('"The speaker\'s name is Ana" (her self-introduction) answers a question about her name, and no other', async () => {
    for (const q of ['Where does Ana live now?', 'What does Ana drink?', 'What did Ana promise Ben?']) {
      assert.ok(!(await ask(q)).some((i) => /speaker's name is/.test(i.text)), q);
    }
    assert.ok((await ask("What is Ana's name?")).some((i) => /The speaker's name is Ana/.test(i.text)));
  });
});
