import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { TestWsClient } from '../helpers/ws-client.js';

const FLOOD = 200;

describe('fair scheduling between live sessions', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ PARLEY_SESSION_QUEUE: '256' });
  });
  after(async () => { await t.close(); });

  test("a control session's message is handled long before a flooding session's backlog drains", async () => {
    const flood = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=flood`);
    const control = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=control`);
    await flood.next('session.started');
    await control.next('session.started');
    for (let i = 0; i < FLOOD; i++) {
      flood.sendJson({ type: 'utterance', speaker: 'Fay', text: `Flood message number ${i} about the quarterly budget.` });
    }
    // Once the flood is being handled, the control session speaks once.
    await flood.next('transcript.final');
    control.sendJson({ type: 'utterance', speaker: 'Cal', text: 'Control says hello.' });
    await control.next('transcript.final');
    const floodDone = flood.events.filter((e) => e.type === 'transcript.final').length;
    // One message per session per turn of the event loop: the control's message waits behind a
    // handful of flood messages, not behind the whole backlog.
    assert.ok(floodDone < 40, `${floodDone} of ${FLOOD} flood messages were handled before the control's one`);
    await flood.next('transcript.final', (e) => e.text === `Flood message number ${FLOOD - 1} about the quarterly budget.`, 60_000);
    const order = flood.events.filter((e) => e.type === 'transcript.final').map((e) => e.text);
    assert.deepEqual(order, Array.from({ length: FLOOD }, (_, i) => `Flood message number ${i} about the quarterly budget.`),
      "the flooding session's own messages keep their order");
    flood.close();
    control.close();
    await Promise.all([flood.closed(), control.closed()]);
  });

  test('a session flooding past its queue gets PARLEY_ERR_OVERLOADED and keeps its session', async () => {
    const limit = t.config.sessionQueueLimit;
    const flood = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=overflow`);
    await flood.next('session.started');
    for (let i = 0; i < limit * 3; i++) flood.sendJson({ type: 'utterance', speaker: 'Fay', text: `Overflow ${i}.` });
    const err = await flood.next('error', undefined, 60_000);
    assert.equal(err.code, 'PARLEY_ERR_OVERLOADED');
    assert.equal(err.fatal, false);
    flood.sendJson({ type: 'utterance', speaker: 'Fay', text: 'After the flood.' });
    await flood.next('transcript.final', (e) => e.text === 'After the flood.', 60_000);
    const stored = flood.events.filter((e) => e.type === 'transcript.final').length;
    const shed = flood.events.filter((e) => e.type === 'error' && e.code === 'PARLEY_ERR_OVERLOADED').length;
    assert.equal(stored + shed, limit * 3 + 1, 'every message is either stored or refused with an error');
    flood.close();
    await flood.closed();
  });

  test('each message a full queue drops is named in its error: type, utterance_id, and a query\'s id', async () => {
    const limit = t.config.sessionQueueLimit;
    const flood = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=overflow-named`);
    await flood.next('session.started');
    const sent = limit + 64;
    for (let i = 0; i < sent; i++) {
      if (i % 8 !== 7) flood.sendJson({ type: 'utterance', utterance_id: `named-${i}`, speaker: 'Fay', text: `Named overflow ${i}.` });
      else flood.sendJson({ type: 'query', id: `q-${i}`, question: `What about ${i}?` });
    }
    // Every message is answered (transcript.final, query.result) or refused (its error) in the end.
    const settled = (): number => flood.events.filter((e) => e.type === 'transcript.final' || e.type === 'query.result'
      || (e.type === 'error' && e.code === 'PARLEY_ERR_OVERLOADED')).length;
    while (settled() < sent) await new Promise((resolve) => setTimeout(resolve, 100));
    const drops = flood.events.filter((e) => e.type === 'error' && e.code === 'PARLEY_ERR_OVERLOADED');
    assert.ok(drops.length > 0, 'the flood overfilled the queue');
    const dropped = new Set<string>();
    for (const e of drops) {
      const d = e.dropped as { type: string; utterance_id?: string; id?: string } | undefined;
      assert.ok(d, `a drop names its message: ${JSON.stringify(e)}`);
      if (d.type === 'utterance') {
        assert.match(String(d.utterance_id), /^named-\d+$/);
        assert.match(String(e.message), new RegExp(`utterance \\(utterance_id "${String(d.utterance_id)}"\\) was dropped`));
        dropped.add(String(d.utterance_id));
      } else {
        assert.equal(d.type, 'query');
        assert.match(String(d.id), /^q-\d+$/);
        assert.equal(e.id, d.id, 'an error answering a query names its id');
        dropped.add(String(d.id));
      }
    }
    const stored = flood.events.filter((e) => e.type === 'transcript.final').map((e) => String(e.utterance_id));
    const answered = flood.events.filter((e) => e.type === 'query.result').map((e) => String(e.id));
    const all = [...stored, ...answered, ...dropped].sort();
    const expected = Array.from({ length: sent }, (_, i) => (i % 8 !== 7 ? `named-${i}` : `q-${i}`)).sort();
    assert.deepEqual(all, expected, 'every message is answered or named once by the error that dropped it');
    flood.close();
    await flood.closed();
  });
});
