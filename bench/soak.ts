/**
 * Soak: bounded runs against a real server process on loopback that report what held.
 *   1. RSS of the server over `--rounds` rounds of `--sessions` concurrent speech sessions (fixture
 *      speech streamed in real time, 100 ms frames, then `session.end`), measured with no live session.
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
 *   npm run soak -- [--rounds 10] [--sessions 4] [--fuzz 10000] [--flood-rate 5000] [--flood-s 10]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { loadAudioFixtures, fixtureSamples } from '../pipelines/audio/fixtures.js';
import { killHard, startServerProcess, type ServerProcess } from '../test/helpers/server-process.js';
import { tempDir } from '../test/helpers/temp-dir.js';
import { TestWsClient } from '../test/helpers/ws-client.js';
import { percentile } from './lib/locomo.js';
import { fuzzBatchBody, fuzzWsFrame } from './lib/fuzz.js';
import { seededRandom } from './lib/seeded-random.js';
import { argNumber } from './lib/cli.js';

const rounds = argNumber('rounds', 10);
const sessions = argNumber('sessions', 4);
const fuzzCount = argNumber('fuzz', 10_000);
const floodRate = argNumber('flood-rate', 5000);
const floodS = argNumber('flood-s', 10);
const crashes = argNumber('crashes', 5);
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

/** 1. Server RSS after each round of concurrent real-speech sessions. */
async function rssRounds(): Promise<void> {
  const clips = loadAudioFixtures().map((f) => fixtureSamples(f));
  await withServer({}, async (server) => {
    const pid = server.child.pid!;
    const rss = [rssMb(pid)];
    let finals = 0;
    for (let r = 0; r < rounds; r++) {
      await Promise.all(Array.from({ length: sessions }, async (_, i) => {
        const ws = await TestWsClient.connect(`${server.wsUrl}/v1/stream?session_id=rss-${r}-${i}`);
        await ws.next('session.started');
        const audio = clips[(r + i) % clips.length]!;
        const pcm = Buffer.alloc(audio.length * 2);
        for (let k = 0; k < audio.length; k++) pcm.writeInt16LE(Math.round(Math.max(-1, Math.min(1, audio[k]!)) * 32767), k * 2);
        for (let at = 0; at < pcm.length; at += 3200) {
          ws.sendRaw(pcm.subarray(at, at + 3200));
          await sleep(100);
        }
        ws.sendJson({ type: 'session.end' });
        await ws.next('session.ended', undefined, 120_000);
        finals += ws.events.filter((e) => e.type === 'transcript.final').length;
        await ws.closed();
      }));
      rss.push(rssMb(pid));
    }
    console.log(`\n## 1. RSS over ${rounds} rounds of ${sessions} speech sessions (${finals} finals)`);
    console.log(`RSS MB: start ${rss[0]!.toFixed(0)}; after each round ${rss.slice(1).map((x) => x.toFixed(0)).join(', ')}`);
    const afterFirst = rss.slice(1);
    console.log(`growth after round 1: ${(afterFirst.at(-1)! - afterFirst[0]!).toFixed(0)} MB (min ${Math.min(...afterFirst).toFixed(0)}, max ${Math.max(...afterFirst).toFixed(0)})`);
  });
}

/** 2. Fuzzed WebSocket frames and HTTP bodies. */
async function fuzz(): Promise<void> {
  const rand = seededRandom(12);
  const rnd = { int: (n: number): number => Math.floor(rand() * n) };
  await withServer({ PARLEY_SESSION_QUEUE: '100000' }, async (server) => {
    let http5xx = 0;
    let httpOk = 0;
    let http4xx = 0;
    const wsCount = Math.floor(fuzzCount / 2);
    for (let i = 0; i < fuzzCount - wsCount; i++) {
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
    const alive = server.child.exitCode === null && (await fetch(`${server.httpUrl}/healthz`)).ok;
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
  const env = { DATA_DIR: tmp.dir, PARLEY_ASR: 'none' };
  const rnd = seededRandom(11);
  const acked = new Set<string>();
  let sent = 0;
  try {
    for (let round = 0; round < crashes; round++) {
      const server = await startServerProcess(env);
      let alive = true;
      const http = (async () => {
        for (let i = 0; alive; i++) {
          sent += 1;
          const res = await fetch(`${server.httpUrl}/v1/sessions/durable-http/utterances`, {
            method: 'POST', headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ utterances: [{ speaker: 'Ana', text: `I planted row ${round}-${i} of tomatoes today.` }] }),
          }).catch(() => null);
          if (res?.status === 201) for (const id of ((await res.json()) as { utterance_ids: string[] }).utterance_ids) acked.add(id);
        }
      })();
      const ws = await TestWsClient.connect(`${server.wsUrl}/v1/stream?session_id=durable-ws`);
      await ws.next('session.started');
      const socket = (async () => {
        for (let i = 0; alive; i++) {
          sent += 1;
          ws.sendJson({ type: 'utterance', speaker: 'Ben', text: `The shed key ${round}-${i} is under the pot.` });
          await sleep(5);
        }
      })();
      ws.socket.on('message', (m) => {
        const e = JSON.parse(String(m)) as { type: string; utterance_id?: string };
        if (e.type === 'transcript.final' && e.utterance_id) acked.add(e.utterance_id);
      });
      await sleep(500 + rnd() * 1500);
      await killHard(server);
      alive = false;
      await Promise.allSettled([http, socket]);
    }
    const server = await startServerProcess(env);
    try {
      const stored = new Set<string>();
      for (const session of ['durable-http', 'durable-ws']) {
        const t = (await (await fetch(`${server.httpUrl}/v1/sessions/${session}/transcript`)).json()) as { utterances: { id: string }[] };
        for (const u of t.utterances) stored.add(u.id);
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
    ws.sendJson({ type: 'utterance', speaker: 'Cal', text });
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
        for (let k = 0; k < perTick; k++) f.sendJson({ type: 'utterance', speaker: 'Fay', text: `Flood ${sent++} about the budget.` });
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
