/**
 * What the steps after consolidation cost consolidation throughput: utterances/s through the embedded
 * queue (SQLite, real USE-lite, rule extractor), in three arms on the same turns: no step (baseline:
 * one job per utterance); one step that does nothing, run inline at the end of the consolidation job
 * (what the server does: still one job per utterance); the same step failing once inline, so each
 * utterance's steps are handed to a `memory.after-consolidation` job of their own (two jobs per
 * utterance: what every utterance cost before the steps ran inline, and what a failing step costs
 * now). The arms rotate (ABC, BCA, CAB, …) on fresh data directories after a warm-up run; the turns
 * are synthetic (no parameter is chosen here).
 * Run: node dist/bench/after-consolidation-overhead.js [--turns 80] [--rounds 6]
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
const rounds = argNumber('rounds', 6);
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
/** Fails the first time it meets an utterance (inline), succeeds the next (in its own job). */
function failingOnce(): AfterConsolidation {
  const seen = new Set<string>();
  return async (job) => {
    if (seen.has(job.utteranceId)) return;
    seen.add(job.utteranceId);
    throw new Error('step failed inline');
  };
}
await run([]); // warm-up: the model, the JIT
const arms = {
  base: { label: 'no step (one job per utterance)', steps: (): AfterConsolidation[] => [], rates: [] as number[] },
  inline: { label: 'a no-op step inline (one job per utterance)', steps: (): AfterConsolidation[] => [noop], rates: [] as number[] },
  job: { label: 'the step in a job of its own (two jobs per utterance)', steps: (): AfterConsolidation[] => [failingOnce()], rates: [] as number[] },
};
const order = [arms.base, arms.inline, arms.job];
for (let r = 0; r < rounds; r++) {
  for (let k = 0; k < order.length; k++) {
    const arm = order[(r + k) % order.length]!;
    arm.rates.push(await run(arm.steps()));
  }
  console.log(`round ${r + 1}: ${order.map((a) => `${a.label} ${a.rates[r]!.toFixed(2)}`).join('; ')} utterances/s`);
}
const f = (ci: { mean: number; lo: number; hi: number }): string => `${ci.mean.toFixed(2)} [${ci.lo.toFixed(2)}, ${ci.hi.toFixed(2)}]`;
for (const a of order) console.log(`${a.label}: ${f(bootstrapMean(a.rates))} utterances/s`);
console.log(`paired difference, inline − no step: ${f(bootstrapDelta(arms.inline.rates, arms.base.rates))} utterances/s`);
console.log(`paired difference, own job − no step: ${f(bootstrapDelta(arms.job.rates, arms.base.rates))} utterances/s`);
console.log(`paired difference, inline − own job: ${f(bootstrapDelta(arms.inline.rates, arms.job.rates))} utterances/s`);
await embedder.close();
