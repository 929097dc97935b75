/**
 * What running the steps after consolidation as a job of their own (`memory.after-consolidation`)
 * costs consolidation throughput: jobs/s through the embedded queue (SQLite, real USE-lite, rule
 * extractor) with one post-consolidation step that does nothing, so each utterance makes two jobs,
 * against the same turns with no step (the baseline, same run: one job per utterance, as the inline
 * call of the step cost before). Runs alternate the two arms in pairs (AB, BA, …) on fresh data
 * directories; the turns are synthetic (no parameter is chosen here).
 * Run: node dist/bench/after-consolidation-overhead.js [--turns 80] [--pairs 5]
 */
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { openStores, type StoreConfig } from '../graph/open-stores.js';
import { UseLiteEmbedder } from '../pipelines/embeddings/use-lite-embedder.js';
import { registerJobHandlers, type AfterConsolidation, type JobsConfig } from '../pipelines/jobs.js';
import { drainConsolidation } from '../pipelines/memory/after-consolidation.js';
import { CONSOLIDATION_JOB } from '../pipelines/memory/consolidate.js';
import { tempDir } from '../test/helpers/temp-dir.js';
import { bootstrapDelta, bootstrapMean } from './lib/bootstrap.js';
import { argNumber } from './lib/cli.js';

const turns = argNumber('turns', 80);
const pairs = argNumber('pairs', 5);
const log = pino({ level: 'silent' });
const embedder = new UseLiteEmbedder();
const CITIES = ['Porto', 'Lisbon', 'Boulder', 'Leeds', 'Turin', 'Graz', 'Ghent', 'Bergen'];
const FOODS = ['sushi', 'lentils', 'pho', 'tacos', 'risotto', 'falafel'];

/** Turn `i` of the synthetic conversation: a home, a taste or small talk, so facts are added, updated and skipped. */
function text(i: number): string {
  if (i % 3 === 0) return `I live in ${CITIES[i % CITIES.length]} now.`;
  if (i % 3 === 1) return `I really love ${FOODS[i % FOODS.length]}.`;
  return `That sounds good, see you on day ${i}.`;
}

/** Jobs/s of consolidating `turns` utterances (enqueued at once) with these post-consolidation steps. */
async function run(steps: AfterConsolidation[]): Promise<number> {
  const tmp = tempDir('parley-bench-after-');
  const config: StoreConfig & JobsConfig = {
    dataDir: tmp.dir, queue: 'embedded', redisUrl: '', redisPrefix: 'parley', vectorStore: 'sqlite', qdrantUrl: '', qdrantApiKey: null,
    graphStore: 'sqlite', neo4jUri: '', neo4jUser: '', neo4jPassword: '', neo4jDatabase: '',
    apiKeys: [], extractor: 'embedded', llmModel: '', openaiApiKey: null, openaiBaseUrl: '',
  };
  const stores = openStores(config, log);
  try {
    const speakers = [await stores.graph.createParticipant('t', { name: 'Ana' }), await stores.graph.createParticipant('t', { name: 'Ben' })];
    await stores.graph.openSession('t', 's', '2026-12-01T10:00:00.000Z');
    const stored = await stores.graph.addUtterances('t', Array.from({ length: turns }, (_, i) => ({
      sessionId: 's', speakerId: speakers[i % 2]!.id, addresseeIds: [speakers[(i + 1) % 2]!.id], text: text(i),
      startMs: null, endMs: null, time: new Date(Date.parse('2026-12-01T10:00:00.000Z') + i * 30_000).toISOString(), confidence: null, audioRef: null,
    })));
    const started = performance.now();
    for (const u of stored) await stores.queue.enqueue(CONSOLIDATION_JOB, { tenant: 't', sessionId: 's', utteranceId: u.id }, { jobId: `c-${u.id}` });
    await registerJobHandlers({ config, stores, embedder, logger: log, publish: () => {}, afterConsolidation: steps });
    await drainConsolidation(stores.queue, 3_600_000);
    return turns / ((performance.now() - started) / 1000);
  } finally {
    await stores.close(1000);
    tmp.remove();
  }
}

const noop: AfterConsolidation = async () => {};
await run([]); // warm-up: the model, the JIT
const base: number[] = [];
const withJob: number[] = [];
for (let p = 0; p < pairs; p++) {
  if (p % 2 === 0) {
    base.push(await run([]));
    withJob.push(await run([noop]));
  } else {
    withJob.push(await run([noop]));
    base.push(await run([]));
  }
  console.log(`pair ${p + 1}: baseline ${base[p]!.toFixed(2)} utterances/s, with the after-consolidation job ${withJob[p]!.toFixed(2)} utterances/s`);
}
const f = (ci: { mean: number; lo: number; hi: number }): string => `${ci.mean.toFixed(2)} [${ci.lo.toFixed(2)}, ${ci.hi.toFixed(2)}]`;
console.log(`baseline (no step, one job per utterance): ${f(bootstrapMean(base))} utterances/s`);
console.log(`with the step as its own job (two jobs per utterance): ${f(bootstrapMean(withJob))} utterances/s`);
console.log(`paired difference (with − baseline): ${f(bootstrapDelta(withJob, base))} utterances/s`);
await embedder.close();
