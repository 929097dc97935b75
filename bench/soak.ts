/**
 * Soak: bounded runs against a real server process on loopback that report what held.
 *   1. RSS of the server over `--rounds` rounds of `--sessions` concurrent speech sessions (`--clips`
 *      fixture clips back to back, streamed in real time, 100 ms frames, then `session.end`), measured
 *      with no live session, with where it sits (glibc arenas, main heap, other anonymous, files).
 *   2. `--fuzz` fuzzed frames/bodies generated from the protocol schemas (half WebSocket, half HTTP
 *      utterance batches): server crashes, HTTP 5xx, `PARLEY_ERR_INTERNAL` events, 1011 closes.
 *   3. Session slots after dropped sockets: 4× the session cap opened and dropped without `session.end`,
 *      then how many fresh sessions the cap admits.
 *   4. A control session's `transcript.final` latency (text `utterance` messages, one per 200 ms)
 *      while another session floods at `--flood-rate` messages a second, against the same control
 *      alone (baseline, same run).
 *
 *   5. kill -9 durability: `--crashes` kills of a server under HTTP and WebSocket writes; after a
 *      restart, acknowledged utterances lost (must be 0) and consolidation jobs left pending.
 *
 *   npm run soak -- [--rounds 10] [--sessions 8] [--clips 3] [--max-growth-mb 150] [--max-rss-growth-mb 300]
 *                   [--server-env K=V,…]
 *                   [--fuzz 10000] [--flood-rate 5000] [--flood-s 10] [--only=rss,fuzz,slots,flood,durability]
 *
 * The RSS part is a regression check: it exits 1 when malloc-held memory (glibc arenas + main heap,
 * from /proc/<pid>/smaps) grows by more than `--max-growth-mb`, or RSS by more than
 * `--max-rss-growth-mb`, from round 1 (when the pool holds every decoder the load needs) to the last.
 * Decoders made and freed per turn (`--server-env PARLEY_ASR_IDLE_DECODERS=0,PARLEY_ASR_MAX_DECODERS=64`)
 * grew ~1 GB there and fail it; the bounded pool stays within a few tens of MB (docs/BENCHMARKS.md).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ParleyClient, ParleyError } from '../clients/typescript/src/index.js';
import { encodeS16le } from '../pipelines/audio/pcm-codecs.js';
import { loadAudioFixtures, fixtureSamples } from '../pipelines/audio/fixtures.js';
import { killHard, startServerProcess, type ServerProcess } from '../test/helpers/server-process.js';
import { tempDir } from '../test/helpers/temp-dir.js';
import { TestWsClient } from '../test/helpers/ws-client.js';
import { percentile } from './lib/locomo.js';
import { fuzzBatchBody, fuzzWsFrame } from './lib/fuzz.js';
import { seededRandom } from './lib/seeded-random.js';
import { argNumber, argString } from './lib/cli.js';
import { formatBreakdown, memoryBreakdown, type MemoryBreakdown } from './lib/proc-memory.js';

const rounds = argNumber('rounds', 10);
const sessions = argNumber('sessions', 8);
const fuzzCount = argNumber('fuzz', 10_000);
const floodRate = argNumber('flood-rate', 5000);
const floodS = argNumber('flood-s', 10);
const crashes = argNumber('crashes', 5);
/** Extra environment of the RSS part's server, `K=V,K=V` (e.g. `MALLOC_ARENA_MAX=2`, `PARLEY_ASR_IDLE_DECODERS=0`). */
const serverEnv = Object.fromEntries(argString('server-env', '').split(',').filter(Boolean).map((kv) => {
  const at = kv.indexOf('=');
  if (at <= 0) throw new Error(`--server-env wants K=V pairs, got ${JSON.stringify(kv)}`);
  return [kv.slice(0, at), kv.slice(at + 1)];
}));
/**
 * Fail (exit 1) when malloc-held memory (glibc arenas + main heap) grows by more than this many MB
 * from round 1 to the last round, or RSS by more than `--max-rss-growth-mb` (RSS also moves with the
 * JS heaps: up to ~100 MB from one round to the next with no native growth).
 */
