import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { appForSuite, startTestApp } from '../helpers/app.js';
import { TestWsClient } from '../helpers/ws-client.js';

/**
 * `session.update` used to merge anything into the session and echo it in `session.updated`: a
 * sample rate of 7, an mp3 encoding or an end of turn of "soon" read as accepted while nothing of the
 * stream changed.
 */
describe('session.update settings', () => {
  const t = appForSuite(() => startTestApp({ PARLEY_ASR: 'none' }));

  test('wrong settings get one PARLEY_ERR_BAD_FRAME naming each, change nothing, and the session goes on', async () => {
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=settings-bad`);
    await c.next('session.started');
    c.sendJson({ type: 'session.update', session: { language: 'en', metadata: { room: 'kitchen' } } });
    assert.deepEqual((await c.next('session.updated')).session, { language: 'en', metadata: { room: 'kitchen' } });

    c.sendJson({ type: 'session.update', session: { sample_rate: 7, encoding: 'mp3', end_of_turn_ms: 'soon', language: 42 } });
    const error = await c.nextNew('error');
    assert.equal(error.code, 'PARLEY_ERR_BAD_FRAME');
    assert.equal(error.fatal, false);
    const message = error.message as string;
    assert.match(message, /sample_rate cannot change mid-stream/);
    assert.match(message, /encoding cannot change mid-stream/);
    assert.match(message, /end_of_turn_ms is not a session setting: the server's PARLEY_END_OF_TURN_MS/);
    assert.match(message, /language must be a language tag/);
    assert.equal(c.events.filter((e) => e.type === 'session.updated').length, 1, 'no session.updated for the refused update');

    c.sendJson({ type: 'session.update', session: { metadata: ['not', 'an', 'object'] } });
    assert.match((await c.nextNew('error')).message as string, /metadata must be a JSON object/);

    // Nothing of the refused updates was kept: the next echo holds only what was accepted.
    c.sendJson({ type: 'session.update', session: { topic: 'garden' } });
    assert.deepEqual((await c.nextNew('session.updated')).session, { language: 'en', metadata: { room: 'kitchen' }, topic: 'garden' });
    const stored = await t.app.stores.graph.getSession('default', 'settings-bad');
    assert.deepEqual(stored?.metadata, { language: 'en', metadata: { room: 'kitchen' }, topic: 'garden' });
    c.close();
  });

  test('a whole session object resent with the connection\'s own format is accepted; en_US is a language; null clears it', async () => {
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=settings-resent`);
    await c.next('session.started');
    c.sendJson({ type: 'session.update', session: { sample_rate: 16000, encoding: 'pcm_s16le', channels: 1, language: 'en_US', metadata: { room: 'hall' } } });
    assert.deepEqual((await c.next('session.updated')).session, { language: 'en_US', metadata: { room: 'hall' } });
    c.sendJson({ type: 'session.update', session: { language: null } });
    assert.deepEqual((await c.nextNew('session.updated')).session, { metadata: { room: 'hall' } });
    c.sendJson({ type: 'session.update', session: { sample_rate: 8000, metadata: { room: 'attic' } } });
    assert.match((await c.nextNew('error')).message as string, /sample_rate cannot change mid-stream/);
    const stored = await t.app.stores.graph.getSession('default', 'settings-resent');
    assert.deepEqual(stored?.metadata, { metadata: { room: 'hall' } }, 'the refused update changed nothing');
    c.close();
  });
});
