import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pino } from 'pino';
import { wordErrorRate } from '../../../pipelines/asr/wer.js';
import type { AudioSessionEvent } from '../../../pipelines/audio/audio-events.js';
import { createAudioSession, type AudioSession } from '../../../pipelines/audio/audio-session.js';
import { fixtureSamples, loadAudioFixtures, type AudioFixture } from '../../../pipelines/audio/fixtures.js';
import { encodeS16le } from '../../../pipelines/audio/pcm-codecs.js';
import { readWav } from '../../../pipelines/audio/wav.js';
import { WorkerPool } from '../../../pipelines/workers/worker-pool.js';

const fixtures = loadAudioFixtures();

/** Start draining a session's events into an array; resolves when the session closes. */
function drain(session: AudioSession): Promise<AudioSessionEvent[]> {
  return (async () => {
    const out: AudioSessionEvent[] = [];
    for await (const e of session) out.push(e);
    return out;
  })();
}

/** Push a fixture as 100 ms pcm_s16le frames, yielding to the event loop every `yieldEvery` frames. */
async function pushFile(session: AudioSession, f: AudioFixture, from = 0, to = Infinity, yieldEvery = 1): Promise<void> {
  const pcm = encodeS16le(fixtureSamples(f));
  const end = Math.min(pcm.length, to * 32);
  let n = 0;
  for (let i = from * 32; i < end; i += 3200) {
    assert.equal(session.push(pcm.subarray(i, Math.min(end, i + 3200))), undefined);
    if (++n % yieldEvery === 0) await new Promise((r) => setTimeout(r, 5));
  }
}