const maxGrowthMb = argNumber('max-growth-mb', 150);
const maxRssGrowthMb = argNumber('max-rss-growth-mb', 300);
/** Fixture clips each RSS session streams back to back (longer sessions, more turns each). */
const clipsPerSession = Math.max(1, Math.floor(argNumber('clips', 3)));
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function withServer<T>(env: Record<string, string>, run: (s: ServerProcess) => Promise<T>): Promise<T> {
  const tmp = tempDir('parley-soak-');
  const server = await startServerProcess({ DATA_DIR: tmp.dir, ...env });
  try {
    return await run(server);
  } finally {
    const gone = new Promise((resolve) => server.child.once('exit', resolve));
    server.child.kill('SIGTERM');
    await gone;
    tmp.remove();
  }
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/**
 * 1. Server RSS after each round of concurrent real-speech sessions, with where it sits (glibc arenas,
 * main heap, other anonymous memory, file mappings). Growth is counted from round 1, after every
 * decoder the load needs has been made; `--max-growth-mb` turns it into a pass/fail check.
 */
async function rssRounds(): Promise<void> {
  const clips = loadAudioFixtures().map((f) => fixtureSamples(f));
  const env = serverEnv;
  await withServer(env, async (server) => {
    const pid = server.child.pid!;
    const rss = [rssMb(pid)];
    const shape = [memoryBreakdown(pid)];
    let finals = 0;
    const parley = new ParleyClient({ baseUrl: server.httpUrl });
    for (let r = 0; r < rounds; r++) {
      await Promise.all(Array.from({ length: sessions }, async (_, i) => {
        // Real time, 100 ms frames, paced by the SDK; no resume (a drop would end the round with an error).
        const session = await parley.stream({ sessionId: `rss-${r}-${i}`, pacing: 'realtime', frameMs: 100, resume: false });
        const parts = Array.from({ length: clipsPerSession }, (_, c) => clips[(r + i + c) % clips.length]!);
        const audio = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
        parts.reduce((at, p) => (audio.set(p, at), at + p.length), 0);
        const reading = (async () => {
          for await (const e of session) if (e.type === 'transcript.final') finals += 1;
        })();
        session.sendAudio(encodeS16le(audio));
        await session.end({ timeoutMs: 120_000 });
        await reading;
      }));
      rss.push(rssMb(pid));
      shape.push(memoryBreakdown(pid));
    }
    const envText = Object.entries(env).map(([k, v]) => `${k}=${v}`).join(' ') || 'none';
    console.log(`\n## 1. RSS over ${rounds} rounds of ${sessions} speech sessions of ${clipsPerSession} clip(s) each (${finals} finals; server env: ${envText})`);
    console.log(`RSS MB: start ${rss[0]!.toFixed(0)}; after each round ${rss.slice(1).map((x) => x.toFixed(0)).join(', ')}`);
    const afterFirst = rss.slice(1);
    console.log(`growth after round 1: ${(afterFirst.at(-1)! - afterFirst[0]!).toFixed(0)} MB (min ${Math.min(...afterFirst).toFixed(0)}, max ${Math.max(...afterFirst).toFixed(0)})`);
    for (const [i, b] of shape.entries()) console.log(`  ${i === 0 ? 'start' : `round ${i}`}: ${formatBreakdown(b)} MB`);
    if (rounds >= 2) {
      // malloc-held memory (arenas + main heap) moves little with the JS heap, so it shows native growth more clearly than RSS.
      const heldMb = (b: MemoryBreakdown): number => b.arenas + b.mainHeap;
      const growth = rss.at(-1)! - rss[1]!;
      const held = heldMb(shape.at(-1)!) - heldMb(shape[1]!);
      const ok = growth <= maxRssGrowthMb && held <= maxGrowthMb;
      console.log(`growth from round 1 to ${rounds}: RSS ${growth.toFixed(0)} MB (limit ${maxRssGrowthMb}), ` +
        `malloc-held (arenas + main heap) ${held.toFixed(0)} MB (limit ${maxGrowthMb}): ${ok ? 'PASS' : 'FAIL'}`);
      if (!ok) process.exitCode = 1;
    }
  });
}

/** 2. Fuzzed WebSocket frames and HTTP bodies. */
async function fuzz(): Promise<void> {
  const rand = seededRandom(12);
  const rnd = { int: (n: number): number => Math.floor(rand() * n) };
  // Rate limiting off: the fuzzer floods HTTP on purpose, and its figures count what the handlers answer.
  await withServer({ PARLEY_SESSION_QUEUE: '100000', PARLEY_RATE_LIMIT_PER_MIN: '0' }, async (server) => {
    let http5xx = 0;
    let httpOk = 0;
    let http4xx = 0;
    const wsCount = Math.floor(fuzzCount / 2);
    for (let i = 0; i < fuzzCount - wsCount; i++) {
      // Raw on purpose (as the WebSocket frames below): fuzzed bodies are what the SDK's typed calls never send.
      const res = await fetch(`${server.httpUrl}/v1/sessions/fuzz-${i % 20}/utterances`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: fuzzBatchBody(rnd),
      });
      await res.arrayBuffer();
      if (res.status >= 500) http5xx += 1;
      else if (res.status >= 400) http4xx += 1;
      else httpOk += 1;
    }
    let internal = 0;
    let closes1011 = 0;
    let reconnects = 0;
    let ws = await TestWsClient.connect(`${server.wsUrl}/v1/stream?session_id=fuzz-ws`);
    const tally = (c: TestWsClient): void => {
      internal += c.events.filter((e) => e.type === 'error' && e.code === 'PARLEY_ERR_INTERNAL').length;
      if (c.closeCode === 1011) closes1011 += 1;
    };
    for (let i = 0; i < wsCount; i++) {
      if (ws.closeCode !== undefined || ws.socket.readyState !== ws.socket.OPEN) {
        tally(ws);
        reconnects += 1;
        ws = await TestWsClient.connect(`${server.wsUrl}/v1/stream?session_id=fuzz-ws-${reconnects}`);
      }
      ws.sendRaw(fuzzWsFrame(rnd));
      if (i % 50 === 49) await sleep(20);
    }
    await sleep(2000);
    tally(ws);
    ws.close();
    const alive = server.child.exitCode === null && (await new ParleyClient({ baseUrl: server.httpUrl }).health().then(() => true, () => false));
    console.log(`\n## 2. Fuzz: ${fuzzCount - wsCount} HTTP bodies, ${wsCount} WebSocket frames (seed 12)`);
    console.log(`HTTP: ${http5xx} 5xx, ${http4xx} 4xx, ${httpOk} 2xx. WebSocket: ${internal} PARLEY_ERR_INTERNAL, ${closes1011} closes 1011, ${reconnects} sockets closed by the server (8 MiB or fatal). Server alive after: ${alive}`);
  });
}

