import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import pino from 'pino';
import { ParleyClient } from '../../clients/typescript/src/index.js';
import { appForSuite, startTestApp } from '../helpers/app.js';
import { TestWsClient } from '../helpers/ws-client.js';

// A replay of imported history drives the app's clock (`BuildOptions.now`); its text turns without a `time` of their own
// used to be dated by the machine's clock (`new Date()` in ingest), so they landed years after the replayed day.
describe("untimed text turns are dated by the app's clock, not the machine's", () => {
  const CLOCK = Date.parse('2024-05-06T07:08:09.000Z');
  const t = appForSuite(() => startTestApp({}, true, pino({ level: 'silent' }), { now: () => CLOCK }));
  const at = new Date(CLOCK).toISOString();

  test('POST /v1/sessions/{id}/utterances without time: stored at the clock, the session opened at it', async () => {
    const api = new ParleyClient({ baseUrl: t.httpUrl });
    await api.postUtterances('imported', [{ speaker: 'Ana', text: 'we moved to Porto' }, { speaker: 'Ben', text: 'nice' }]);
    assert.deepEqual((await api.transcript('imported')).utterances.map((u) => u.time), [at, at]);
    assert.equal((await t.app.stores.graph.getSession('default', 'imported'))?.startedAt, at);
  });

  test('a WebSocket utterance without time (and a stream without start_time): stored at the clock', async () => {
    const ws = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=typed`);
    try {
      await ws.next('session.started');
      ws.sendJson({ type: 'utterance', speaker: 'Ana', text: 'hello there' });
      await ws.nextNew('transcript.final');
    } finally {
      ws.close();
    }
    const { utterances } = await new ParleyClient({ baseUrl: t.httpUrl }).transcript('typed');
    assert.deepEqual(utterances.map((u) => u.time), [at]);
    assert.equal((await t.app.stores.graph.getSession('default', 'typed'))?.startedAt, at);
  });
});
