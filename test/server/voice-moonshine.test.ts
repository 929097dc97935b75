import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { wordErrorRate } from '../../pipelines/asr/wer.js';
import { fixtureSamples, loadAudioFixtures } from '../../pipelines/audio/fixtures.js';
import { readWav } from '../../pipelines/audio/wav.js';
import { modelsDir } from '../../pipelines/models/repo-root.js';
import { appForSuite, startTestApp, startVoiceTestApp } from '../helpers/app.js';
import { speakOnPhoneLine, TestWsClient, type ServerEvent } from '../helpers/ws-client.js';

const MODELS = modelsDir();
const SKIP = existsSync(path.join(MODELS, 'moonshine-tiny', 'decoder_model_merged.onnx'))
  ? false : `${MODELS}/moonshine-tiny absent: run \`npm run models -- fetch moonshine-tiny\` (scripts/setup.sh does)`;

/**
 * A live WebSocket session with PARLEY_ASR=moonshine: the inference worker loads the fetched model,
 * VAD turns go through it, finals (and partials, with PARLEY_MOONSHINE_PARTIAL_MS) reach the client.
 */
describe('voice over WebSocket with PARLEY_ASR=moonshine', { skip: SKIP }, () => {
  const t = appForSuite(() => startVoiceTestApp({ PARLEY_ASR: 'moonshine', MODELS_DIR: MODELS, PARLEY_MOONSHINE_PARTIAL_MS: '500' }));

  const finalsOf = (c: TestWsClient): ServerEvent[] => c.events.filter((e) => e.type === 'transcript.final');

  test('16 kHz: one final per utterance close to the text, partials before their finals', async () => {
    const awb = loadAudioFixtures().find((f) => f.file === 'awb.wav')!;
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=moon-1&sample_rate=16000&encoding=pcm_s16le`, {},
      { pacing: 'realtime', frameMs: 100, speed: 1 });
    await c.next('session.started');
    await c.speak(fixtureSamples(awb));
    for (let i = 0; i < 600 && finalsOf(c).length < awb.utterances.length; i++) await new Promise((r) => setTimeout(r, 100));
    const finals = finalsOf(c);
    assert.deepEqual(c.events.filter((e) => e.type === 'error'), []);
    assert.equal(finals.length, awb.utterances.length, finals.map((f) => f.text).join(' | '));
    const wer = wordErrorRate(awb.utterances.map((u, i) => ({ reference: u.text, hypothesis: String(finals[i]!.text) })));
    assert.ok(wer < 0.3, `WER ${wer}: ${finals.map((f) => f.text).join(' | ')}`);
    const partials = c.events.filter((e) => e.type === 'transcript.partial');
    assert.ok(partials.length >= 1, 'partials arrive with PARLEY_MOONSHINE_PARTIAL_MS');
    for (const p of partials) {
      const final = finals.find((f) => f.turn_id === p.turn_id);
      assert.ok(final && p.seq < final.seq, 'no partial after its final');
    }
    c.sendJson({ type: 'session.end' });
    await c.next('session.ended', () => true, 30_000);
  });

  test('8 kHz μ-law phone line: transcribed by the same recogniser', async () => {
    const slt = loadAudioFixtures().find((f) => f.file === 'slt.wav')!;
    const c = await speakOnPhoneLine(t.wsUrl, 'moon-2', fixtureSamples(slt));
    for (let i = 0; i < 600 && finalsOf(c).length < slt.utterances.length; i++) await new Promise((r) => setTimeout(r, 100));
    const finals = finalsOf(c);
    assert.equal(finals.length, slt.utterances.length, finals.map((f) => f.text).join(' | '));
    const wer = wordErrorRate(slt.utterances.map((u, i) => ({ reference: u.text, hypothesis: String(finals[i]!.text) })));
    assert.ok(wer < 0.3, `WER ${wer}: ${finals.map((f) => f.text).join(' | ')}`);
    c.close();
  });
});

/** flite `voice` saying `text`, 16 kHz, with 0.6 s of silence before it. */
function flite(voice: string, text: string): Float32Array {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-voice-moonshine-'));
  try {
    execFileSync('flite', ['-voice', voice, '-t', text, '-o', path.join(dir, 'raw.wav')]);
    execFileSync('sox', [path.join(dir, 'raw.wav'), '-r', '16000', '-c', '1', '-b', '16', path.join(dir, 'x.wav'), 'pad', '0.6', '0']);
    return readWav(path.join(dir, 'x.wav')).samples;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** PARLEY_MOONSHINE_NAMES=true: the session's names reach Moonshine and a misheard one is written as the name. */
describe('voice over WebSocket with PARLEY_ASR=moonshine and PARLEY_MOONSHINE_NAMES=true', { skip: SKIP }, () => {
  const t = appForSuite(() => startVoiceTestApp({ PARLEY_ASR: 'moonshine', PARLEY_MOONSHINE_NAMES: 'true', MODELS_DIR: MODELS }));

  test('the expected caller\'s name is heard where Moonshine alone writes "Ellen"', async () => {
    await t.app.stores.graph.createParticipant('default', { name: 'Alan Smith', externalId: '+15550199' });
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=moon-names&external_id=%2B15550199&sample_rate=16000&encoding=pcm_s16le`, {},
      { pacing: 'realtime', frameMs: 100, speed: 1 });
    await c.next('session.started');
    await c.speak(flite('slt', 'my name is alan and biden the warehouse'));
    const final = await c.next('transcript.final', () => true, 60_000);
    assert.match(String(final.text), /\bmy name is alan\b/, `final: "${String(final.text)}"`);
    c.sendJson({ type: 'session.end' });
    await c.next('session.ended', () => true, 60_000);
  });
});

