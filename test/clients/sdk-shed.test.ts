import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ParleyClient } from '../../clients/typescript/src/index.js';
import { encodeS16le } from '../../pipelines/audio/pcm-codecs.js';
import { startTestApp } from '../helpers/app.js';

/**
 * A flood's `PARLEY_ERR_OVERLOADED` used to say only "audio shed: …", with no amount or range: a client
 * could not tell which of its audio the server dropped.
 */
test('@parley/client: a flood is one PARLEY_ERR_OVERLOADED naming where the shed audio begins, kept in session.shedFromMs, and one audio.shed naming the span, in session.shedSpans', async () => {
  const t = await startTestApp();
  try {
    const client = new ParleyClient({ baseUrl: t.httpUrl });
    const session = await client.stream({ sessionId: 'sdk-shed', pacing: 'none', frameMs: 1000 });
    const shed = session.waitFor('error', (e) => e.code === 'PARLEY_ERR_OVERLOADED', { timeoutMs: 120_000 });
    // 12 s of silence at once: at most 5 s may run ahead of the clock.
    session.sendAudio(encodeS16le(new Float32Array(16000 * 12)));
    const error = await shed;
    assert.ok(error.shed_from_ms !== undefined && error.shed_from_ms >= 5000 && error.shed_from_ms < 12000, `shed_from_ms ${error.shed_from_ms}`);
    assert.match(error.message, new RegExp(`shed_from_ms ${error.shed_from_ms}\\).*faster than real time \\(\\d+\\.\\d s ahead; at most 5\\.0 s\\)`));
    await session.end({ timeoutMs: 120_000 });
    assert.deepEqual(session.shedFromMs, [error.shed_from_ms], 'one episode, one offset');
    // Where the shedding ended too: the episode, still open at session.end, is named whole before session.ended.
    assert.deepEqual(session.shedSpans, [{ fromMs: error.shed_from_ms, untilMs: 12_000 }]);
  } finally {
    await t.close();
  }
});
