/**
 * What a participant merge costs in re-indexing (`applyMerge`, `POST /v1/participants/{id}/merge` and the
 * end-of-session merge): every utterance the merged-away id spoke or was addressed in is queued as a
 * `memory.consolidate` job, which, for a processed utterance, embeds its text again and upserts its vector and
 * BM25 entry under the new ids. A real server (`buildApp`, embedded stores, the configured text embedder) holds
 * `--turns` LoCoMo turns (default 1,000) spoken by one id, already consolidated (recorded processed, no facts, so
 * only the utterance index is refreshed); each repeat merges that id into another and times the merge call and
 * the drain of its jobs. Same-run baseline: the index writes alone (`MemoryIndexer.indexUtterance` with the
 * stored vector reused, what a re-index that skips the embedder would cost), and the embedder alone, one text per
 * call as the jobs embed. Reports ms per 1,000 utterances (wall, and process CPU for the drain), median and
 * min–max over `--repeats` (default 3).
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
const indexer = new MemoryIndexer(app.stores.vectors, app.stores.lexical, embedder);
console.log(`merge-reindex: ${texts.length} utterances, ${repeats} repeats, embedder ${embedder.space.model}; ${os.cpus().length} cores, `
  + `load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}, Node ${process.version}`);

const per1000 = (ms: number): number => (ms * 1000) / texts.length;
const summary = (xs: number[]): string => `${percentile(xs, 50).toFixed(0)} (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;
const results = { merge: [] as number[], drain: [] as number[], drainCpu: [] as number[], writes: [] as number[], embed: [] as number[] };
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
  for (let r = 1; r <= repeats; r++) {
    const into = (await graph.createParticipant(TENANT, { name: `Holder ${r}` })).id;
    let t0 = performance.now();
    const report = await applyMerge(app.stores, TENANT, holder, into);
    results.merge.push(per1000(performance.now() - t0));
    if (report.utteranceIds.length !== texts.length) throw new Error(`merge touched ${report.utteranceIds.length} utterances, not ${texts.length}`);
    t0 = performance.now();
    const c0 = cpuMs();
    await drainConsolidation(queue, 3_600_000);
    results.drain.push(per1000(performance.now() - t0));
    results.drainCpu.push(per1000(cpuMs() - c0));
    const found = await app.stores.lexical.search(TENANT, texts[0]!, 5, { speakerId: into });
    if (found.length === 0) throw new Error('the merged utterances are not found under the new speaker id');
    holder = into;
    // Baselines on the same utterances, as stored now: the index writes with the stored vectors, and the embedder alone.
    const now = await graph.getUtterances(TENANT, stored.map((u) => u.id));
    t0 = performance.now();
    for (const u of now) await indexer.indexUtterance(TENANT, u, vectors.get(u.id)!);
    results.writes.push(per1000(performance.now() - t0));
    t0 = performance.now();
    for (const u of now) await embedder.embed([u.text]);
    results.embed.push(per1000(performance.now() - t0));
  }
  console.log('| ms per 1,000 utterances, median (min–max) | |');
  console.log('|---|---|');
  console.log(`| merge call (graph re-point, relabel, enqueue) | ${summary(results.merge)} |`);
  console.log(`| re-index jobs drained (embed again + index writes + queue) | ${summary(results.drain)} |`);
  console.log(`| re-index jobs drained, process CPU time (all threads) | ${summary(results.drainCpu)} |`);
  console.log(`| baseline: index writes alone, stored vectors reused | ${summary(results.writes)} |`);
  console.log(`| baseline: embedder alone, one text per call | ${summary(results.embed)} |`);
} finally {
  await app.close();
  tmp.remove();
}