/** PARLEY_ASR_PHONE=moonshine: pocketsphinx keeps wideband streams, Moonshine takes the 8 kHz ones. */
describe('phone lines on Moonshine beside pocketsphinx (PARLEY_ASR_PHONE=moonshine)', { skip: SKIP }, () => {
  const t = appForSuite(() => startVoiceTestApp({ PARLEY_ASR_PHONE: 'moonshine', MODELS_DIR: MODELS }));

  test('an 8 kHz μ-law stream is decoded by Moonshine (finals, no partials); a 16 kHz one by pocketsphinx (partials)', async () => {
    const slt = loadAudioFixtures().find((f) => f.file === 'slt.wav')!;
    const phone = await speakOnPhoneLine(t.wsUrl, 'phone-moon', fixtureSamples(slt));
    const finalsOf = (c: TestWsClient): ServerEvent[] => c.events.filter((e) => e.type === 'transcript.final');
    for (let i = 0; i < 600 && finalsOf(phone).length < slt.utterances.length; i++) await new Promise((r) => setTimeout(r, 100));
    const finals = finalsOf(phone);
    assert.equal(finals.length, slt.utterances.length, finals.map((f) => f.text).join(' | '));
    assert.equal(phone.events.filter((e) => e.type === 'transcript.partial').length, 0, 'Moonshine makes no partials by default; pocketsphinx would');
    const wer = wordErrorRate(slt.utterances.map((u, i) => ({ reference: u.text, hypothesis: String(finals[i]!.text) })));
    assert.ok(wer < 0.3, `WER ${wer}: ${finals.map((f) => f.text).join(' | ')}`);
    phone.close();

    const awb = loadAudioFixtures().find((f) => f.file === 'awb.wav')!;
    const wideband = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=wide-ps&sample_rate=16000&encoding=pcm_s16le`, {},
      { pacing: 'realtime', frameMs: 100, speed: 1 });
    await wideband.next('session.started');
    await wideband.speak(fixtureSamples(awb));
    for (let i = 0; i < 600 && finalsOf(wideband).length < awb.utterances.length; i++) await new Promise((r) => setTimeout(r, 100));
    assert.ok(finalsOf(wideband).length >= 1);
    assert.ok(wideband.events.some((e) => e.type === 'transcript.partial'), 'pocketsphinx still serves 16 kHz streams, with partials');
    wideband.close();
  });
});

test('PARLEY_ASR_PHONE=moonshine without the model installed stops the server, naming the fetch command', async () => {
  const empty = await mkdtemp(path.join(os.tmpdir(), 'parley-no-models-'));
  try {
    await assert.rejects(startTestApp({ PARLEY_ASR_PHONE: 'moonshine', MODELS_DIR: empty }, false),
      (err: Error & { code?: string }) => err.code === 'PARLEY_ERR_MODEL_MISSING' && /npm run models -- fetch moonshine-tiny/.test(err.message));
  } finally {
    await rm(empty, { recursive: true, force: true });
  }
});
