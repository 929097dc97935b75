/**
 * Where a live turn's retrieval spends its time, store call by store call: the same synthetic
 * memories (bench/retrieval-synth.ts) in the embedded deployment (every store in SQLite) and with
 * every store in Neo4j (`PARLEY_GRAPH_STORE=neo4j`, `PARLEY_VECTOR_STORE=neo4j`); the retriever the
 * server builds, its stores wrapped in a call timer (bench/lib/call-timer.ts). Queries are the fixture
 * speech's turns and their word prefixes (the partials a live turn searches), with query vectors
 * embedded beforehand, so the figures are the stores' and the retriever's own time.
 * `--split dev` takes the first fixture files' turns (used while changing the code), `--split test`
 * the others (reported), `all` both.
 * Run: node dist/bench/retrieval-calls.js [--memories 2000] [--entities 200] [--concurrency 1,8] [--repeats 3] [--split test]
 * Uses the Neo4j of `NEO4J_URI` when set (a tenant of its own, erased afterwards), else starts a
 * private one through scripts/neo4j-test-server.sh (Java 17 and Maven).
 */
import neo4j from 'neo4j-driver';
import { pino } from 'pino';
import { buildApp } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { loadAudioFixtures } from '../pipelines/audio/fixtures.js';
import { Retriever, type RetrievalTimings } from '../pipelines/retrieval/retriever.js';
import { tempDir } from '../test/helpers/temp-dir.js';
import { neo4jServer } from '../test/helpers/topology.js';
import { CallTimer } from './lib/call-timer.js';
import { argString } from './lib/cli.js';
import { f1, pct } from './lib/live-turns.js';
import { synthesiseMemories } from './retrieval-synth.js';

const memories = Number(argString('memories', '2000'));
const entities = Number(argString('entities', '200'));
const levels = argString('concurrency', '1,8').split(',').map(Number);
const repeats = Number(argString('repeats', '3'));
const split = argString('split', 'test');
const tenant = `calls-${process.pid}`;

/** The fixture turns of the split, each with its word prefixes of two words or more (the partials). */
function queries(): string[] {
  const files = loadAudioFixtures();
  const cut = Math.ceil(files.length / 2);
  const chosen = split === 'dev' ? files.slice(0, cut) : split === 'test' ? files.slice(cut) : files;
  const out: string[] = [];
  for (const f of chosen) {
    for (const u of f.utterances) {
      const words = u.text.split(/\s+/);
      for (let n = 2; n <= words.length; n++) out.push(words.slice(0, n).join(' '));
    }
  }
  return out;
}

interface LevelResult {
  concurrency: number;
  /** p50 and p95 of total_ms per repeat. */
  p50: number[];
  p95: number[];
  totals: number[];
  stages: RetrievalTimings[];
}

async function runLevel(retriever: Retriever, texts: string[], askerId: string, concurrency: number): Promise<{ totals: number[]; stages: RetrievalTimings[] }> {
  const totals: number[] = [];
  const stages: RetrievalTimings[] = [];
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < texts.length) {
      const text = texts[next++]!;
      const r = await retriever.retrieve({ tenant, text, k: 5, askerId });
      totals.push(r.timings.total_ms);
      stages.push(r.timings);
    }
  }));
  return { totals, stages };
}

