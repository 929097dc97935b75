/**
 * What a participant merge costs in re-indexing (`applyMerge`, `POST /v1/participants/{id}/merge` and the
 * end-of-session merge): every utterance the merged-away id spoke or was addressed in is queued as a
 * `memory.consolidate` job, which, for a processed utterance, upserts its vector and BM25 entry under the new ids,
 * reusing the stored vector when the point's `textHash` says the text did not change (`MemoryIndexer.vectorsFor`),
 * else embedding it again. A real server (`buildApp`, embedded stores, the configured text embedder) holds
 * `--turns` LoCoMo turns (default 1,000) spoken by one id, already consolidated (recorded processed, no facts, so
 * only the utterance index is refreshed); each repeat merges that id into another and times the merge call and
 * the drain of its jobs, then, as the same-run baseline, strips the digests from the points (untimed: points
 * written before they were kept, or a re-index that embeds everything as before) and merges and drains again.
 * Texts the embedder is asked for during each drain are counted. One untimed merge and drain first (warm-up: the
 * steps after consolidation embed for themselves on their first run). Further baselines: the index writes alone
 * (`MemoryIndexer.indexUtterance` with the stored vector), and the embedder alone, one text per call as the jobs
 * embed. Reports ms per 1,000 utterances (wall, and process CPU for the drain), median and min–max over `--repeats`
 * (default 3), and the paired drain CPU difference (reuse − re-embed) with its 95 % bootstrap interval over repeats.
 *
 *   npm run build && node dist/bench/merge-reindex.js [--turns N] [--repeats N]
 */
import os from 'node:os';
import { pino } from 'pino';
import { drainConsolidation } from '../pipelines/memory/after-consolidation.js';
import { applyMerge } from '../pipelines/interaction/merge-participants.js';
import { MemoryIndexer } from '../pipelines/memory/memory-indexer.js';
import { buildApp } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { tempDir } from '../test/helpers/temp-dir.js';
import { argNumber } from './lib/cli.js';
import { loadLocomoTurns, percentile } from './lib/locomo.js';
import { bootstrapDelta } from './lib/bootstrap.js';
import { collectionFor } from '../pipelines/memory/collections.js';

const TENANT = 'mergecost';
const turns = argNumber('turns', 1000);
const repeats = argNumber('repeats', 3);
const byConv = loadLocomoTurns();
if (!byConv) process.exit(0);
const texts = [...byConv.values()].flat().slice(0, turns).map((t) => t.text);

const tmp = tempDir('parley-merge-reindex-');
const config = loadConfig({ DATA_DIR: tmp.dir, PORT: '0', LOG_LEVEL: 'silent', PARLEY_API_KEYS: `benchkey_merge:${TENANT}` });
const app = await buildApp(config, { logger: pino({ level: 'silent' }) });
const { graph, memory, queue } = app.stores;
const embedder = app.models.textEmbedder;
const indexer = new MemoryIndexer(app.stores.vectors, app.stores.lexical, embedder, app.config.memoryMinAsrConfidence);
console.log(`merge-reindex: ${texts.length} utterances, ${repeats} repeats, embedder ${embedder.space.model}; ${os.cpus().length} cores, `
  + `load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}, Node ${process.version}`);

