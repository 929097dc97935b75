/**
 * Text affect on the deployment's text embedder: accuracy of the few-shot vote on USE-lite vs bge-small-en-v1.5-q
 * (leave-one-out over the committed labelled examples, the only labelled affect set the repo has; paired 95 %
 * bootstrap of the difference), and a server's resident memory (VmRSS, peak VmHWM) after start and after a few
 * consolidated turns, for this build and, with `--baseline-dist DIR` (another build's `dist/`), the baseline's.
 *
 *   node dist/bench/affect-encoders.js [--baseline-dist /tmp/base/dist] [--reps 2] [--skip-memory]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AFFECT_EXAMPLES } from '../pipelines/affect/affect-examples.js';
import { TextAffectClassifier } from '../pipelines/affect/text-affect.js';
import { RecentEmbeddings } from '../pipelines/embeddings/recent-embeddings.js';
import { textModelInstalled } from '../pipelines/embeddings/text-embedder-choice.js';
import { modelsDir } from '../pipelines/models/repo-root.js';
import { benchEmbedder } from './lib/bench-embedders.js';
import { bootstrapDelta, bootstrapMean, pct } from './lib/bootstrap.js';
import { argNumber, argString } from './lib/cli.js';

const ENCODERS = ['use-lite', 'bge-small-en-v1.5-q'] as const;

/** Per example: 1 when the other 29 examples' vote gives its label, else 0; and the labels given. */
async function leaveOneOut(name: string): Promise<{ hits: number[]; labels: string[] }> {
  const embedder = new RecentEmbeddings(benchEmbedder(name), { maxTexts: AFFECT_EXAMPLES.length + 1 });
  try {
    const vectors = await embedder.embed(AFFECT_EXAMPLES.map(([t]) => t));
    const hits: number[] = [];
    const labels: string[] = [];
    for (const [i, [, label]] of AFFECT_EXAMPLES.entries()) {
      const others = AFFECT_EXAMPLES.filter((_, j) => j !== i);
      const [r] = await new TextAffectClassifier(embedder, { examples: others }).classifyVectors([vectors[i]!]);
      labels.push(r!.label);
      hits.push(r!.label === label ? 1 : 0);
    }
    return { hits, labels };
  } finally {
    await embedder.close();
  }
}

const TURNS = [
  { speaker: 'Ana', text: 'I absolutely love my new job, it is wonderful.' },
  { speaker: 'Ben', text: 'I live in Porto and I love sushi.' },
  { speaker: 'Ana', text: 'I am so happy with my new job.' },
  { speaker: 'Ben', text: 'I am furious about the traffic on the bridge.' },
  { speaker: 'Ana', text: 'The meeting is on the second floor.' },
];

function procMemory(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string): number => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN);
  return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
}

async function waitFor(what: string, ms: number, check: () => Promise<boolean>): Promise<void> {
  for (const deadline = Date.now() + ms; !(await check().catch(() => false));) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Jobs waiting or running, from `/metrics`. */
async function jobsLeft(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  return [...text.matchAll(/^parley_queue_jobs\{[^}]*\} (\d+)/gm)].reduce((a, m) => a + Number(m[1]), 0);
}

interface ServerRun { label: string; start: { rss: number; hwm: number }; turns: { rss: number; hwm: number }; affectNodes: number; cpuS: number }

/** One server from `dist` with `env`: memory after it listens, and after the turns are consolidated. */
async function serverRun(label: string, dist: string, env: Record<string, string>, port: number): Promise<ServerRun> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'parley-affect-bench-'));
  const child = spawn(process.execPath, [path.join(dist, 'server', 'main.js')], {
    env: { ...process.env, ...env, PORT: String(port), DATA_DIR: dataDir, PARLEY_ASR: 'none', MODELS_DIR: modelsDir(), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${label} to listen`, 180_000, async () => (await fetch(`${base}/healthz`)).ok);
    await new Promise((r) => setTimeout(r, 2000));
    const start = procMemory(child.pid!);
    const res = await fetch(`${base}/v1/sessions/affect-bench/utterances`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ utterances: TURNS }),
    });
    if (res.status !== 201) throw new Error(`${label}: POST utterances answered ${res.status}: ${await res.text()}`);
    await new Promise((r) => setTimeout(r, 500));
    await waitFor(`${label} to consolidate`, 300_000, async () => (await jobsLeft(base)) === 0);
    await new Promise((r) => setTimeout(r, 2000));
    const turns = procMemory(child.pid!);
    const persona = await (await fetch(`${base}/v1/participants/Ana/persona`)).json() as { persona?: { kind: string }[] };
    const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    const cpuS = (Number(stat[11]) + Number(stat[12])) / 100;
    return { label, start, turns, affectNodes: (persona.persona ?? []).filter((p) => p.kind === 'affect').length, cpuS };
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (!textModelInstalled(modelsDir(), 'bge-small-en-v1.5-q')) {
    console.log(`SKIP: bge-small-en-v1.5-q is not installed in ${modelsDir()} (npm run models -- fetch bge-small-en-v1.5-q)`);
    return;
  }
  console.log('# Text affect: leave-one-out over the committed examples (n = %d), k = 3', AFFECT_EXAMPLES.length);
  const loo = new Map<string, { hits: number[]; labels: string[] }>();
  for (const name of ENCODERS) {
    const r = await leaveOneOut(name);
    loo.set(name, r);
    console.log(`${name}: accuracy ${pct(bootstrapMean(r.hits))}`);
  }
  const [a, b] = ENCODERS.map((n) => loo.get(n)!);
  console.log(`bge − USE-lite (paired): ${pct(bootstrapDelta(b!.hits, a!.hits), true)}`);
  console.log(`same label on ${a!.labels.filter((l, i) => l === b!.labels[i]).length} of ${a!.labels.length}`);
  for (const [i, [text, label]] of AFFECT_EXAMPLES.entries()) {
    if (a!.hits[i] === 0 || b!.hits[i] === 0) console.log(`  miss: "${text}" (${label}): USE-lite ${a!.labels[i]}, bge ${b!.labels[i]}`);
  }
  if (process.argv.includes('--skip-memory')) return;

  const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const baseline = argString('baseline-dist', '');
  const reps = argNumber('reps', 1);
  const configs: [string, string, Record<string, string>][] = [
    ['this build, auto (bge)', here, { PARLEY_TEXT_EMBEDDER: 'auto' }],
    ['this build, use-lite', here, { PARLEY_TEXT_EMBEDDER: 'use-lite' }],
    ...(baseline ? [['baseline, auto (bge + USE-lite for affect)', baseline, { PARLEY_TEXT_EMBEDDER: 'auto' }] as [string, string, Record<string, string>]] : []),
  ];
  console.log('\n# Server memory (MB; PARLEY_ASR=none, %d turns posted and consolidated)', TURNS.length);
  console.log('| run | RSS after start | RSS after turns | peak (VmHWM) | affect persona nodes of Ana | process CPU s |');
  console.log('|---|---|---|---|---|---|');
  let port = 18_400 + (process.pid % 500);
  for (let rep = 0; rep < reps; rep++) {
    for (const [label, dist, env] of rep % 2 === 0 ? configs : [...configs].reverse()) {
      const r = await serverRun(label, dist, env, port++);
      console.log(`| ${r.label} (rep ${rep + 1}) | ${r.start.rss.toFixed(0)} | ${r.turns.rss.toFixed(0)} | ${r.turns.hwm.toFixed(0)} | ${r.affectNodes} | ${r.cpuS.toFixed(1)} |`);
    }
  }
}

await main();
