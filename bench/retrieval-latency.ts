/**
 * Retrieval latency in the silence: 4, 8 and 16 concurrent WebSocket sessions stream the fixture
 * speech in real time (100 ms frames) against one tenant holding N synthetic memories (default 100k,
 * written straight into the stores). Reports p50/p95 of the confirmed `memory.context`'s
 * `ready_at_ms` (relative to `vad.speech_stopped`; ≤ 0 means ready before the end of turn) and of its
 * search stage, side by side with a naive baseline measured in the same run: a search of the whole
 * store (dense + BM25, RRF) started at the end of turn, on the fixtures' true texts, run at the same
 * concurrency after the live run.
 * Run: node dist/bench/retrieval-latency.js [--memories 100000] [--sessions 4,8,16] [--entities 2000] [--rounds 3] [--worker-nice 5]
 * Each session streams its fixture `--rounds` times in a row (more turns, steadier percentiles).
 */
import { pino } from 'pino';
import { fixtureSamples, loadAudioFixtures } from '../pipelines/audio/fixtures.js';
import { encodeS16le } from '../pipelines/audio/pcm-codecs.js';
import { searchLists } from '../pipelines/retrieval/pool-search.js';
import { reciprocalRankFusion } from '../pipelines/retrieval/rrf.js';
import { buildApp } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { tempDir } from '../test/helpers/temp-dir.js';
import { ParleyClient, type ServerEvent } from '../clients/typescript/src/index.js';
import { synthesiseMemories } from './retrieval-synth.js';
import { argString } from './lib/cli.js';

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : (s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN);
}
const f1 = (x: number): string => (Number.isFinite(x) ? x.toFixed(1) : 'n/a');

const memories = Number(argString('memories', '100000'));
const entities = Number(argString('entities', '2000'));
const levels = argString('sessions', '4,8,16').split(',').map(Number);
const rounds = Number(argString('rounds', '3'));
const tmp = tempDir('parley-bench-');
const config = loadConfig({
  DATA_DIR: tmp.dir, PORT: '0', LOG_LEVEL: 'silent', PARLEY_RUN_JOBS: 'false', PARLEY_MAX_SESSIONS: '64', PARLEY_WORKER_NICE: argString('worker-nice', '5'),
});
// Models load at start-up, as in the real server (`npm start`), not on the first session's audio.
const app = await buildApp(config, { logger: pino({ level: 'silent' }), eagerModels: true });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const client = new ParleyClient({ baseUrl: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` });
const synthMs = await synthesiseMemories(app, 'default', memories, entities);
await app.retriever.retrieve({ tenant: 'default', text: 'warm up the cat and the coffee' });
console.log(`synthesised ${memories} memories, ${entities} entities in ${(synthMs / 1000).toFixed(1)} s`);

const fixtures = loadAudioFixtures().map((f) => ({ f, pcm: encodeS16le(fixtureSamples(f)) }));
const rows: string[][] = [];
for (const c of levels) {
  const ready: number[] = [];
  const search: number[] = [];
  let speculative = 0;
  let late = 0;
  let lateWithoutPartial = 0;
  const texts: string[] = [];
  let expected = 0;
  await Promise.all(Array.from({ length: c }, async (_, i) => {
    const { f, pcm } = fixtures[i % fixtures.length]!;
    expected += rounds * f.utterances.length;
    for (let r = 0; r < rounds; r++) texts.push(...f.utterances.map((u) => u.text));
    // The SDK paces the audio in real time, in 100 ms frames, as a live microphone would send it.
    const session = await client.stream({
      sessionId: `bench-${c}-${i}`, sampleRate: 16000, encoding: 'pcm_s16le', pacing: 'realtime', frameMs: 100, resume: false,
    });
    const events: ServerEvent[] = [];
    const collecting = (async () => {
      for await (const e of session) events.push(e);
    })().catch(() => undefined);
    session.sendAudio(Buffer.concat(Array.from({ length: rounds }, () => [pcm, Buffer.alloc(3200 * 12)]).flat()));
    await session.drained();
    await new Promise((r) => setTimeout(r, 3000 + 400 * c));
    for (const e of events) {
      if (e.type === 'memory.context' && !e.speculative && e.turn_id.startsWith('turn_')) {
        const stopped = events.find((s) => s.type === 'vad.speech_stopped' && s.turn_id === e.turn_id);
        if (!stopped) continue;
        ready.push(e.ready_at_ms);
        if (e.ready_at_ms > 0) {
          late++;
          if (!events.some((p) => p.type === 'transcript.partial' && p.turn_id === e.turn_id && p.seq < stopped.seq)) lateWithoutPartial++;
        }
        search.push(e.timings.search_ms);
      }
      if (e.type === 'memory.context' && e.speculative) speculative++;
    }
    session.close();
    await collecting;
  }));
  // Baseline: the whole store searched after the end of turn, same concurrency.
  const base: number[] = [];
  const baseSearch: number[] = [];
  for (let k = 0; k < texts.length; k += c) {
    await Promise.all(texts.slice(k, k + c).map(async (text) => {
      const t0 = performance.now();
      const vector = (await app.retriever.embedder.embed([text]))[0] ?? null;
      const t1 = performance.now();
      const lists = await searchLists(app.stores, 'default', { text, vector }, null, 20, ['interaction', 'fact', 'profile'], {});
      reciprocalRankFusion(lists).slice(0, 5);
      const t2 = performance.now();
      base.push(t2 - t0);
      baseSearch.push(t2 - t1);
    }));
  }
  rows.push([String(c), `${ready.length}/${expected}`, String(speculative), `${late} (${lateWithoutPartial})`, f1(pct(ready, 50)), f1(pct(ready, 95)), f1(pct(search, 50)), f1(pct(search, 95)),
    f1(pct(base, 50)), f1(pct(base, 95)), f1(pct(baseSearch, 50)), f1(pct(baseSearch, 95))]);
}
const head = ['sessions', 'confirmed/spoken turns', 'spec ctx', 'ready > 0 (no partial before the stop)', 'ready p50', 'ready p95', 'search p50', 'search p95', 'naive ready p50', 'naive ready p95', 'naive search p50', 'naive search p95'];
console.log(`\nmemory.context latency, ${memories} memories in one tenant, fixture speech streamed in real time, ${rounds} rounds per session (ms); inference worker nice ${config.workerNice}`);
console.log(`| ${head.join(' | ')} |\n|${head.map(() => '---').join('|')}|`);
for (const r of rows) console.log(`| ${r.join(' | ')} |`);
await app.close();
tmp.remove();
