/**
 * Networked against embedded, in one run: the same server (in this process, consolidation included,
 * `PARLEY_RUN_JOBS=true`) on three deployments: the embedded default (every store and the queue in
 * SQLite); the Neo4j graph store (graph, facts, entity index) with the Redis queue, vectors and
 * keyword index still in SQLite; and every store in Neo4j (`PARLEY_VECTOR_STORE=neo4j`: native vector
 * and full-text indexes) with the Redis queue. Neo4j is a private server started through
 * scripts/neo4j-test-server.sh; Redis is BullMQ under a key prefix of this run. Each deployment gets
 * the same synthetic memories; then, at each
 * level of live sessions streaming the fixture speech in real time, it reports the confirmed
 * `memory.context`'s `ready_at_ms` and search time (as bench/retrieval-latency.ts does) and the
 * fact-searchable latency: from a `POST /v1/sessions/…/utterances` of "I live in <city>…" to the
 * first `POST /v1/query` that returns it as a fact or profile memory, polled every 100 ms while the live sessions run.
 * Run: node dist/bench/networked-latency.js [--memories 2000] [--entities 200] [--sessions 4,8] [--rounds 1] [--facts 6]
 * Needs Redis (`REDIS_URL`, default redis://127.0.0.1:6379/0), Java 17 and Maven; prints SKIP otherwise.
 */
import { execFileSync } from 'node:child_process';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { buildApp } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { deleteKeys } from '../test/helpers/redis.js';
import { tempDir } from '../test/helpers/temp-dir.js';
import { ParleyClient } from '../clients/typescript/src/index.js';
import { neo4jServer } from '../test/helpers/topology.js';
import { argString } from './lib/cli.js';
import { f1, pct, streamLiveTurns } from './lib/live-turns.js';
import { synthesiseMemories } from './retrieval-synth.js';

const memories = Number(argString('memories', '2000'));
const entities = Number(argString('entities', '200'));
const levels = argString('sessions', '4,8').split(',').map(Number);
const rounds = Number(argString('rounds', '1'));
const factProbes = Number(argString('facts', '6'));
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/0';

const NAMES = ['Quentin', 'Rosa', 'Samuel', 'Teresa', 'Ulrich', 'Vera', 'Walter', 'Xenia', 'Yusuf', 'Zora', 'Albert', 'Beatriz'];
const CITIES = ['Porto', 'Lisbon', 'Madrid', 'Paris', 'Berlin', 'Vienna', 'Prague', 'Oslo', 'Dublin', 'Rome', 'Athens', 'Warsaw'];

async function skipReason(): Promise<string | undefined> {
  for (const tool of ['java', 'mvn']) {
    try {
      execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
    } catch {
      return `${tool} not found (the networked run starts a private Neo4j through scripts/neo4j-test-server.sh)`;
    }
  }
  const client = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1000, enableOfflineQueue: false });
  try {
    await client.connect();
    await client.ping();
    return undefined;
  } catch (err) {
    return `no Redis at ${redisUrl} (${(err as Error).message})`;
  } finally {
    client.disconnect();
  }
}

/**
 * While `during` runs: `n` facts posted one after another, each timed from its POST to the first
 * query whose evidence holds it as a fact. Returns the latencies (ms) and how many never showed.
 */
async function factSearchable(httpUrl: string, tag: string, n: number, during: Promise<unknown>): Promise<{ ms: number[]; missed: number }> {
  const ms: number[] = [];
  let missed = 0;
  let live = true;
  void during.finally(() => { live = false; });
  for (let k = 0; k < n; k += 1) {
    const name = `${NAMES[k % NAMES.length]}${tag}`;
    const city = CITIES[(k * 5) % CITIES.length]!;
    const t0 = performance.now();
    const api = new ParleyClient({ baseUrl: httpUrl });
    await api.postUtterances(`facts-${tag}`, [{ speaker: name, text: `I live in ${city}.` }]);
    let found = false;
    const deadline = t0 + 60_000;
    while (!found && performance.now() < deadline) {
      const { evidence } = await api.query({ question: `Where does ${name} live?`, k: 5 });
      found = evidence.some((e) => (e.layer === 'fact' || e.layer === 'profile') && e.text.includes(city) && e.text.includes(name));
      if (!found) await new Promise((r) => setTimeout(r, 100));
    }
    if (found) ms.push(performance.now() - t0);
    else missed += 1;
    // Spread the probes over the live run rather than bunching them at its start.
    if (live) await new Promise((r) => setTimeout(r, 500));
  }
  return { ms, missed };
}

