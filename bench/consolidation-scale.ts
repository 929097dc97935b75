/**
 * Does consolidation cost per turn grow with conversation length, on the whole app's path? LoCoMo
 * conversations (file order, or `--convs conv-26,conv-30,…`) are concatenated into one tenant until
 * `--turns` turns (default 1,500). A real server (`buildApp`, embedded stores in a temporary
 * DATA_DIR) takes each LoCoMo session as one `POST /v1/sessions/:id/utterances` batch, as
 * bench/retrieval-locomo.ts does, and its own `memory.consolidate` jobs consolidate them: extraction,
 * decisions, facts and profiles, vectors and BM25, affect and persona, the left-brain entity index.
 * The next session is posted once the queue drained, so each turn is consolidated against the
 * conversation so far, as in a live conversation.
 *
 * Each job's end is observed by a last post-consolidation step; a turn's cost is the time (and
 * process CPU time: all threads, the embedder's worker included) since the previous job ended, or
 * since its batch was posted. Reports turns per minute per `--step` window (default 100) and for the
 * first and last `--window` turns (default 200), side by side, plus the whole run.
 * `--serial` posts one turn at a time, each consolidated before the next, so the job order cannot vary
 * between runs (for `--dump`; slower: no two jobs overlap).
 * `--one-session` posts every turn into ONE session (a robot's day-long dialogue loop, one long call),
 * `--batch N` turns a post (default 20) as they come, the next batch once the queue drained: what is
 * keyed by the session (context windows, presence, naming, per-session queries) grows with the run.
 * `--infer-addressees` leaves out LoCoMo's addressee, so the server infers it (vocatives, replies, naming
 * evidence), as for a robot's or a call's turns that come without one.
 * `--spans` also times every store and embedder method per window (`bench/lib/spans.ts`).
 * `--dump FILE` writes the stored memory, ids replaced by stable labels and sorted
 * (`bench/lib/memory-dump.ts`), to compare two builds over the same input.
 *
 *   npm run build && node dist/bench/consolidation-scale.js [--turns N] [--window N] [--step N] [--convs A,B] [--serial]
 *     [--one-session [--batch N]] [--infer-addressees] [--spans] [--dump FILE]
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { pino } from 'pino';
import { ParleyClient } from '../clients/typescript/src/index.js';
import { drainConsolidation } from '../pipelines/memory/after-consolidation.js';
import { buildApp } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { tempDir } from '../test/helpers/temp-dir.js';
import { argNumber, argString } from './lib/cli.js';
import { loadLocomoTurns, locomoTime, percentile, type LocomoTurn } from './lib/locomo.js';
import { dumpMemory } from './lib/memory-dump.js';
import { Spans } from './lib/spans.js';

const TENANT = 'scale';
const KEY = 'benchkey_scale';

interface Mark { t: number; cpuMs: number }

const cpuNow = (): number => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

/** The first `want` turns of the chosen conversations, in order, with the image captions as the LoCoMo bench sends them. */
function chooseTurns(byConv: Map<string, LocomoTurn[]>, want: number): (LocomoTurn & { img_caption?: string })[] {
  const named = argString('convs', '');
  const convs = named ? named.split(',') : [...byConv.keys()];
  const missing = convs.filter((c) => !byConv.has(c));
  if (missing.length > 0) throw new Error(`--convs: no conversation ${missing.join(', ')} in LoCoMo`);
  return convs.flatMap((c) => byConv.get(c)!).slice(0, want);
}

