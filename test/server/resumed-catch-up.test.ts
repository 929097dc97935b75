import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { encodeS16le } from '../../pipelines/audio/pcm-codecs.js';
import { appForSuite, startTestApp, type TestApp } from '../helpers/app.js';
import { TestWsClient } from '../helpers/ws-client.js';

/** `seconds` of silence in 1 s frames, as a client sends audio it held during an outage: all at once. */
const held = (seconds: number): Uint8Array => encodeS16le(new Float32Array(16000 * seconds));

/** Send `audio` at once on a connection to `sessionId`, end the session, and return its OVERLOADED errors. */
async function catchUp(t: TestApp, sessionId: string, audio: Uint8Array): Promise<{ resumed: unknown; overloaded: string[] }> {
  const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=${sessionId}`, {}, { frameMs: 1000 });
  const started = await c.next('session.started');
  c.sendAudio(audio);
  await c.drained();
  c.sendJson({ type: 'session.end' });
  await c.next('session.ended', () => true, 120_000);
  const overloaded = c.events.filter((e) => e.type === 'error' && e.code === 'PARLEY_ERR_OVERLOADED').map((e) => String(e.message));
  return { resumed: started.resumed, overloaded };
}

/**
 * A session resumed on a new audio stream (after a restart, on another server, or here after its resume window) used
 * to count its lead from the new socket's first frame: the audio its client held during the outage, sent to catch
 * up, was shed past 5 s as "faster than real time".
 */
describe('a resumed session\'s new audio stream takes the audio held during the outage', () => {
  const t = appForSuite(() => startTestApp({ PARLEY_SESSION_RESUME_MS: '50' }));

  test('12 s sent at once after the session left memory: nothing shed (a new session sheds past 5 s)', async () => {
    const first = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=catch-up`, {}, { frameMs: 1000 });
    await first.next('session.started');
    first.sendAudio(held(1));
    await first.drained();
    first.close();
    for (let i = 0; i < 100 && t.app.sessions.get('default', 'catch-up'); i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal(t.app.sessions.get('default', 'catch-up'), undefined, 'the session left memory after its resume window');

    const resumed = await catchUp(t, 'catch-up', held(12));
    assert.equal(resumed.resumed, true);
    assert.deepEqual(resumed.overloaded, []);
    // The same burst on a new session is a flood: shed past the 5 s lead.
    const fresh = await catchUp(t, 'catch-up-new', held(12));
    assert.equal(fresh.resumed, false);
    assert.equal(fresh.overloaded.length, 1);
    assert.match(fresh.overloaded[0]!, /faster than real time|speech workers are behind/);
  });
});

