import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { pino } from 'pino';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { TestWsClient } from '../helpers/ws-client.js';

/**
 * Ending a live session waits for its utterances' consolidation (`PARLEY_SESSION_END_WAIT_MS`), but not for
 * utterances forgotten meanwhile (`DELETE /v1/utterances/{id}`): they will never be consolidated. The wait is set far
 * longer than any test waits, so an end that waited for them would fail the test (no `session.ended` in time).
 */
interface LogLine { level: number; msg: string; waiting?: number }

describe('ending a session after some of its turns were forgotten', () => {
  const lines: LogLine[] = [];
  let t: TestApp;

  before(async () => {
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });
    t = await startTestApp({ PARLEY_ASR: 'none', PARLEY_SESSION_END_WAIT_MS: '600000' }, true, logger);
  });

  after(async () => {
    await t?.close();
  });

  test('does not wait for the forgotten turns', async () => {
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=forgets-then-ends`);
    await c.next('session.started');
    const say = async (id: string, text: string): Promise<void> => {
      c.sendJson({ type: 'utterance', utterance_id: id, speaker: 'Ana', text });
      await c.next('transcript.final', (e) => e.utterance_id === id);
    };
    await say('kept', 'I live in Porto.');
    await say('oops-1', 'My bank PIN is 4321.');
    await say('oops-2', 'And my password is hunter2.');
    for (const id of ['oops-1', 'oops-2']) {
      const res = await fetch(`${t.httpUrl}/v1/utterances/${id}`, { method: 'DELETE' });
      assert.equal(res.status, 204, id);
    }
    c.sendJson({ type: 'session.end' });
    await c.next('session.ended');
    assert.deepEqual(lines.filter((l) => l.msg.startsWith('session ended before every utterance was consolidated')), []);
    // The turn kept was consolidated before the end; the forgotten ones are gone.
    assert.ok((await t.app.stores.memory.processedFactsOf('default', ['kept'])).has('kept'));
    assert.deepEqual((await t.app.stores.graph.getUtterances('default', ['oops-1', 'oops-2'])).map((u) => u.id), []);
    await c.closed();
  });
});
