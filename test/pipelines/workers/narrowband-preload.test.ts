import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { NARROWBAND_OPTIONS, narrowbandToLoad } from '../../../pipelines/asr/narrowband.js';
import type { AsrBackendConfig } from '../../../pipelines/asr/streaming-asr.js';
import type { AudioSessionEvent } from '../../../pipelines/audio/audio-events.js';
import { createAudioSession } from '../../../pipelines/audio/audio-session.js';
import { WorkerPool } from '../../../pipelines/workers/worker-pool.js';
import { loadConfig } from '../../../server/config.js';

/**
 * The phone (8 kHz) recogniser is loaded at a worker's start (`preloadNarrowband`, PARLEY_ASR_PHONE_PRELOAD) or on
 * its first 8 kHz stream. Which one is seen through a phone recogniser that cannot load (Moonshine from an empty
 * folder): preloaded, the worker does not start; deferred, it starts and only the first 8 kHz stream fails.
 */
describe('the phone recogniser: preloaded, or loaded on the first 8 kHz stream', () => {
  let empty = '';
  let asr: AsrBackendConfig;
  before(() => {
    empty = mkdtempSync(path.join(os.tmpdir(), 'parley-narrow-preload-'));
    asr = { kind: 'pocketsphinx', maxDecoders: 1, narrowbandRecogniser: { kind: 'moonshine', model: 'moonshine-tiny', modelDir: empty } };
  });
  after(() => rmSync(empty, { recursive: true, force: true }));

  test('preloaded (the default): a phone recogniser that cannot load stops the worker at start', async () => {
    await assert.rejects(WorkerPool.create({ size: 1, asr }));
    await assert.rejects(WorkerPool.create({ size: 1, asr, preloadNarrowband: true }));
  });

  test('not preloaded: the worker starts, wideband streams are served, and the first 8 kHz stream loads it', async () => {
    const pool = await WorkerPool.create({ size: 1, asr, preloadNarrowband: false });
    try {
      const events = async (sampleRate: number): Promise<AudioSessionEvent[]> => {
        const s = await createAudioSession({ format: { encoding: 'pcm_s16le', sampleRate }, pool, maxLeadMs: Infinity, maxQueuedMs: 60_000 });
        const out: AudioSessionEvent[] = [];
        const drained = (async () => { for await (const e of s) out.push(e); })();
        s.push(Buffer.alloc(sampleRate / 5)); // 100 ms of silence
        await s.close({ flush: true, timeoutMs: 120_000 });
        await drained;
        return out;
      };
      assert.deepEqual(await events(16000), [], 'a wideband stream never touches the phone recogniser');
      const phone = (await events(8000)).filter((e) => e.type === 'error');
      assert.equal(phone.length > 0, true, 'the 8 kHz stream asked for the phone recogniser, which could not load');
      assert.match(phone[0]?.type === 'error' ? phone[0].message : '', /audio processing failed/);
    } finally {
      await pool.close();
    }
  });

  test('not preloaded: an 8 kHz stream that opens and sends nothing while its recogniser fails to load does not crash the worker', async () => {
    const pool = await WorkerPool.create({ size: 1, asr, preloadNarrowband: false });
    try {
      const quiet = await createAudioSession({ format: { encoding: 'pcm_s16le', sampleRate: 8000 }, pool, maxLeadMs: Infinity, maxQueuedMs: 60_000 });
      const seen: AudioSessionEvent[] = [];
      const drained = (async () => { for await (const e of quiet) seen.push(e); })();
      // Time for the load to fail before any task of the stream is queued (the worker crashed on it then).
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const wide = await createAudioSession({ format: { encoding: 'pcm_s16le', sampleRate: 16000 }, pool, maxLeadMs: Infinity, maxQueuedMs: 60_000 });
      const out: AudioSessionEvent[] = [];
      const wideDrained = (async () => { for await (const e of wide) out.push(e); })();
      wide.push(Buffer.alloc(3200));
      await wide.close({ flush: true, timeoutMs: 120_000 });
      await wideDrained;
      await quiet.close({ flush: true, timeoutMs: 120_000 });
      await drained;
      const crashed = [...seen, ...out].filter((e) => e.type === 'error' && /crashed/.test(e.message));
      assert.deepEqual(crashed, [], 'no worker crash');
      assert.deepEqual(out, [], 'the wideband stream beside it is served');
    } finally {
      await pool.close();
    }
  });
});

describe('PARLEY_ASR_PHONE_PRELOAD and what a worker loads for 8 kHz streams', () => {
  test('the setting: true by default, false as set, anything else refused', () => {
    assert.equal(loadConfig({}).asrPhonePreload, true);
    assert.equal(loadConfig({ PARLEY_ASR_PHONE_PRELOAD: 'false' }).asrPhonePreload, false);
    assert.throws(() => loadConfig({ PARLEY_ASR_PHONE_PRELOAD: 'yes' }), /PARLEY_ASR_PHONE_PRELOAD/);
  });

  test('nothing extra where 8 kHz streams resolve to the wideband recogniser itself', () => {
    const moon = { kind: 'moonshine', model: 'moonshine-tiny', modelDir: '/m/moonshine-tiny' } as const;
    assert.equal(narrowbandToLoad(moon), null, 'PARLEY_ASR=moonshine: its own recogniser serves phone streams');
    const same = { kind: 'pocketsphinx', options: { ...NARROWBAND_OPTIONS } } as const;
    assert.equal(narrowbandToLoad(same), null, 'pocketsphinx whose options are the narrowband ones: one recogniser');
    const own = { kind: 'pocketsphinx', options: { '-ds': '2', '-maxhmmpf': '3000' }, nameSpotting: { maxNames: 100 } } as const;
    assert.equal(narrowbandToLoad(own), null, 'the operator\'s options override both narrowband ones: one recogniser');
    assert.notEqual(narrowbandToLoad({ ...own, narrowbandNameSpotting: false }), null, 'no name spotting on phone lines: a recogniser of their own');
    assert.deepEqual(narrowbandToLoad({ kind: 'pocketsphinx' }), { kind: 'pocketsphinx', options: { ...NARROWBAND_OPTIONS } });
    assert.deepEqual(narrowbandToLoad({ kind: 'pocketsphinx', narrowbandRecogniser: moon }), moon);
  });
});
