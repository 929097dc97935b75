import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { pino } from 'pino';
import { MOONSHINE_FILES } from '../../pipelines/asr/moonshine-model.js';
import { moonshineInstalled } from '../../pipelines/asr/phone-recogniser-choice.js';
import { fixtureSamples, loadAudioFixtures } from '../../pipelines/audio/fixtures.js';
import { modelsDir } from '../../pipelines/models/repo-root.js';
import { loadConfig } from '../../server/config.js';
import { asrBackend, phoneMoonshine } from '../../server/plugins/models.js';
import { startTestApp } from '../helpers/app.js';
import { speakOnPhoneLine } from '../helpers/ws-client.js';

const MODEL = 'moonshine-tiny';
const FETCH = `npm run models -- fetch ${MODEL}`;
const MODELS = modelsDir();
const SKIP = moonshineInstalled(MODELS, MODEL) ? false : `${MODELS}/${MODEL} absent: run \`${FETCH}\` (scripts/setup.sh does)`;

/** A models folder holding Moonshine tiny as `files` says: each file's bytes, or null for a link to the fetched one. */
function modelsFolder(root: string, name: string, files: Record<string, Buffer | null>): string {
  const dir = path.join(root, name);
  mkdirSync(path.join(dir, MODEL), { recursive: true });
  for (const [file, bytes] of Object.entries(files)) {
    const at = path.join(dir, MODEL, file);
    if (bytes) writeFileSync(at, bytes);
    else symlinkSync(path.join(MODELS, MODEL, file), at);
  }
  return dir;
}

describe('Moonshine files that are there but damaged (PARLEY_ASR_PHONE)', () => {
  let root = '';
  /** Stand-in files: present, but no Moonshine export at all. */
  let standIns = '';
  /** The fetched encoder, and the first half of the fetched decoder (a download cut short). */
  let truncated = '';
  /** The fetched decoder, and the encoder with one byte changed (same size, another hash). */
  let flipped = '';
  before(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'parley-phone-damaged-'));
    standIns = modelsFolder(root, 'stand-ins', { [MOONSHINE_FILES.encoder]: Buffer.from('x'), [MOONSHINE_FILES.decoder]: Buffer.from('x') });
    if (SKIP) return;
    const decoder = readFileSync(path.join(MODELS, MODEL, MOONSHINE_FILES.decoder));
    truncated = modelsFolder(root, 'truncated', { [MOONSHINE_FILES.encoder]: null, [MOONSHINE_FILES.decoder]: decoder.subarray(0, decoder.length >> 1) });
    const encoder = readFileSync(path.join(MODELS, MODEL, MOONSHINE_FILES.encoder));
    const middle = encoder.length >> 1;
    encoder[middle] = encoder[middle]! ^ 0xff;
    flipped = modelsFolder(root, 'flipped', { [MOONSHINE_FILES.encoder]: encoder, [MOONSHINE_FILES.decoder]: null });
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  /** Each damaged folder of this run, with the file that is damaged in it. */
  const damaged = (): [string, string][] => [
    [standIns, MOONSHINE_FILES.encoder],
    ...(SKIP ? [] : [[truncated, MOONSHINE_FILES.decoder], [flipped, MOONSHINE_FILES.encoder]] as [string, string][]),
  ];

  test('auto: pocketsphinx narrowband instead, and the warning says which file is damaged, where, and the fetch command', () => {
    for (const [dir, file] of damaged()) {
      assert.equal(moonshineInstalled(dir, MODEL), true, 'every file is there');
      const config = loadConfig({ MODELS_DIR: dir });
      assert.equal(config.asrPhone, 'pocketsphinx', dir);
      assert.equal(phoneMoonshine(config), false);
      const backend = asrBackend(config);
      assert.equal(backend.kind === 'pocketsphinx' ? backend.narrowbandRecogniser : 'x', undefined);
      const warning = config.asrPhoneFallback ?? 'no warning';
      for (const part of ['damaged', file, path.join(dir, MODEL), FETCH]) assert.ok(warning.includes(part), `${part}: ${warning}`);
    }
  });

  test('under another PARLEY_ASR nothing is hashed or warned of', () => {
    assert.equal(loadConfig({ MODELS_DIR: standIns, PARLEY_ASR: 'none' }).asrPhoneFallback, null);
  });

  test('PARLEY_ASR_PHONE=moonshine: the server does not start, and the error names the damaged file and the fetch command', async () => {
    for (const [dir, file] of damaged()) {
      await assert.rejects(startTestApp({ MODELS_DIR: dir, PARLEY_ASR_PHONE: 'moonshine' }, false), (err: Error & { code?: string }) =>
        err.code === 'PARLEY_ERR_MODEL_MISSING' && [file, 'damaged', FETCH, path.join(dir, MODEL)].every((part) => err.message.includes(part)));
    }
  });

  test('auto with a truncated model: the server starts with one warning, and a phone stream is transcribed by pocketsphinx', { skip: SKIP }, async () => {
    const lines: string[] = [];
    const logger = pino<never>({ level: 'warn' }, new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } }));
    const t = await startTestApp({ MODELS_DIR: truncated, PARLEY_INFERENCE_WORKERS: '1', PARLEY_AUDIO_MAX_QUEUED_MS: '600000' }, true, logger);
    try {
      await t.app.models.inference();
      assert.equal(lines.filter((l) => l.includes(FETCH)).length, 1, lines.join(''));
      const slt = loadAudioFixtures().find((f) => f.file === 'slt.wav')!;
      const c = await speakOnPhoneLine(t.wsUrl, 'phone-damaged', fixtureSamples(slt));
      c.sendJson({ type: 'session.end' });
      await c.next('session.ended');
      assert.deepEqual(c.events.filter((e) => e.type === 'error'), [], 'the stream did not fail');
      assert.ok(c.events.some((e) => e.type === 'transcript.final'), 'its turns were transcribed');
      assert.ok(c.events.some((e) => e.type === 'transcript.partial'), 'by pocketsphinx (Moonshine at pauses sends no partials)');
      assert.equal(lines.filter((l) => l.includes(FETCH)).length, 1, 'still one warning');
    } finally {
      await t.close();
    }
  });
});
