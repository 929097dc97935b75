import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PocketsphinxAsr } from '../../../pipelines/asr/pocketsphinx-asr.js';
import { pocketsphinxApi, type PocketsphinxApi } from '../../../pipelines/asr/pocketsphinx-ffi.js';
import { layoutMismatch, streamStateAccess } from '../../../pipelines/asr/pocketsphinx-stream-state.js';
import type { AsrTurnStream } from '../../../pipelines/asr/streaming-asr.js';
import { synth } from '../../../bench/lib/room-audio.js';

// issue #17 item 5: the stream state read through the FFI is only read from the library builds its layout
// was taken from, and a stream's overlapping turns leave its state in turn order.
const GRACE = 'Hi, this is Grace. I moved to Lisbon last month.';
const LOUD = 'The delivery trucks leave the warehouse at seven every morning.';

const load2 = (): PocketsphinxAsr => PocketsphinxAsr.load({ kind: 'pocketsphinx', maxDecoders: 2, nameSpotting: false });

function feed(turn: AsrTurnStream, samples: Float32Array): void {
  for (let i = 0; i < samples.length; i += 1600) turn.accept(samples.subarray(i, i + 1600));
}

function scaled(x: Float32Array, gain: number): Float32Array {
  return x.map((v) => Math.max(-1, Math.min(1, v * gain)));
}

/** The real API, reporting `pocketsphinx` as another build (a test double for a library that is not installed). */
function reportingOther(pocketsphinx: PocketsphinxApi['libraries']['pocketsphinx']): () => PocketsphinxApi {
  return () => {
    const real = pocketsphinxApi();
    return { ...real, libraries: { ...real.libraries, pocketsphinx } };
  };
}