async function main(): Promise<void> {
  const byConv = loadLocomoTurns();
  if (!byConv) return;
  const turns = chooseTurns(byConv, argNumber('turns', 1500));
  const window = argNumber('window', 200);
  const step = argNumber('step', 100);
  const dumpFile = argString('dump', '');
  const tmp = tempDir('parley-consolidation-scale-');
  const config = loadConfig({ DATA_DIR: tmp.dir, PORT: '0', LOG_LEVEL: 'silent', PARLEY_API_KEYS: `${KEY}:${TENANT}` });
  const app = await buildApp(config, { logger: pino({ level: 'silent' }) });
  const spans = process.argv.includes('--spans') ? new Spans() : null;
  if (spans) {
    for (const [name, store] of Object.entries(app.stores)) if (typeof store === 'object' && name !== 'sqlite') spans.wrap(name, store as object);
    spans.wrap('embedder', app.models.textEmbedder);
  }
  const ends: Mark[] = [];
  // Runs after every other post-consolidation step (the left brain registered when the app was built).
  app.afterConsolidation.push(async () => {
    ends.push({ t: performance.now(), cpuMs: cpuNow() });
    if (spans) spans.phase = `${Math.floor(ends.length / step) * step + 1}–`;
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  if (spans) spans.phase = '1–';
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const api = new ParleyClient({ baseUrl: base, apiKey: KEY });

  const label = new Map<string, string>();
  const costs: { wallMs: number; cpuMs: number }[] = [];
  // `--serial`: one turn per post, each consolidated before the next (job order cannot vary: for `--dump`).
  const serial = process.argv.includes('--serial');
  // `--one-session`: one session id for every turn, `--batch` turns a post (one turn with `--serial`).
  const oneSession = process.argv.includes('--one-session');
  const inferAddressees = process.argv.includes('--infer-addressees');
  const batchSize = serial ? 1 : argNumber('batch', 20);
  const batchOf = (t: LocomoTurn, i: number): string => (oneSession
    ? `one|${Math.floor(i / batchSize)}`
    : `${t.conv_id}|${t.session}${serial ? `|${t.dia_id}` : ''}`);
  const batchRows = new Map<string, typeof turns>();
  for (const [i, t] of turns.entries()) {
    const b = batchOf(t, i);
    batchRows.set(b, [...(batchRows.get(b) ?? []), t]);
  }
  const sessionOf = (t: LocomoTurn): string => (oneSession ? 'one-long-session' : `${t.conv_id}-s${t.session}`.replace(/[^A-Za-z0-9_-]/g, '_'));
  // Within its LoCoMo session a turn is a minute after the one before, as bench/retrieval-locomo.ts sends them.
  const minute = new Map<LocomoTurn, number>();
  const counts = new Map<string, number>();
  for (const t of turns) {
    const key = `${t.conv_id}|${t.session}`;
    minute.set(t, counts.get(key) ?? 0);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const started = performance.now();
  for (const [b, [batch, rows]] of [...batchRows].entries()) {
    const utterances = rows.map((t) => ({
      speaker: t.speaker, ...(inferAddressees ? {} : { addressees: [t.addressee] }), time: locomoTime(t.session_date_time, 60 * minute.get(t)!),
      text: t.img_caption ? `${t.text} [shares a photo: ${t.img_caption}]` : t.text,
    }));
    let prev: Mark = { t: performance.now(), cpuMs: cpuNow() };
    const first = ends.length;
    const { utterance_ids: ids } = await api.postUtterances(sessionOf(rows[0]!), utterances);
    rows.forEach((t, i) => label.set(ids[i]!, `${t.conv_id}|${t.dia_id}`));
    await drainConsolidation(app.stores.queue, 3_600_000);
    for (const end of ends.slice(first)) {
      costs.push({ wallMs: end.t - prev.t, cpuMs: end.cpuMs - prev.cpuMs });
      prev = end;
    }
    if (ends.length - first !== rows.length) throw new Error(`${batch}: ${rows.length} turns posted, ${ends.length - first} consolidated`);
    if ((b + 1) % (serial ? 100 : 5) === 0) process.stderr.write(`  ${costs.length} turns, ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
  }

  const facts = await app.stores.memory.listFacts(TENANT, { includeHistory: true, limit: 1000 });
  console.log(`consolidation-scale (server path): ${turns.length} LoCoMo turns (${[...new Set(turns.map((t) => t.conv_id))].join(' + ')}) `
    + `in one tenant, ${oneSession ? 'one session, ' : ''}${inferAddressees ? 'addressees inferred, ' : ''}${batchRows.size} batches, ${facts.length}${facts.length === 1000 ? '+' : ''} facts stored; `
    + `${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}, Node ${process.version}`);
  const perMin = (xs: number[]): string => (xs.length / (xs.reduce((a, b) => a + b, 0) / 60_000)).toFixed(0);
  const row = (name: string, xs: typeof costs): string => {
    const wall = xs.map((c) => c.wallMs);
    const cpu = xs.map((c) => c.cpuMs);
    return `| ${name} | ${xs.length} | ${perMin(wall)} | ${perMin(cpu)} | ${(cpu.reduce((a, b) => a + b, 0) / xs.length).toFixed(0)} | `
      + `${percentile(wall, 50).toFixed(0)} / ${percentile(wall, 95).toFixed(0)} |`;
  };
  console.log('| turns | n | turns/min, wall | turns/min, CPU time | CPU ms per turn | wall ms per turn p50 / p95 |');
  console.log('|---|---|---|---|---|---|');
  console.log(row(`first ${window}`, costs.slice(0, window)));
  console.log(row(`last ${window}`, costs.slice(-window)));
  console.log(row('all', costs));
  for (let i = 0; i < costs.length; i += step) console.log(row(`${i + 1}–${Math.min(costs.length, i + step)}`, costs.slice(i, i + step)));
  if (spans) {
    // The phase opened after the last turn holds only the teardown: not a window.
    const phases = [...spans.phases.keys()].filter((p) => p !== 'start' && Number.parseInt(p, 10) <= costs.length);
    console.log(`\ntime inside store and embedder methods, ms (calls), per ${step}-turn window (--spans):`);
    console.log(spans.table(25, [phases[0]!, phases[Math.floor(phases.length / 2)]!, phases[phases.length - 1]!]));
  }
  if (dumpFile) {
    const lines = await dumpMemory(app.stores, TENANT, label);
    writeFileSync(dumpFile, `${lines.join('\n')}\n`);
    console.log(`memory dump: ${lines.length} lines in ${dumpFile}`);
  }
  await app.close();
  tmp.remove();
}

await main();
