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
import { searchLists } from '../pipelines/retrieval/pool-search.js';
import { reciprocalRankFusion } from '../pipelines/retrieval/rrf.js';
import { buildApp } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { tempDir } from '../test/helpers/temp-dir.js';
import { synthesiseMemories } from './retrieval-synth.js';
import { argString } from './lib/cli.js';
import { f1, pct, streamLiveTurns } from './lib/live-turns.js';

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
const wsUrl = `ws://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
const synthMs = await synthesiseMemories(app, 'default', memories, entities);
await app.retriever.retrieve({ tenant: 'default', text: 'warm up the cat and the coffee' });
console.log(`synthesised ${memories} memories, ${entities} entities in ${(synthMs / 1000).toFixed(1)} s`);

const rows: string[][] = [];
for (const c of levels) {
  const { ready, search, speculative, late, lateWithoutPartial, texts, expected } = await streamLiveTurns(wsUrl, c, rounds, 'bench');
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
