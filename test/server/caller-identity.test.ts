import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readWav } from '../../pipelines/audio/wav.js';
import { appForSuite, startVoiceTestApp } from '../helpers/app.js';
import { connectTwilio, SseClient, twilioCall, twilioMessages } from '../helpers/twilio.js';
import { TestWsClient } from '../helpers/ws-client.js';

const KEY = 'key-callerid-1';
const TENANT = 'acme';

/** flite `voice` saying each of `texts`, 16 kHz, 0.6 s of silence before each and `gapS` after. */
function speech(voice: string, texts: string[], gapS = 1.5): Float32Array {
  const dir = mkdtempSync(path.join(tmpdir(), 'parley-callerid-'));
  try {
    const parts = texts.map((text, i) => {
      execFileSync('flite', ['-voice', voice, '-t', text, '-o', path.join(dir, `raw${i}.wav`)]);
      execFileSync('sox', ['-R', path.join(dir, `raw${i}.wav`), '-r', '16000', '-c', '1', '-b', '16', path.join(dir, `x${i}.wav`), 'pad', '0.6', String(gapS)]);
      return readWav(path.join(dir, `x${i}.wav`)).samples;
    });
    const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) { out.set(p, at); at += p.length; }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The same speech over a telephone line: 300–3400 Hz, 8 kHz G.711 μ-law (sox, repeatable dither). */
function overPhone(samples: Float32Array): Buffer {
  const dir = mkdtempSync(path.join(tmpdir(), 'parley-callerid-'));
  try {
    const raw = ['-t', 'raw', '-r', '16000', '-e', 'floating-point', '-b', '32', '-c', '1'];
    execFileSync('sox', ['-R', '-V1', ...raw, '-', '-t', 'raw', '-r', '8000', '-e', 'u-law', '-b', '8', '-c', '1', path.join(dir, 'call.ulaw'), 'sinc', '300-3400', 'rate', '8000'],
      { input: Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength) });
    return readFileSync(path.join(dir, 'call.ulaw'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('a phone caller with a new external_id after a wideband participant (issue #17, the newcomer trial)', () => {
  const t = appForSuite(() => startVoiceTestApp({ PARLEY_API_KEYS: `${KEY}:${TENANT}`, PARLEY_SESSION_END_WAIT_MS: '100000' }));

  const get = async (url: string): Promise<{ statusCode: number; json: () => any }> => t.app.inject({ url, headers: { authorization: `Bearer ${KEY}` } });

  /** Play a Twilio call at twice real time; resolves with the session's transcript once it ended. */
  async function call(externalId: string, audio: Buffer): Promise<{ speaker: { id: string } }[]> {
    const c = twilioCall({ parley_token: KEY, external_id: externalId });
    const sse = await SseClient.open(`${t.httpUrl}/v1/sessions/${c.callSid}/events?token=${KEY}`);
    const { ws } = await connectTwilio(`${t.wsUrl}/v1/twilio`);
    const began = Date.now();
    for (const [i, m] of twilioMessages(c, audio).entries()) {
      const due = began + i * 10 - Date.now();
      if (due > 0) await new Promise((r) => setTimeout(r, due));
      ws.send(JSON.stringify(m));
    }
    ws.close(1000);
    await sse.until(() => sse.ended, 120_000, 'the call\'s session to end');
    sse.close();
    const transcript = await get(`/v1/sessions/${c.callSid}/transcript`);
    return transcript.json().utterances;
  }

  test('the caller becomes a new participant holding the id; the wideband participant keeps none; the same caller again is that participant', async () => {
    // A male voice heard wideband first (its voiceprint is stored).
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=wide-1`, { authorization: `Bearer ${KEY}` }, { pacing: 'realtime', frameMs: 100, speed: 2 });
    await c.next('session.started');
    await c.speak(speech('awb', ['Could you remind me what time the meeting starts tomorrow morning?', 'The train was late again, so I missed the first half of the talk.']));
    c.sendJson({ type: 'session.end' });
    await c.next('session.ended', () => true, 120_000);
    const wide = (await get('/v1/sessions/wide-1/transcript')).json().utterances as { speaker: { id: string } }[];
    assert.ok(wide.length >= 1, 'the wideband session stored turns');
    const earlier = wide[0]!.speaker.id;
    assert.ok((await t.app.stores.voiceprints.countByParticipant(TENANT, earlier)) >= 1, 'the earlier participant has a voiceprint');

    // A female caller on the phone, with an external id nobody holds, opening with a greeting under SHORT_TURN_MS (main
    // gave such a turn to the best voice known, whatever its score, and then the id to that participant). The phone
    // recogniser is the default (Moonshine where installed: pocketsphinx may hear the greeting as nothing).
    const caller = overPhone(speech('slt', ['Good morning.', 'I am calling about the order I placed last week.']));
    const first = await call('+15550100', caller);
    assert.ok(first.length >= 1, 'the call stored turns');
    const holder = await get('/v1/participants/%2B15550100');
    assert.equal(holder.statusCode, 200, 'someone holds the caller\'s id');
    const callerId = holder.json().id as string;
    assert.notEqual(callerId, earlier, 'the caller is not the earlier wideband participant');
    assert.deepEqual(first.map((u) => u.speaker.id), first.map(() => callerId), 'every turn of the call is the caller\'s');
    assert.equal((await get(`/v1/participants/${earlier}`)).json().external_id, null, 'the earlier participant was not given the caller\'s id');

    // The same caller again, with the same id: the same participant.
    const again = await call('+15550100', overPhone(speech('slt', ['Hello, it is me again.', 'I wanted to change the delivery address.'])));
    assert.ok(again.length >= 1, 'the second call stored turns');
    assert.deepEqual(again.map((u) => u.speaker.id), again.map(() => callerId), 'the returning caller is the same participant');
  });
});
