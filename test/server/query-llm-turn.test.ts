import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ParleyClient, type MemoryItem } from '../../clients/typescript/src/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { TestWsClient } from '../helpers/ws-client.js';

/**
 * The README's LLM-turn flow stores the user's turn, then asks `/v1/query` with its text and the call's
 * `session_id`. That query used to answer with the turn just stored (the question itself) and the
 * agent's content-free replies ("Noted."), boosted as turns of the asking session, in place of the
 * memories that answer it.
 */
describe('memory around the LLM turn: the asking turn and content-free replies are no evidence', () => {
  let t: TestApp;
  let api: ParleyClient;
  const question = 'What does my cat Miko eat?';
  const texts = (items: MemoryItem[]): string => items.map((i) => `${i.layer}: ${i.text}`).join(' | ');
  const contentFree = /^(Noted|Okay, got it|Thanks!|Sure)\.?$/;

  before(async () => {
    t = await startTestApp({ PARLEY_ASR: 'none' });
    api = new ParleyClient({ baseUrl: t.httpUrl });
    await api.postUtterances('ana-before', [
      { speaker: 'Ana', addressees: ['Agent'], text: 'My cat Miko only eats salmon from the market.' },
      { speaker: 'Ana', addressees: ['Agent'], text: 'Miko was a rescue cat from the shelter in Porto.' },
      { speaker: 'Ana', addressees: ['Agent'], text: 'The vet said Miko should eat less dry food.' },
    ]);
    // The call so far: Ana's turns, each answered by the agent with an acknowledgement.
    const call: { speaker: string; text: string; utterance_id: string }[] = [];
    ['I booked the flight to Lisbon.', 'The hotel is near the river.', 'My sister Eva joins on Friday.'].forEach((text, i) => {
      call.push({ speaker: 'Ana', text, utterance_id: `call-7-${i}` }, { speaker: 'Agent', text: ['Noted.', 'Okay, got it.', 'Thanks!'][i]!, utterance_id: `call-7-${i}-reply` });
    });
    // Then the turn that asks, stored before the query as the README's example does.
    call.push({ speaker: 'Ana', text: question, utterance_id: 'call-7-3' });
    await api.postUtterances('call-7', call);
  });
  after(async () => {
    await t?.close();
  });

  test('POST /v1/query with session_id serves neither the asking turn nor "Noted."-like turns, and finds the cat\'s food', async () => {
    const { evidence } = await api.query({ question, asker: 'Ana', session_id: 'call-7', k: 5 });
    assert.ok(evidence.every((i) => i.text !== question), `the asking turn is not its own evidence: ${texts(evidence)}`);
    assert.ok(evidence.every((i) => !contentFree.test(i.text)), `no content-free turn: ${texts(evidence)}`);
    assert.ok(evidence.some((i) => /salmon/.test(i.text)), texts(evidence));
  });

  test('without session_id the same words in the tenant are not taken for the asking turn', async () => {
    // No session to look in: nothing is left out by its words (a question asked earlier elsewhere may be evidence).
    const { evidence } = await api.query({ question: 'Where does Eva join?', k: 5 });
    assert.ok(evidence.some((i) => /Eva joins/.test(i.text)), texts(evidence));
  });

  test('memory.context of a socket turn holds no content-free turn either', async () => {
    const ws = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=call-7`);
    await ws.next('session.started');
    ws.sendJson({ type: 'utterance', speaker: 'Ana', text: 'Remind me what Miko eats, and thanks, noted.' });
    const context = await ws.next('memory.context', (e) => e.speculative === false);
    const items = context.items as MemoryItem[];
    assert.ok(items.length > 0);
    assert.ok(items.every((i) => !contentFree.test(i.text)), texts(items));
    ws.close();
  });
});
