import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { appForSuite, startVoiceTestApp } from '../helpers/app.js';
import { fliteSpeech } from '../helpers/flite-speech.js';
import { TestWsClient } from '../helpers/ws-client.js';

const speech = fliteSpeech;

describe('voice over WebSocket with PARLEY_ASR_NAME_SPOTTING=true and 100 of the tenant\'s names after the session\'s', () => {
  const t = appForSuite(() => startVoiceTestApp({ PARLEY_ASR_NAME_SPOTTING: 'true', PARLEY_ASR_NAME_SPOTTING_TENANT_NAMES: '100' }));

  /** "hi this is grace from accounts", said in a session opened with `query`: the final transcript has "grace". */
  const assertGraceHeard = async (query: string): Promise<void> => {
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?${query}`, {}, { pacing: 'realtime', frameMs: 100, speed: 1 });
    await c.next('session.started');
    await c.speak(speech('hi this is grace from accounts'));
    const final = await c.next('transcript.final', () => true, 60_000);
    assert.match(String(final.text), /\bgrace\b/, `final: "${String(final.text)}"`);
    c.sendJson({ type: 'session.end' });
    await c.next('session.ended', () => true, 60_000);
  };

  // Runs first: a fresh recogniser writes "great" for this audio; after other audio it may write "grace" unaided.
  test('the session\'s expected caller is listened for although a hundred callers of the tenant were named since', async () => {
    const { graph } = t.app.stores;
    // A returning caller known by phone number, named long ago; then 150 other callers were named.
    await graph.createParticipant('default', { name: 'Grace Lee', externalId: '+15550123' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    for (let i = 0; i < 150; i++) await graph.createParticipant('default', { name: `Caller${i}` });
    await assertGraceHeard('session_id=names-2&external_id=%2B15550123');
  });

  test('a participant the tenant knows is heard by name (the plain decoder writes "great" for this audio)', async () => {
    await t.app.stores.graph.createParticipant('default', { name: 'Grace Hopper' });
    await t.app.stores.graph.createParticipant('default', { name: 'Robert', aliases: ['Bob'] });
    await assertGraceHeard('session_id=names-1');
  });
});