/** Wait for a condition driven by events (polling, bounded). */
async function until(cond: () => boolean, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const unthrottled = { maxLeadMs: Infinity, maxQueuedMs: 60_000 };

describe('WorkerPool with several workers', () => {
  let pool: WorkerPool;
  before(async () => { pool = await WorkerPool.create({ size: 3, asr: { kind: 'pocketsphinx' } }); });
  after(async () => { await pool.close(); });

  test('concurrent sessions are spread over the workers and each gets its own turns and transcripts', async () => {
    assert.equal(pool.size, 3);
    const chosen = fixtures.slice(0, 3);
    const sessions = await Promise.all(chosen.map(() =>
      createAudioSession({ format: { encoding: 'pcm_s16le', sampleRate: 16000 }, pool, ...unthrottled })));
    assert.deepEqual(pool.load, [1, 1, 1]);
    const drained = sessions.map(drain);
    await Promise.all(sessions.map((s, i) => pushFile(s, chosen[i] as AudioFixture, 0, Infinity, 3)));
    // Behaviour, not speed: on a busy machine three streams may take longer than the default 10 s to drain.
    await Promise.all(sessions.map((s) => s.close({ flush: true, timeoutMs: 120_000 })));
    const all = await Promise.all(drained);
    const pairs: { reference: string; hypothesis: string }[] = [];
    all.forEach((events, i) => {
      const f = chosen[i] as AudioFixture;
      const finals = events.filter((e) => e.type === 'final');
      assert.equal(finals.length, f.utterances.length, JSON.stringify(events.map((e) => e.type)));
      assert.deepEqual(finals.map((e) => e.turnId), f.utterances.map((_, k) => k + 1));
      assert.equal(events.filter((e) => e.type === 'error').length, 0);
      f.utterances.forEach((u, k) => pairs.push({ reference: u.text, hypothesis: finals[k]?.text ?? '' }));
    });
    assert.ok(wordErrorRate(pairs) < 0.4, JSON.stringify(pairs));
    assert.deepEqual(pool.load, [0, 0, 0]);
  });

  test('bad frames are refused with PARLEY_ERR_BAD_AUDIO and the session goes on', async () => {
    const s = await createAudioSession({ format: { encoding: 'f32le', sampleRate: 48000 }, pool, ...unthrottled });
    const events = drain(s);
    assert.equal(s.push(Buffer.alloc(7))?.code, 'PARLEY_ERR_BAD_AUDIO');
    const nan = new Float32Array(4800);
    nan[3] = NaN;
    assert.equal(s.push(Buffer.from(nan.buffer))?.code, 'PARLEY_ERR_BAD_AUDIO');
    assert.equal(s.push(Buffer.alloc(4 * 4800)), undefined);
    assert.ok(Math.abs(s.positionMs - 100) < 5, 'resampler delay is a few samples at most');
    await s.close({ flush: true });
    assert.deepEqual(await events, []);
    assert.equal(s.push(Buffer.alloc(4 * 4800))?.code, 'PARLEY_ERR_SESSION_ENDED');
  });

  test('commit ends the open turn through the worker', async () => {
    const f = fixtures[0] as AudioFixture;
    const u = f.utterances[0];
    assert.ok(u);
    const s = await createAudioSession({ format: {}, pool, ...unthrottled });
    const events = drain(s);
    await pushFile(s, f, 0, u.start_ms + 700);
    await s.close({ flush: true }); // flush commits
    const stop = (await events).find((e) => e.type === 'speech_stopped');
    assert.ok(stop && stop.type === 'speech_stopped' && stop.reason === 'commit');
  });

  test('audio faster than real time is shed with one PARLEY_ERR_OVERLOADED per episode', async () => {
    const s = await createAudioSession({ format: {}, pool, maxLeadMs: 1000, maxQueuedMs: 60_000 });
    const events = drain(s);
    const pcm = Buffer.alloc(3200); // 100 ms of silence
    for (let i = 0; i < 30; i++) s.push(pcm); // 3 s pushed at once: 2 s beyond the allowed lead
    await s.close({ flush: true });
    const errors = (await events).filter((e) => e.type === 'error');
    assert.equal(errors.length, 1);
    assert.equal(errors[0]?.type === 'error' && errors[0].code, 'PARLEY_ERR_OVERLOADED');
    assert.equal(s.positionMs, 3000, 'shed audio still advances the session clock');
  });

  test('frames held back and pushed at once are judged by when they arrived: sent at real time, none is shed', async () => {
    const s = await createAudioSession({ format: {}, pool, maxLeadMs: 1000, maxQueuedMs: 60_000 });
    const events = drain(s);
    const pcm = Buffer.alloc(3200);
    // 3 s that arrived 100 ms apart while the session was opening, pushed in one go once it is open.
    const firstArrival = performance.now() - 3000;
    for (let i = 0; i < 30; i++) s.push(pcm, firstArrival + i * 100);
    await s.close({ flush: true });
    assert.deepEqual((await events).filter((e) => e.type === 'error'), []);
    assert.equal(s.shedMs, 0);
  });

  test('a pool that falls behind sheds instead of queueing without bound', async () => {
    const s = await createAudioSession({ format: {}, pool, maxLeadMs: Infinity, maxQueuedMs: 500 });
    const events = drain(s);
    const f = fixtures[1] as AudioFixture;
    // Synchronous pushes: the worker cannot acknowledge anything until we yield.
    const pcm = encodeS16le(fixtureSamples(f));
    for (let i = 0; i < 32000 * 2; i += 3200) s.push(pcm.subarray(i, i + 3200));
    await new Promise((r) => setTimeout(r, 300));
    await pushFile(s, f, 2000, Infinity, 1);
    await s.close({ flush: true });
    const got = await events;
    const overloads = got.filter((e) => e.type === 'error' && e.code === 'PARLEY_ERR_OVERLOADED');
    assert.ok(overloads.length >= 1);
    assert.ok(got.some((e) => e.type === 'final'), 'the session recovers and keeps transcribing');
  });
});

describe('WorkerPool crash recovery', () => {
  test('a crashed worker is replaced; its session gets a non-fatal error and continues', async () => {
    const pool = await WorkerPool.create({ size: 1, asr: { kind: 'pocketsphinx' }, testHooks: true });
    try {
      const f = fixtures[0] as AudioFixture;
      const u1 = f.utterances[1];
      assert.ok(u1);
      const s = await createAudioSession({ format: {}, pool, ...unthrottled });
      const live: AudioSessionEvent[] = [];
      const events = (async () => { for await (const e of s) live.push(e); return live; })();
      await pushFile(s, f, 0, u1.start_ms - 200); // first utterance and its end of turn
      await until(() => live.some((e) => e.type === 'final'));
      pool.crashWorkerForTest(0);
      await until(() => live.some((e) => e.type === 'error'));
      await pushFile(s, f, u1.start_ms - 200); // the rest, now served by the replacement
      await s.close({ flush: true });
      const got = await events;
      const crash = got.find((e) => e.type === 'error');
      assert.ok(crash && crash.type === 'error');
      assert.equal(crash.code, 'PARLEY_ERR_WORKER_CRASHED');
      assert.equal(crash.fatal, false);
      const finals = got.filter((e) => e.type === 'final');
      assert.ok(finals.length >= 2, JSON.stringify(got.map((e) => e.type)));
      // Turn numbering continues across the replacement and times stay on the session clock.
      const last = finals[finals.length - 1];
      assert.ok(last && last.type === 'final');
      assert.equal(last.turnId, finals.length);
      assert.ok(Math.abs(last.startMs - (f.utterances[f.utterances.length - 1]?.start_ms ?? 0)) < 300);
      assert.equal(pool.size, 1);
    } finally {
      await pool.close();
    }
  });

  test('a worker that cannot load its models fails the pool start-up with the model error', async () => {
    await assert.rejects(WorkerPool.create({ size: 2, asr: { kind: 'sherpa-onnx', modelDir: '/nonexistent' } }),
      { code: 'PARLEY_ERR_MODEL_MISSING' });
  });
});

describe('WorkerPool: the phone recogniser', () => {
  test('is loaded at worker start-up, before the pool is ready, not on the first 8 kHz stream (whose audio was shed meanwhile)', async () => {
    // A phone recogniser that cannot load: loaded at start-up, the pool fails to start with its error; loaded lazily,
    // the pool started and the first phone stream met the load.
    await assert.rejects(WorkerPool.create({ size: 1, asr: { kind: 'pocketsphinx', narrowbandRecogniser: { kind: 'moonshine', modelDir: '/nonexistent' } } }),
      { code: 'PARLEY_ERR_MODEL_MISSING' });
  });
});

describe('WorkerPool thread priority', () => {
  /** Nice values of this process's threads (Linux: /proc/self/task/<tid>/stat, field 19). */
  const threadNices = (): number[] => readdirSync('/proc/self/task').map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });

  test('workers run at the nice value asked for; the event loop keeps its own', { skip: process.platform !== 'linux' && 'Linux sets nice values per thread' }, async () => {
    const before = threadNices().filter((n) => n === 7).length;
    const mainNice = os.getPriority();
    const pool = await WorkerPool.create({ size: 2, asr: { kind: 'pocketsphinx' }, niceness: 7 });
    try {
      assert.ok(threadNices().filter((n) => n === 7).length >= before + 2, 'both worker threads at nice 7');
      assert.equal(os.getPriority(), mainNice, 'the main thread is unchanged');
    } finally {
      await pool.close();
    }
  });
});

