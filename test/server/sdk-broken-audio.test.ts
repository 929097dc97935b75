import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ParleyError, type ServerEvent } from '../../clients/typescript/src/index.js';
import { appWithClientForSuite } from '../helpers/app.js';

/**
 * Audio handed to the SDK that ends in the middle of a sample (3201 bytes of pcm_s16le) is refused as the server
 * refuses such a frame: that partial frame is dropped with `PARLEY_ERR_BAD_AUDIO`, and the session goes on: `end()`
 * still ends it on the server (it can then be forgotten), whether or not `drained()` reported the error first.
 */
describe('audio that ends in the middle of a sample', () => {
  const suite = appWithClientForSuite();

  /** 100 ms of silent pcm_s16le at 16 kHz and one stray byte. */
  const broken = new Uint8Array(3201);

  /** The session ended on the server: it is no longer live, so it can be forgotten (a live one is a 409). */
  async function forgettable(sessionId: string): Promise<void> {
    const res = await fetch(`${suite.t.httpUrl}/v1/sessions/${sessionId}`, { method: 'DELETE' });
    assert.equal(res.status, 204);
  }

  test('drained() rejects with PARLEY_ERR_BAD_AUDIO; end() then ends the session', async () => {
    const s = await suite.api.stream({ sessionId: 'half-sample-drained', pacing: 'none' });
    s.sendAudio(broken);
    const err = await s.drained().then(() => assert.fail('drained() resolved'), (e: unknown) => e);
    assert.ok(err instanceof ParleyError && err.code === 'PARLEY_ERR_BAD_AUDIO', String(err));
    assert.equal((await s.end()).type, 'session.ended');
    await forgettable('half-sample-drained');
  });

  test('end() without drained() ends the session, reporting the dropped frame as a non-fatal error event', async () => {
    const s = await suite.api.stream({ sessionId: 'half-sample-end', pacing: 'none' });
    const events: ServerEvent[] = [];
    const read = (async () => { for await (const e of s) events.push(e); })();
    s.sendAudio(broken);
    assert.equal((await s.end()).type, 'session.ended');
    await read;
    const bad = events.find((e) => e.type === 'error');
    assert.ok(bad?.type === 'error' && bad.code === 'PARLEY_ERR_BAD_AUDIO' && !bad.fatal, JSON.stringify(events));
    await forgettable('half-sample-end');
  });
});