/** 3. Slots after dropped sockets. */
async function slots(): Promise<void> {
  const cap = 8;
  await withServer({ PARLEY_MAX_SESSIONS: String(cap), PARLEY_MAX_RESUMABLE_SESSIONS: String(cap) }, async (server) => {
    for (let i = 0; i < cap * 4; i++) {
      const ws = await TestWsClient.connect(`${server.wsUrl}/v1/stream?session_id=drop-${i}`);
      await ws.next('session.started');
      ws.socket.terminate();
      await ws.closed();
    }
    await sleep(200);
    const fresh: TestWsClient[] = [];
    let admitted = 0;
    for (let i = 0; i < cap; i++) {
      const ws = await TestWsClient.connect(`${server.wsUrl}/v1/stream?session_id=fresh-${i}`);
      const first = await Promise.race([ws.next('session.started'), ws.next('error')]);
      if (first.type === 'session.started') admitted += 1;
      fresh.push(ws);
    }
    for (const ws of fresh) ws.close();
    console.log(`\n## 3. Slots: ${cap * 4} sockets dropped without session.end, then ${admitted}/${cap} fresh sessions admitted (cap ${cap})`);
  });
}

/**
 * 5. kill -9 durability: `--crashes` times, HTTP and WebSocket clients store utterances while the
 * server is killed without warning at a random moment; after a restart on the same data, every
 * acknowledged utterance must be found, and every stored one consolidated.
 */
