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
});
