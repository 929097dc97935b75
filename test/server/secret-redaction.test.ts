/**
 * Rules 56: a secret's value given (a PIN, a password, a code word) is stored as "[redacted]": the transcript, the
 * keyword index, the `transcript.final` a live client gets and the memories keep none of it; a resend of the same
 * words is still a resend.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { appWithClientForSuite, startTestApp } from '../helpers/app.js';
import { TestWsClient } from '../helpers/ws-client.js';

describe('a secret given is redacted at ingest', () => {
  const suite = appWithClientForSuite(() => startTestApp({ PARLEY_ASR: 'none' }));

  test('over HTTP: the transcript and the keyword index keep "[redacted]", a resend is one', async () => {
    const { t, api } = suite;
    const turns = [
      { utterance_id: 'sec-1', speaker: 'Ana', text: 'My PIN is double seven three one.' },
      { utterance_id: 'sec-2', speaker: 'Ana', text: 'And the wifi password is bluefish42, the code word is pineapple.' },
      { utterance_id: 'sec-3', speaker: 'Ana', text: 'The password is wrong again.' },
      { utterance_id: 'sec-4', speaker: 'Ana', text: 'Your PIN is 6 digits long. The door code is 4417.' },
    ];
    await api.postUtterances('secrets', turns);
    assert.deepEqual(await api.postUtterances('secrets', turns.slice(0, 1)).then((r) => r.utterance_ids), ['sec-1'], 'a resend of the same words');
    assert.deepEqual((await api.transcript('secrets')).utterances.map((u) => u.text), [
      'My PIN is [redacted].', 'And the wifi password is [redacted], the code word is pineapple.', 'The password is wrong again.',
      'Your PIN is 6 digits long. The door code is [redacted].']);
    for (const word of ['bluefish42', '7731', 'seven', '4417']) {
      assert.deepEqual(await t.app.stores.lexical.search('default', word, 5), [], word);
    }
    assert.equal((await t.app.stores.lexical.search('default', 'wifi password', 5)).length > 0, true, 'the rest of the turn is indexed');
    await drainConsolidation(t.app.stores.queue, 120_000);
    const memories = JSON.stringify(await api.memories({}));
    assert.ok(!/bluefish|pineapple|7731|4417|redacted/i.test(memories), memories);
  });

  test('over WebSocket: transcript.final carries the stored text', async () => {
    const { t } = suite;
    const ws = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=secrets-ws`);
    await ws.next('session.started');
    ws.sendJson({ type: 'utterance', speaker: 'Ben', text: 'my password is sunshine7' });
    const final = await ws.nextNew('transcript.final');
    assert.equal(final.text, 'my password is [redacted]');
    ws.sendJson({ type: 'utterance', speaker: 'Ben', text: 'my password is sunshine' });
    assert.equal((await ws.nextNew('transcript.final')).text, 'my password is sunshine', 'a plain word is kept (reviewB 1)');
    ws.close();
  });
});