async function durability(): Promise<void> {
  const tmp = tempDir('parley-soak-durable-');
  // Rate limiting off: the writers send as fast as the server answers, on purpose.
  const env = { DATA_DIR: tmp.dir, PARLEY_ASR: 'none', PARLEY_RATE_LIMIT_PER_MIN: '0' };
  const rnd = seededRandom(11);
  const acked = new Set<string>();
  let sent = 0;
  try {
    for (let round = 0; round < crashes; round++) {
      const server = await startServerProcess(env);
      const parley = new ParleyClient({ baseUrl: server.httpUrl });
      let alive = true;
      const http = (async () => {
        for (let i = 0; alive; i++) {
          sent += 1;
          const res = await parley.postUtterances('durable-http', [{ speaker: 'Ana', text: `I planted row ${round}-${i} of tomatoes today.` }])
            .catch(() => null);
          for (const id of res?.utterance_ids ?? []) acked.add(id);
        }
      })();
      const ws = await TestWsClient.connect(`${server.wsUrl}/v1/stream?session_id=durable-ws`);
      await ws.next('session.started');
      const socket = (async () => {
        for (let i = 0; alive; i++) {
          sent += 1;
          try {
            ws.session!.send({ type: 'utterance', speaker: 'Ben', text: `The shed key ${round}-${i} is under the pot.` });
          } catch (err) {
            if (err instanceof ParleyError) break; // the connection is gone (the server was killed)
            throw err;
          }
          await sleep(5);
        }
      })();
      await sleep(500 + rnd() * 1500);
      await killHard(server);
      alive = false;
      await Promise.allSettled([http, socket]);
      await ws.closed().catch(() => undefined);
      // Every transcript.final the client received before the kill acknowledges its utterance.
      for (const e of ws.events) if (e.type === 'transcript.final' && typeof e.utterance_id === 'string') acked.add(e.utterance_id);
    }
    const server = await startServerProcess(env);
    try {
      const stored = new Set<string>();
      const parley = new ParleyClient({ baseUrl: server.httpUrl });
      for (const session of ['durable-http', 'durable-ws']) {
        for (const u of (await parley.transcript(session)).utterances) stored.add(u.id);
      }
      const lost = [...acked].filter((id) => !stored.has(id)).length;
      // Consolidation after the restart: jobs of the killed processes run again once their lease lapses.
      const db = new Database(path.join(tmp.dir, 'parley.db'), { readonly: true });
      const unconsolidated = (): number => (db.prepare(`SELECT COUNT(*) AS n FROM utterances u WHERE NOT EXISTS
        (SELECT 1 FROM memory_processed p WHERE p.tenant = u.tenant AND p.utterance_id = u.id)`).get() as { n: number }).n;
      const deadline = Date.now() + 180_000;
      let pending = unconsolidated();
      while (pending > 0 && Date.now() < deadline) {
        await sleep(1000);
        pending = unconsolidated();
      }
      db.close();
      console.log(`\n## 5. kill -9 durability: ${crashes} crashes, ${sent} utterances sent, ${acked.size} acknowledged, ${stored.size} stored after restart`);
      console.log('| acknowledged but lost | stored | stored but not consolidated (after at most 180 s) |');
      console.log('|---|---|---|');
      console.log(`| ${lost} | ${stored.size} | ${pending} |`);
    } finally {
      await killHard(server);
    }
  } finally {
    tmp.remove();
  }
}

/** Latencies (ms) of `count` control utterances sent every 200 ms. */
async function controlLatencies(wsUrl: string, id: string, count: number): Promise<number[]> {
  const ws = await TestWsClient.connect(`${wsUrl}/v1/stream?session_id=${id}`);
  await ws.next('session.started');
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const text = `Control message ${i} from the other room.`;
    const t0 = performance.now();
    ws.session!.send({ type: 'utterance', speaker: 'Cal', text });
    await ws.next('transcript.final', (e) => e.text === text, 120_000);
    out.push(performance.now() - t0);
    await sleep(200);
  }
  ws.close();
  return out;
}

/** 4. A control session's latency while another floods, and alone. */
async function flood(): Promise<void> {
  await withServer({}, async (server) => {
    const count = Math.max(5, Math.floor((floodS * 1000) / 250));
    const alone = await controlLatencies(server.wsUrl, 'control-alone', count);
    const f = await TestWsClient.connect(`${server.wsUrl}/v1/stream?session_id=flooder`);
    await f.next('session.started');
    let sent = 0;
    let stop = false;
    const perTick = Math.max(1, Math.round(floodRate / 100));
    const ticker = (async () => {
      while (!stop) {
        for (let k = 0; k < perTick; k++) f.session!.send({ type: 'utterance', speaker: 'Fay', text: `Flood ${sent++} about the budget.` });
        await sleep(10);
      }
    })();
    await sleep(500);
    const flooded = await controlLatencies(server.wsUrl, 'control-flooded', count);
    stop = true;
    await ticker;
    const stored = f.events.filter((e) => e.type === 'transcript.final').length;
    const shed = f.events.filter((e) => e.type === 'error' && e.code === 'PARLEY_ERR_OVERLOADED').length;
    f.socket.terminate();
    const row = (xs: number[]): string => `p50 ${percentile(xs, 50).toFixed(0)} ms, p95 ${percentile(xs, 95).toFixed(0)} ms, max ${Math.max(...xs).toFixed(0)} ms`;
    console.log(`\n## 4. Control transcript.final latency, ${count} messages each`);
    console.log(`alone (baseline): ${row(alone)}`);
    console.log(`while one session floods at ${floodRate}/s (${sent} sent, ${stored} stored, ${shed} refused OVERLOADED by the time control finished): ${row(flooded)}`);
  });
}

const only = process.argv.find((a) => a.startsWith('--only='))?.slice(7);
const parts: Record<string, () => Promise<void>> = { rss: rssRounds, fuzz, slots, flood, durability };
console.log(`soak: rounds ${rounds}, sessions ${sessions}, fuzz ${fuzzCount}, flood ${floodRate}/s for ~${floodS} s`);
for (const [name, run] of Object.entries(parts)) {
  if (!only || only.split(',').includes(name)) await run();
}