async function measure(label: string, env: Record<string, string>): Promise<string[][]> {
  const tmp = tempDir('parley-bench-net-');
  const config = loadConfig({
    DATA_DIR: tmp.dir, PORT: '0', LOG_LEVEL: 'silent', PARLEY_RUN_JOBS: 'true', PARLEY_MAX_SESSIONS: '64',
    PARLEY_WORKER_NICE: argString('worker-nice', '5'), ...env,
  });
  const app = await buildApp(config, { logger: pino({ level: 'silent' }), eagerModels: true });
  const rows: string[][] = [];
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const synthMs = await synthesiseMemories(app, 'default', memories, entities);
    await app.retriever.retrieve({ tenant: 'default', text: 'warm up the cat and the coffee' });
    console.log(`${label}: synthesised ${memories} memories, ${entities} entities in ${(synthMs / 1000).toFixed(1)} s`);
    for (const c of levels) {
      const live = streamLiveTurns(`ws://127.0.0.1:${port}`, c, rounds, `net-${label.replace(/[^A-Za-z0-9]+/g, '-')}`);
      const facts = await factSearchable(`http://127.0.0.1:${port}`, `L${c}`, factProbes, live);
      const turns = await live;
      rows.push([label, String(c), `${turns.ready.length}/${turns.expected}`, f1(pct(turns.ready, 50)), f1(pct(turns.ready, 95)),
        f1(pct(turns.search, 50)), f1(pct(turns.search, 95)), `${facts.ms.length}/${factProbes}`, f1(pct(facts.ms, 50)),
        f1(pct(facts.ms, 95)), f1(facts.ms.length > 0 ? Math.max(...facts.ms) : NaN)]);
    }
  } finally {
    await app.close();
    tmp.remove();
  }
  return rows;
}

async function main(): Promise<void> {
  const skip = await skipReason();
  if (skip) {
    console.log(`SKIP: ${skip}`);
    return;
  }
  const neo4jDir = tempDir('parley-bench-neo4j-');
  const prefix = `parley-bench-net-${process.pid}`;
  const rows: string[][] = [];
  try {
    rows.push(...await measure('embedded (SQLite stores + queue)', {}));
    // A fresh Neo4j (and Redis prefix) for each networked deployment, so neither sees the other's memories.
    const fresh = async (n: number): Promise<Record<string, string>> => {
      const t0 = performance.now();
      const neo4j = (await neo4jServer('start', neo4jDir.dir))!;
      console.log(`private Neo4j up in ${((performance.now() - t0) / 1000).toFixed(1)} s at ${neo4j.NEO4J_URI}`);
      return { ...neo4j, PARLEY_GRAPH_STORE: 'neo4j', PARLEY_QUEUE: 'redis', REDIS_URL: redisUrl, PARLEY_REDIS_PREFIX: `${prefix}-${n}` };
    };
    rows.push(...await measure('Neo4j graph + Redis queue, SQLite vectors', { ...await fresh(1), PARLEY_VECTOR_STORE: 'sqlite' }));
    rows.push(...await measure('all stores in Neo4j + Redis queue', { ...await fresh(2), PARLEY_VECTOR_STORE: 'neo4j' }));
  } finally {
    await neo4jServer('stop', neo4jDir.dir).catch((err: Error) => console.error(err.message));
    await deleteKeys(prefix, redisUrl);
    neo4jDir.remove();
  }
  const head = ['deployment', 'sessions', 'confirmed/spoken turns', 'ready p50', 'ready p95', 'search p50', 'search p95',
    'facts found', 'fact-searchable p50', 'fact-searchable p95', 'fact-searchable max'];
  console.log(`\n${memories} synthetic memories per deployment, fixture speech streamed in real time, ${rounds} round(s) per session, ${factProbes} fact probes per level (ms)`);
  console.log(`| ${head.join(' | ')} |\n|${head.map(() => '---').join('|')}|`);
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
}

await main();