async function measure(label: string, env: Record<string, string>): Promise<string[]> {
  const tmp = tempDir('parley-bench-calls-');
  const config = loadConfig({ DATA_DIR: tmp.dir, PORT: '0', LOG_LEVEL: 'silent', PARLEY_RUN_JOBS: 'false', ...env });
  const app = await buildApp(config, { logger: pino({ level: 'silent' }), eagerModels: true });
  const lines: string[] = [];
  try {
    await app.ready();
    const synthMs = await synthesiseMemories(app, tenant, memories, entities);
    console.log(`${label}: synthesised ${memories} memories, ${entities} entities in ${(synthMs / 1000).toFixed(1)} s`);
    const timer = new CallTimer();
    const { graph, memory, vectors, lexical } = app.stores;
    const retriever = new Retriever(
      { graph: timer.wrap('graph', graph), memory: timer.wrap('memory', memory), vectors: timer.wrap('vectors', vectors, (m, args) => (m === 'search' ? String(args[1]) : null)), lexical: timer.wrap('lexical', lexical) },
      timer.wrap('entities', app.entityIndex), app.retriever.embedder,
    );
    const texts = queries();
    for (const t of texts) await retriever.embed(t);
    const askerId = (await graph.listParticipants(tenant))[0]!.id;
    // One pass to warm caches (schema vectors, name tables, the driver's pool and query plans).
    await runLevel(retriever, texts, askerId, 1);
    const results: LevelResult[] = [];
    for (const c of levels) {
      const level: LevelResult = { concurrency: c, p50: [], p95: [], totals: [], stages: [] };
      for (let r = 0; r < repeats; r++) {
        if (c === levels[0]) timer.reset();
        const run = await runLevel(retriever, texts, askerId, c);
        level.p50.push(pct(run.totals, 50));
        level.p95.push(pct(run.totals, 95));
        level.totals.push(...run.totals);
        level.stages.push(...run.stages);
        if (c === levels[0] && r === repeats - 1) {
          lines.push(...callTable(label, timer, run.totals.length));
        }
      }
      results.push(level);
    }
    for (const l of results) {
      const mean = (key: keyof RetrievalTimings): string => f1(l.stages.reduce((s, t) => s + t[key], 0) / l.stages.length);
      console.log(`| ${label} | ${l.concurrency} | ${l.totals.length} | ${f1(pct(l.totals, 50))} | ${f1(Math.min(...l.p50))}–${f1(Math.max(...l.p50))} | ` +
        `${f1(pct(l.totals, 95))} | ${f1(Math.min(...l.p95))}–${f1(Math.max(...l.p95))} | ${mean('match_ms')} | ${mean('expand_ms')} | ${mean('search_ms')} |`);
    }
  } finally {
    await app.close();
    tmp.remove();
  }
  return lines;
}

/** Per store method: calls per retrieval, mean and p95 duration, time per retrieval (one repeat). */
function callTable(label: string, timer: CallTimer, retrievals: number): string[] {
  const rows = [...timer.stats.entries()].map(([key, s]) => ({ key, s, sum: s.ms.reduce((a, b) => a + b, 0) }))
    .sort((a, b) => b.sum - a.sum);
  return rows.map(({ key, s, sum }) =>
    `| ${label} | ${key} | ${(s.calls / retrievals).toFixed(2)} | ${f1(sum / s.calls)} | ${f1(pct(s.ms, 95))} | ${f1(sum / retrievals)} |`);
}

/** Delete what this run stored in a shared Neo4j (every node of its tenant). */
async function eraseTenant(env: Record<string, string>): Promise<void> {
  const driver = neo4j.driver(env.NEO4J_URI!, neo4j.auth.basic(env.NEO4J_USER ?? 'neo4j', env.NEO4J_PASSWORD ?? ''));
  try {
    const session = driver.session();
    await session.run('MATCH (n) WHERE n.tenant = $tenant CALL { WITH n DETACH DELETE n } IN TRANSACTIONS OF 1000 ROWS', { tenant })
      .finally(() => session.close());
  } finally {
    await driver.close();
  }
}

async function main(): Promise<void> {
  const given = process.env.NEO4J_URI
    ? { NEO4J_URI: process.env.NEO4J_URI, NEO4J_USER: process.env.NEO4J_USER ?? 'neo4j', NEO4J_PASSWORD: process.env.NEO4J_PASSWORD ?? '' }
    : null;
  const dir = given ? null : tempDir('parley-bench-calls-neo4j-');
  const lines: string[] = [];
  console.log(`${memories} synthetic memories, ${queries().length} queries (split ${split}), ${repeats} repeats per level; retrieval total_ms`);
  console.log('| deployment | concurrency | retrievals | p50 | p50 min–max over repeats | p95 | p95 min–max | match mean | expand mean | search mean |\n|---|---|---|---|---|---|---|---|---|---|');
  let env: Record<string, string> | null = null;
  try {
    lines.push(...await measure('embedded', {}));
    env = given ?? { ...(await neo4jServer('start', dir!.dir))! };
    lines.push(...await measure('all stores in Neo4j', { ...env, PARLEY_GRAPH_STORE: 'neo4j', PARLEY_VECTOR_STORE: 'neo4j' }));
  } finally {
    if (given) await eraseTenant(given).catch((err: Error) => console.error(err.message));
    if (dir) {
      await neo4jServer('stop', dir.dir).catch((err: Error) => console.error(err.message));
      dir.remove();
    }
  }
  console.log(`\nStore calls per retrieval at concurrency ${levels[0]} (last repeat), ms`);
  console.log('| deployment | call | calls per retrieval | mean ms | p95 ms | ms per retrieval |\n|---|---|---|---|---|---|');
  for (const l of lines) console.log(l);
}

await main();