describe('WorkerPool: the tenant\'s names reach the worker\'s recogniser', () => {
  test('names set on an open session make its turns spot them; without names the same audio gets the plain decode', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-pool-names-'));
    try {
      execFileSync('flite', ['-voice', 'awb', '-t', 'hi this is grace from accounts', '-o', path.join(dir, 'raw.wav')]);
      execFileSync('sox', [path.join(dir, 'raw.wav'), '-r', '16000', '-c', '1', '-b', '16', path.join(dir, 'line.wav'), 'pad', '0.6', '1.2']);
      const pcm = encodeS16le(readWav(path.join(dir, 'line.wav')).samples);
      // Each on a fresh one-worker pool: a decoder's cepstral mean adapts over turns, so both are a first turn, decoded
      // once with the model's prior mean (`primeFirstTurn: false`): the plain pass then misses the name, which shows
      // whether the names reached the worker (with the second pass the plain decode often hears "grace" by itself).
      const finalText = async (names: string[] | null): Promise<string> => {
        const pool = await WorkerPool.create({ size: 1, asr: { kind: 'pocketsphinx', primeFirstTurn: false } });
        try {
          const s = await createAudioSession({ format: {}, pool, ...unthrottled });
          const events = drain(s);
          s.push(pcm.subarray(0, 3200)); // the stream is open on its worker before the names are sent
          if (names) s.setNames(names);
          for (let i = 3200; i < pcm.length; i += 3200) s.push(pcm.subarray(i, i + 3200));
          await s.close({ flush: true, timeoutMs: 120_000 });
          return (await events).filter((e) => e.type === 'final').map((e) => (e.type === 'final' ? e.text : '')).join(' | ');
        } finally {
          await pool.close();
        }
      };
      const plain = await finalText(null);
      const named = await finalText(['grace', 'robert', 'linda', 'keith']);
      assert.doesNotMatch(plain, /\bgrace\b/, `without names: "${plain}"`);
      assert.match(named, /\bgrace\b/, `with names: "${named}"`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('WorkerPool: festival missing', () => {
  test('every worker meets it, the log gets one warning, and turns go on', async () => {
    const lines: { level: number; msg: string; workerIndex?: number }[] = [];
    const logger = pino({ level: 'info' }, { write: (s: string) => { lines.push(JSON.parse(s) as (typeof lines)[number]); } });
    const pool = await WorkerPool.create({ size: 2, logger,
      asr: { kind: 'pocketsphinx', nameSpotting: { letterToSound: { command: '/nonexistent/festival' } } } });
    try {
      const sessions = await Promise.all([0, 1].map(() => createAudioSession({ format: {}, pool, ...unthrottled })));
      assert.deepEqual(pool.load, [1, 1], 'one session per worker');
      const drained = sessions.map(drain);
      for (const s of sessions) s.setNames(['kwame', 'grace']);
      await Promise.all(sessions.map((s) => pushFile(s, fixtures[0]!, 0, Infinity, 5)));
      await Promise.all(sessions.map((s) => s.close({ flush: true, timeoutMs: 120_000 })));
      const finals = (await Promise.all(drained)).map((events) => events.filter((e) => e.type === 'final').length);
      assert.ok(finals.every((n) => n > 0), `finals per session ${finals.join(', ')}`);
    } finally {
      await pool.close();
    }
    const warnings = lines.filter((l) => /festival/.test(l.msg));
    assert.equal(warnings.length, 1, JSON.stringify(lines));
    assert.equal(warnings[0]!.level, 40);
  });
});
