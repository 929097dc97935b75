import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat, utimes, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { AudioSpanStore } from '../../../pipelines/audio/audio-span-store.js';
import { parseWav } from '../../../pipelines/audio/wav.js';

test('writes a turn as a 16-bit WAV under audio/<tenant>/<session>/ and returns its relative path', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'parley-spans-'));
  try {
    const store = new AudioSpanStore({ dataDir: dir, retentionDays: 7 });
    const x = Float32Array.from({ length: 1600 }, (_, i) => 0.25 * Math.sin(i / 5));
    const ref = await store.write('default', 'sess-1', 'utt-9', x);
    assert.equal(ref, 'audio/default/sess-1/utt-9.wav');
    const wav = parseWav(await readFile(path.join(dir, ref)));
    assert.equal(wav.sampleRate, 16000);
    assert.equal(wav.samples.length, 1600);
    assert.ok(Math.abs((wav.samples[10] ?? 0) - (x[10] ?? 0)) < 1e-4);
    await assert.rejects(store.write('../etc', 's', 'u', x), { code: 'PARLEY_ERR_BAD_REQUEST' });
    assert.throws(() => store.resolve('../outside.wav'), { code: 'PARLEY_ERR_BAD_REQUEST' });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('sweep deletes spans older than the retention and empty folders; 0 days keeps none', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'parley-spans-'));
  try {
    const store = new AudioSpanStore({ dataDir: dir, retentionDays: 2 });
    const x = new Float32Array(160);
    const old = await store.write('t', 's1', 'old', x);
    const fresh = await store.write('t', 's2', 'fresh', x);
    assert.ok(old && fresh);
    const threeDaysAgo = new Date(Date.now() - 3 * 86_400_000);
    await utimes(path.join(dir, old), threeDaysAgo, threeDaysAgo);
    assert.equal(await store.sweep(), 1);
    await assert.rejects(stat(path.join(dir, old)));
    await stat(path.join(dir, fresh));
    assert.deepEqual(await readdir(path.join(dir, 'audio', 't')), ['s2']);

    const none = new AudioSpanStore({ dataDir: dir, retentionDays: 0 });
    assert.equal(await none.write('t', 's3', 'u', x), null);
    await assert.rejects(stat(path.join(dir, 'audio', 't', 's3')));
    assert.equal(await none.sweep(), 1); // the remaining span is older than "now"
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