const per1000 = (ms: number): number => (ms * 1000) / texts.length;
const summary = (xs: number[]): string => `${percentile(xs, 50).toFixed(0)} (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;
const results = {
  merge: [] as number[], drain: [] as number[], drainCpu: [] as number[], embedded: [] as number[],
  oldDrain: [] as number[], oldDrainCpu: [] as number[], oldEmbedded: [] as number[], writes: [] as number[], embed: [] as number[],
};
// Every text the embedder is asked for (the jobs' `RecentEmbeddings` passes on the ones it does not hold).
let asked = 0;
const embed = embedder.embed.bind(embedder);
embedder.embed = (texts: string[]) => {
  asked += texts.length;
  return embed(texts);
};
const cpuMs = (): number => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};
try {
  let holder = (await graph.createParticipant(TENANT, { name: 'Holder 0' })).id;
  const listener = (await graph.createParticipant(TENANT, { name: 'Listener' })).id;
  await graph.openSession(TENANT, 'mr-1', new Date().toISOString());
  const stored = await graph.addUtterances(TENANT, texts.map((text, i) => ({
    sessionId: 'mr-1', speakerId: holder, addresseeIds: [listener], text, startMs: null, endMs: null,
    time: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(), confidence: null, audioRef: null,
  })));
  const vectors = new Map<string, Float32Array>();
  for (const u of stored) {
    vectors.set(u.id, (await embedder.embed([u.text]))[0] as Float32Array);
    await indexer.indexUtterance(TENANT, u, vectors.get(u.id)!);
    await memory.markProcessed(TENANT, u.id, []);
  }
  /** Merge the current holder into a new participant, drain the re-index jobs; returns [drain wall, drain CPU, texts embedded]. */
  const mergeAndDrain = async (name: string): Promise<[number, number, number]> => {
    const into = (await graph.createParticipant(TENANT, { name })).id;
    let t0 = performance.now();
    const report = await applyMerge(app.stores, TENANT, holder, into);
    results.merge.push(per1000(performance.now() - t0));
    if (report.utteranceIds.length !== texts.length) throw new Error(`merge touched ${report.utteranceIds.length} utterances, not ${texts.length}`);
    asked = 0;
    t0 = performance.now();
    const c0 = cpuMs();
    await drainConsolidation(queue, 3_600_000);
    const out: [number, number, number] = [per1000(performance.now() - t0), per1000(cpuMs() - c0), asked];
    const found = await app.stores.lexical.search(TENANT, texts[0]!, 5, { speakerId: into });
    if (found.length === 0) throw new Error('the merged utterances are not found under the new speaker id');
    const [point] = await app.stores.vectors.get(TENANT, collectionFor('interaction'), [stored[0]!.id]);
    if (point?.payload.speakerId !== into) throw new Error('the merged utterance\'s vector is not under the new speaker id');
    holder = into;
    return out;
  };
  /** Same-run baseline: the points without their digests, as written before they were kept: every text embedded. */
  const stripDigests = async (): Promise<void> => {
    for (let i = 0; i < stored.length; i += 500) {
      const points = await app.stores.vectors.get(TENANT, collectionFor('interaction'), stored.slice(i, i + 500).map((u) => u.id));
      await app.stores.vectors.upsert(TENANT, collectionFor('interaction'), points.map(({ payload: { textHash: _h, ...payload }, ...p }) => ({ ...p, payload })));
    }
  };
  const reuse = async (r: number): Promise<void> => {
    const [drain, drainCpu, embedded] = await mergeAndDrain(`Holder ${r}`);
    results.drain.push(drain);
    results.drainCpu.push(drainCpu);
    results.embedded.push(embedded);
  };
  const reembed = async (r: number): Promise<void> => {
    await stripDigests();
    const [drain, drainCpu, embedded] = await mergeAndDrain(`Holder ${r} again`);
    results.oldDrain.push(drain);
    results.oldDrainCpu.push(drainCpu);
    results.oldEmbedded.push(embedded);
  };
  // Untimed warm-up: the first drain also runs the steps after consolidation for the first time (their own embeddings).
  const [, , warmUp] = await mergeAndDrain('Holder warm-up');
  results.merge.length = 0;
  console.log(`warm-up merge and drain (not counted): ${warmUp} texts embedded`);
  for (let r = 1; r <= repeats; r++) {
    // Alternating which goes first, so warm-up and drift fall on both alike (a re-embed drain writes the digests back).
    if (r % 2 === 1) { await reuse(r); await reembed(r); } else { await reembed(r); await reuse(r); }
    // Baselines on the same utterances, as stored now: the index writes with the stored vectors, and the embedder alone.
    const now = await graph.getUtterances(TENANT, stored.map((u) => u.id));
    let t0 = performance.now();
    for (const u of now) await indexer.indexUtterance(TENANT, u, vectors.get(u.id)!);
    results.writes.push(per1000(performance.now() - t0));
    t0 = performance.now();
    for (const u of now) await embedder.embed([u.text]);
    results.embed.push(per1000(performance.now() - t0));
  }
  console.log('| ms per 1,000 utterances, median (min–max) | |');
  console.log('|---|---|');
  console.log(`| merge call (graph re-point, relabel, enqueue) | ${summary(results.merge)} |`);
  console.log(`| re-index jobs drained, stored vectors reused (index writes + queue) | ${summary(results.drain)} |`);
  console.log(`| re-index jobs drained, stored vectors reused, process CPU time (all threads) | ${summary(results.drainCpu)} |`);
  console.log(`| texts embedded during that drain (count, not ms) | ${summary(results.embedded)} |`);
  console.log(`| baseline: re-index jobs drained, points without digests (embed again + index writes + queue) | ${summary(results.oldDrain)} |`);
  console.log(`| baseline: the same, process CPU time (all threads) | ${summary(results.oldDrainCpu)} |`);
  console.log(`| baseline: texts embedded during that drain (count, not ms) | ${summary(results.oldEmbedded)} |`);
  console.log(`| baseline: index writes alone, stored vectors reused | ${summary(results.writes)} |`);
  console.log(`| baseline: embedder alone, one text per call | ${summary(results.embed)} |`);
  const fmt = (d: { mean: number; lo: number; hi: number }): string => `${d.mean.toFixed(0)} [${d.lo.toFixed(0)}, ${d.hi.toFixed(0)}]`;
  console.log(`paired, reuse − re-embed, mean over ${repeats} repeats [95 % bootstrap]: drain CPU ${fmt(bootstrapDelta(results.drainCpu, results.oldDrainCpu))} ms, `
    + `drain wall ${fmt(bootstrapDelta(results.drain, results.oldDrain))} ms per 1,000`);
} finally {
  await app.close();
  tmp.remove();
}