describe('pocketsphinx stream state: library gate', () => {
  test('the loaded libraries are identified by their own soname and Debian package version', () => {
    const { pocketsphinx, sphinxbase } = pocketsphinxApi().libraries;
    assert.equal(pocketsphinx.soname, 'libpocketsphinx.so.3');
    assert.equal(sphinxbase.soname, 'libsphinxbase.so.3');
    assert.match(pocketsphinx.version ?? '', /^0\.8\+5prealpha/);
    assert.match(sphinxbase.version ?? '', /^0\.8\+5prealpha/);
    assert.equal(layoutMismatch(pocketsphinxApi().libraries), undefined);
  });

  test('another soname, another version or an unknown one is refused, naming what was found', () => {
    const { libraries } = pocketsphinxApi();
    const other = (pocketsphinx: Partial<PocketsphinxApi['libraries']['pocketsphinx']>): string | undefined =>
      layoutMismatch({ ...libraries, pocketsphinx: { ...libraries.pocketsphinx, ...pocketsphinx } });
    assert.match(other({ soname: 'libpocketsphinx.so.5', version: '5.0.3-1' }) ?? '', /soname libpocketsphinx\.so\.5/);
    assert.match(other({ version: '5.0.3-1' }) ?? '', /version 5\.0\.3-1/);
    assert.match(other({ version: undefined }) ?? '', /not installed by a Debian package/);
    assert.match(layoutMismatch({ ...libraries, sphinxbase: { ...libraries.sphinxbase, soname: undefined } }) ?? '', /soname unknown/);
  });

  test('a decoder of a library reporting another version falls back: one log line with the reason, first turns decoded twice', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'parley-stream-gate-test-'));
    const warnings: { fields: Record<string, unknown>; msg: string }[] = [];
    const log = { warn: (fields: Record<string, unknown>, msg: string): void => void warnings.push({ fields, msg }) };
    const bind = reportingOther({ ...pocketsphinxApi().libraries.pocketsphinx, version: '5.0.3-1' });
    const asr = PocketsphinxAsr.load({ kind: 'pocketsphinx', maxDecoders: 2, nameSpotting: false }, log, bind);
    try {
      const reach = streamStateAccess(bind(), asr.pool.tryTake()!.ps);
      assert.ok('unavailable' in reach && /version 5\.0\.3-1/.test(reach.unavailable), JSON.stringify(reach));
      const grace = synth(dir, 'flite:slt', GRACE);
      const a = {};
      const b = {};
      const ta = asr.startTurn({ stream: a });
      const tb = asr.startTurn({ stream: b });
      feed(ta, grace);
      feed(tb, grace);
      const [fa, fb] = await Promise.all([ta.finish(), tb.finish()]);
      for (const f of [fa, fb]) assert.match(f.text, /grace/, `first turn decoded twice without stream state: "${f.text}"`);
      assert.equal(asr.streamState(a), undefined, 'no state read from a library of another version');
      assert.equal(asr.pool.peakSize, 2);
      assert.equal(warnings.length, 1, 'one line per recogniser, not per decoder');
      assert.match(String(warnings[0]!.fields['reason']), /version 5\.0\.3-1/);
    } finally {
      await asr.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('pocketsphinx stream state: overlapping turns of one stream', () => {
  let dir: string;
  let loud: Float32Array;
  let quiet: Float32Array;
  /** c0 of the log-energy mean a stream has after `loud` then `quiet`, and after `quiet` alone (one decoder, in order). */
  let afterBoth: number;
  let afterQuiet: number;
  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'parley-stream-order-test-'));
    loud = scaled(synth(dir, 'flite:awb', LOUD), 3);
    quiet = scaled(synth(dir, 'flite:slt', GRACE), 0.1);
    const solo = PocketsphinxAsr.load({ kind: 'pocketsphinx', maxDecoders: 1, nameSpotting: false });
    try {
      const s = {};
      for (const clip of [loud, quiet]) {
        const t = solo.startTurn({ stream: s });
        feed(t, clip);
        await t.finish();
      }
      afterBoth = solo.streamState(s)!.mean[0]!;
      const q = {};
      const t = solo.startTurn({ stream: q });
      feed(t, quiet);
      await t.finish();
      afterQuiet = solo.streamState(q)!.mean[0]!;
    } finally {
      await solo.close();
    }
    assert.ok(Math.abs(afterBoth - afterQuiet) > 1, `the two orders are told apart: ${afterBoth} / ${afterQuiet}`);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** Two turns of one stream at once: the loud one, then the quiet one started before the loud one finished. */
  function overlapping(asr: PocketsphinxAsr): { s: object; first: AsrTurnStream; second: AsrTurnStream } {
    const s = {};
    const first = asr.startTurn({ stream: s });
    feed(first, loud);
    const second = asr.startTurn({ stream: s });
    feed(second, quiet);
    return { s, first, second };
  }

  test('a turn started while the stream\'s previous turn still decodes starts from the state that turn leaves', async () => {
    const asr = load2();
    try {
      const { s, first, second } = overlapping(asr);
      await first.finish();
      await second.finish();
      const c0 = asr.streamState(s)!.mean[0]!;
      assert.ok(Math.abs(c0 - afterBoth) < 0.5, `log-energy mean ${c0}: in turn order ${afterBoth}, the second turn alone ${afterQuiet}`);
    } finally {
      await asr.close();
    }
  });

  test('a turn finished after the stream\'s next turn does not replace the state that newer turn left', async () => {
    const asr = load2();
    try {
      const { s, first, second } = overlapping(asr);
      // Finished out of order: the second turn cannot wait for the first, so it starts from the stream's first state.
      const { text } = await second.finish();
      assert.match(text, /grace/);
      await first.finish();
      const c0 = asr.streamState(s)!.mean[0]!;
      assert.ok(Math.abs(c0 - afterQuiet) < 0.5, `log-energy mean ${c0}: the newer turn left ${afterQuiet}, both ${afterBoth}`);
      assert.equal(asr.pool.peakSize, 2);
    } finally {
      await asr.close();
    }
  });

  test('a turn waiting for the stream\'s previous turn starts when that turn is aborted, and none waits after close', async () => {
    const asr = load2();
    try {
      const { s, first, second } = overlapping(asr);
      first.abort();
      const { text } = await second.finish();
      assert.match(text, /grace/);
      const c0 = asr.streamState(s)!.mean[0]!;
      assert.ok(Math.abs(c0 - afterQuiet) < 0.5, `an aborted turn leaves no state: ${c0}, alone ${afterQuiet}`);
      const third = asr.startTurn({ stream: s });
      const fourth = asr.startTurn({ stream: s });
      feed(fourth, quiet);
      await asr.close();
      third.abort();
      assert.deepEqual(await fourth.finish(), { text: '', confidence: 0 });
      assert.equal(asr.pool.size, 0);
    } finally {
      await asr.close();
    }
  });
});
