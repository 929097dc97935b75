/** `npm run replay:twilio`: a recording played to a server as a Twilio call, its events printed. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, test } from 'node:test';
import { mulawSample } from '../../pipelines/audio/pcm-codecs.js';
import { encodeWav } from '../../pipelines/audio/wav.js';
import { repoRoot } from '../../pipelines/models/repo-root.js';
import { callAudio } from '../../scripts/lib/call-audio.js';
import { appForSuite, startVoiceTestApp } from '../helpers/app.js';
import { tempDir } from '../helpers/temp-dir.js';
import { twilioFixture, twilioSid } from '../helpers/twilio.js';

const run = promisify(execFile);
const CLI = path.resolve(import.meta.dirname, '../../scripts/replay-twilio.js');
const KEY = 'key-replay-test-1';
const TENANT = 'acme';

/** The Twilio fixture as a 16 kHz WAV: each 8 kHz sample held twice (the script's resampler filters the images). */
function fixtureWav16k(dir: string): string {
  const { audio } = twilioFixture();
  const samples = new Float32Array(audio.length * 2);
  for (let i = 0; i < audio.length; i++) samples[2 * i] = samples[2 * i + 1] = mulawSample(audio[i]!);
  const file = path.join(dir, 'call-16k.wav');
  writeFileSync(file, encodeWav(samples, 16000));
  return file;
}

/** The failure `run` rejects with: exit code and stderr. */
async function refused(args: string[]): Promise<{ code: number; stderr: string }> {
  try {
    await run(process.execPath, [CLI, ...args]);
  } catch (err) {
    const e = err as { code: number; stderr: string };
    return { code: e.code, stderr: e.stderr };
  }
  assert.fail(`${args.join(' ')} succeeded`);
}

describe('the audio a replayed call sends', () => {
  test('a .ulaw file as it is; a WAV at another rate resampled to 8 kHz mu-law', async () => {
    const tmp = tempDir('parley-replay-audio-');
    try {
      const { audio } = twilioFixture();
      const fixture = path.join(tmp.dir, 'call.ulaw');
      writeFileSync(fixture, audio);
      assert.deepEqual(await callAudio(fixture), audio);
      const resampled = await callAudio(fixtureWav16k(tmp.dir));
      assert.ok(Math.abs(resampled.length - audio.length) <= 160, `${resampled.length} bytes for ${audio.length}`);
      // The same speech: the resampled signal against the fixture's, sample by sample.
      let signal = 0;
      let error = 0;
      for (let i = 0; i < Math.min(audio.length, resampled.length); i++) {
        const want = mulawSample(audio[i]!);
        signal += want * want;
        error += (mulawSample(resampled[i]!) - want) ** 2;
      }
      const snrDb = 10 * Math.log10(signal / error);
      assert.ok(snrDb > 15, `SNR ${snrDb.toFixed(1)} dB`);
    } finally {
      tmp.remove();
    }
  });

  test('another kind of file, a WAV that is none, or an empty file is refused, naming the file (exit 2)', async () => {
    const tmp = tempDir('parley-replay-audio-');
    try {
      const mp3 = path.join(tmp.dir, 'call.mp3');
      const notWav = path.join(tmp.dir, 'call.wav');
      const empty = path.join(tmp.dir, 'call.ulaw');
      writeFileSync(mp3, 'ID3');
      writeFileSync(notWav, 'hello, this is no audio');
      writeFileSync(empty, '');
      await assert.rejects(callAudio(mp3), { message: `${mp3}: not a .wav, .ulaw or .mulaw file (convert it first, e.g. sox call.mp3 call.wav)` });
      await assert.rejects(callAudio(notWav), { message: `${notWav}: not a RIFF/WAVE file: it starts with "hell", not "RIFF"` });
      await assert.rejects(callAudio(empty), { message: `${empty}: the file is empty` });
      const cli = await refused([mp3]);
      assert.equal(cli.code, 2);
      assert.match(cli.stderr, /^replay-twilio: .*call\.mp3: not a \.wav, \.ulaw or \.mulaw file/);
      assert.equal((await refused([mp3, '--speed', 'fast'])).code, 2);
    } finally {
      tmp.remove();
    }
  });
});

describe('npm run replay:twilio against a server', () => {
  // As test/server/twilio.test.ts: pocketsphinx pinned, no audio shed on a busy machine, consolidation awaited at the end.
  const t = appForSuite(() => startVoiceTestApp({
    PARLEY_ASR_PHONE: 'pocketsphinx',
    PARLEY_API_KEYS: `${KEY}:${TENANT}`,
    PARLEY_SESSION_END_WAIT_MS: '100000',
  }));

  test('a WAV played as a Twilio call: its events printed from session.started to session.ended, the call stored', async () => {
    const tmp = tempDir('parley-replay-call-');
    try {
      const callSid = twilioSid('CA');
      const { stdout, stderr } = await run(process.execPath, [CLI, fixtureWav16k(tmp.dir), '--url', t.httpUrl, '--token', KEY,
        '--call-sid', callSid, '--external-id', '+15551230077']);
      const events = stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; session_id: string });
      const types = events.map((e) => e.type);
      assert.equal(types[0], 'session.started', types.join(','));
      assert.equal(types.at(-1), 'session.ended', types.join(','));
      // The audio reached the speech pipeline. What it heard is test/server/twilio.test.ts's concern: on a machine loaded
      // far past its cores, the server may give up on the last turn's decoding after stop (a non-fatal PARLEY_ERR_UPSTREAM).
      assert.ok(types.includes('vad.speech_started'), types.join(','));
      assert.ok(!events.some((e) => e.type === 'error' && (e as { fatal?: boolean }).fatal), JSON.stringify(events.filter((e) => e.type === 'error')));
      assert.ok(events.every((e) => e.session_id === callSid));
      assert.match(stderr, new RegExp(`session ${callSid} ended`));

      const session = await t.app.stores.graph.getSession(TENANT, callSid);
      assert.equal(session?.metadata.channel, 'twilio');
      assert.deepEqual((session.metadata.twilio as { custom_parameters: unknown }).custom_parameters, { external_id: '+15551230077' },
        'the key went as parley_token, and is never stored');
      const caller = await t.app.inject({ url: '/v1/participants/%2B15551230077', headers: { authorization: `Bearer ${KEY}` } });
      assert.equal(caller.statusCode, 200, caller.body);
    } finally {
      tmp.remove();
    }
  });

  test('a wrong key stops before any audio, with the server\'s reason (exit 1)', async () => {
    const { code, stderr } = await refused([path.join(repoRoot(), 'test/fixtures/audio/twilio-call.ulaw'), '--url', t.httpUrl, '--token', 'wrong-key-000']);
    assert.equal(code, 1);
    assert.match(stderr, /subscribing to the call's events: .*unknown API key/);
  });
});
