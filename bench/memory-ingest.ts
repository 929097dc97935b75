/**
 * Ingest LoCoMo through the HTTP API and report facts per turn, ingest throughput and consolidation
 * lag (HTTP 201 → the utterance's consolidation job done), next to a baseline measured in the same
 * run: the same ingest with consolidation switched off (store + keyword index only).
 *
 * A third run paces the first `--paced-turns` turns (default 60) at one every `--pace-ms` (default
 * 500 ms), like a fast live conversation, to show the lag when the queue is not flooded.
 *
 *   npm run build && node dist/bench/memory-ingest.js [--conversations N] [--paced-turns N] [--pace-ms MS]
 */
import os from 'node:os';
import { pino } from 'pino';
import { buildApp } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { drainConsolidation } from '../pipelines/memory/after-consolidation.js';
import { tempDir } from '../test/helpers/temp-dir.js';
import { ParleyClient } from '../clients/typescript/src/index.js';
import { argNumber, loadLocomoTurns, locomoTime, percentile, type LocomoTurn } from './lib/locomo.js';

interface RunResult {
  turns: number;
  wallS: number;
  postP50: number;
  postP95: number;
  lags: number[];
  facts: number;
}

async function run(conversations: [string, LocomoTurn[]][], consolidate: boolean, paceMs = 0): Promise<RunResult> {
  const tmp = tempDir('parley-bench-ingest-');
  const config = loadConfig({ DATA_DIR: tmp.dir, PORT: '0', LOG_LEVEL: 'silent', PARLEY_RUN_JOBS: String(consolidate), PARLEY_ASR: 'none' });
  const app = await buildApp(config, { logger: pino({ level: 'silent' }) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const api = new ParleyClient({ baseUrl: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` });
  const acknowledged = new Map<string, number>();
  const lags: number[] = [];
  app.afterConsolidation.push(async (job) => {
    const at = acknowledged.get(job.utteranceId);
    if (at !== undefined) lags.push(performance.now() - at);
  });
  const postTimes: number[] = [];
  let turns = 0;
  const started = performance.now();
  for (const [conv, convTurns] of conversations) {
    // One HTTP call per turn, as a live client would send them, in conversation order.
    for (const t of convTurns) {
      const t0 = performance.now();
      const { utterance_ids: [id] } = await api.postUtterances(`${conv}-s${t.session}`, [
        { speaker: t.speaker, addressees: [t.addressee], text: t.text, time: locomoTime(t.session_date_time, t.turn_idx * 30) },
      ]);
      const now = performance.now();
      postTimes.push(now - t0);
      acknowledged.set(id!, now);
      turns++;
      if (paceMs > 0) await new Promise((r) => setTimeout(r, Math.max(0, paceMs - (performance.now() - t0))));
      if (turns % 500 === 0) process.stderr.write(`  ${consolidate ? 'parley' : 'baseline'}: ${turns} turns posted\n`);
    }
  }
  if (consolidate) await drainConsolidation(app.stores.queue, 3_600_000);
  const wallS = (performance.now() - started) / 1000;
  const facts = consolidate ? (await app.stores.memory.listFacts('default', { includeHistory: true, limit: 1000, offset: 0 })).length : 0;
  let total = facts;
  for (let offset = 1000; facts === 1000 && total === offset; offset += 1000) {
    total += (await app.stores.memory.listFacts('default', { includeHistory: true, limit: 1000, offset })).length;
  }
  await app.close();
  tmp.remove();
  return { turns, wallS, postP50: percentile(postTimes, 50), postP95: percentile(postTimes, 95), lags, facts: total };
}

async function main(): Promise<void> {
  const all = loadLocomoTurns();
  if (!all) return;
  const n = argNumber('conversations', all.size);
  const conversations = [...all.entries()].slice(0, n);
  console.log(`LoCoMo: ${conversations.length} conversations, ${conversations.reduce((s, [, t]) => s + t.length, 0)} turns; ${os.cpus().length} cores, Node ${process.version}`);
  const baseline = await run(conversations, false);
  const parley = await run(conversations, true);
  const pacedTurns = argNumber('paced-turns', 60);
  const paceMs = argNumber('pace-ms', 500);
  const first = conversations[0]!;
  const paced = await run([[first[0], first[1].slice(0, pacedTurns)]], true, paceMs);
  const row = (name: string, r: RunResult): string =>
    `| ${name} | ${r.turns} | ${(r.turns / r.wallS).toFixed(1)} | ${r.postP50.toFixed(1)} / ${r.postP95.toFixed(1)} | ` +
    (r.lags.length ? `${percentile(r.lags, 50).toFixed(0)} / ${percentile(r.lags, 95).toFixed(0)} / ${Math.max(...r.lags).toFixed(0)}` : 'n/a') +
    ` | ${r.lags.length ? (r.facts / r.turns).toFixed(2) : 'n/a'} |`;
  console.log('| run | turns | turns/s (until consolidated) | HTTP 201 p50 / p95 ms | consolidation lag p50 / p95 / max ms | facts per turn |');
  console.log('|---|---|---|---|---|---|');
  console.log(row('baseline: store + keyword index only', baseline));
  console.log(row('Parley: store, then extract + consolidate + index (embedded), turns posted back to back', parley));
  console.log(row(`Parley, same, one turn every ${paceMs} ms (first ${pacedTurns} turns)`, paced));
}

await main();
