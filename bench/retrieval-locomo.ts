/**
 * Retrieval quality on LoCoMo (../shared/data/locomo): every conversation is ingested through the
 * HTTP API into its own tenant (one API key each), consolidated by the server's own jobs (facts,
 * vectors, left brain), then every question is asked via POST /v1/query with k = 5 and 10. Reports
 * evidence recall any@K / all@K for categories 1–4 together and 5 separately, side by side with flat
 * BM25 and flat dense (USE-lite) top-K over the same turns, measured in the same run.
 * Gold dia_ids map to utterance ids by ingestion order; a fact's refer_ids count as its turns.
 * Also prints per-query latency p50 / p95 (Parley: HTTP round trip incl. the agentic rounds; the
 * baselines: the bare store call, no HTTP) and the mean number of agentic rounds.
 * Run: node dist/bench/retrieval-locomo.js [--skip S] [--conversations N] [--store DIR] [--options JSON]
 * `--skip` / `--conversations` pick conversations S+1..S+N. `--store DIR` keeps the ingested,
 * consolidated stores in DIR; a later run with the same DIR asking for conversations it holds skips
 * ingestion (for changes to query-time code only; delete DIR after changing ingestion or
 * consolidation). `--options '{"denseWeight":0.3}'` asks in-process through `answerQuestion` with
 * those `AgenticOptions` instead of over HTTP (for tuning on some conversations, checking on others).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pino } from 'pino';
import { collectionFor } from '../pipelines/memory/collections.js';
import { CONSOLIDATION_JOB } from '../pipelines/memory/consolidate.js';
import { answerQuestion, type AgenticOptions } from '../pipelines/retrieval/agentic-query.js';
import type { MemoryItem } from '../graph/core/events.js';
import { buildApp } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { tempDir } from '../test/helpers/temp-dir.js';
import { loadLocomoTurns, locomoTime, sharedDataDir, type LocomoTurn } from './lib/locomo.js';

interface Qa { conv_id: string; question: string; category: number; evidence: string[] }

const byConv = loadLocomoTurns();
if (!byConv) process.exit(0);
const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const skip = Number(arg('skip') ?? 0);
const convs = [...byConv.keys()].slice(skip, skip + Number(arg('conversations') ?? Infinity));
const options = arg('options') === undefined ? null : JSON.parse(arg('options') as string) as AgenticOptions;
const qas = readFileSync(path.join(sharedDataDir(), 'locomo', 'locomo_qa.jsonl'), 'utf8').split('\n').filter(Boolean)
  .map((l) => JSON.parse(l) as Qa).filter((q) => convs.includes(q.conv_id));

const tenantOf = (conv: string): string => conv.replace(/[^A-Za-z0-9_-]/g, '_');
const keyOf = (conv: string): string => `benchkey_${tenantOf(conv)}`;
const store = arg('store');
const tmp = store ? null : tempDir('parley-locomo-');
const dataDir = store ? path.resolve(store) : tmp!.dir;
mkdirSync(dataDir, { recursive: true });
const idsFile = path.join(dataDir, 'locomo-ids.json');
const stored = store && existsSync(idsFile) ? JSON.parse(readFileSync(idsFile, 'utf8')) as { conversations: string[]; ids: Record<string, string> } : null;
if (stored && !convs.every((c) => stored.conversations.includes(c))) {
  console.error(`${dataDir} holds conversations ${stored.conversations.join(', ')}, not all of ${convs.join(', ')}: use another --store`);
  process.exit(1);
}
const config = loadConfig({
  DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', PARLEY_API_KEYS: convs.map((c) => `${keyOf(c)}:${tenantOf(c)}`).join(','),
});
const app = await buildApp(config, { logger: pino({ level: 'silent' }) });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
const post = async (conv: string, url: string, body: unknown): Promise<unknown> => {
  const res = await fetch(`${base}${url}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${keyOf(conv)}` }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status} ${await res.text()}`);
  return res.json();
};

/** Ingest session by session; returns dia_id → utterance id (key `conv|dia_id`). */
async function ingest(): Promise<Map<string, string>> {
  const t0 = performance.now();
  const diaToUtt = new Map<string, string>();
  for (const conv of convs) {
    const mine = byConv!.get(conv) as (LocomoTurn & { img_caption?: string })[];
    for (const session of [...new Set(mine.map((t) => t.session))]) {
      const rows = mine.filter((t) => t.session === session);
      const body = { utterances: rows.map((t, i) => ({
        speaker: t.speaker, addressees: [t.addressee], time: locomoTime(t.session_date_time, 60 * i),
        text: t.img_caption ? `${t.text} [shares a photo: ${t.img_caption}]` : t.text,
      })) };
      const res = await post(conv, `/v1/sessions/${tenantOf(conv)}-s${session}/utterances`, body) as { utterance_ids: string[] };
      rows.forEach((t, i) => diaToUtt.set(`${conv}|${t.dia_id}`, res.utterance_ids[i]!));
    }
  }
  const ingestMs = performance.now() - t0;
  await app.stores.queue.drain(CONSOLIDATION_JOB, 3_600_000);
  const consolidateMs = performance.now() - t0 - ingestMs;
  console.log(`ingested ${diaToUtt.size} turns of ${convs.length} conversations in ${(ingestMs / 1000).toFixed(1)} s, consolidated in ${(consolidateMs / 1000).toFixed(1)} s`);
  return diaToUtt;
}

let diaToUtt: Map<string, string>;
if (stored) {
  diaToUtt = new Map(Object.entries(stored.ids));
  console.log(`reusing the ${diaToUtt.size} turns ingested in ${dataDir}`);
} else {
  diaToUtt = await ingest();
  if (store) writeFileSync(idsFile, JSON.stringify({ conversations: convs, ids: Object.fromEntries(diaToUtt) }));
}

type System = 'parley' | 'bm25' | 'dense';
const SYSTEMS: System[] = ['parley', 'bm25', 'dense'];
const KS = [5, 10];
type Tally = { n: number; any: number; all: number };
const tally = new Map<string, Tally>();
const bump = (key: string, any: boolean, all: boolean): void => {
  const t = tally.get(key) ?? { n: 0, any: 0, all: 0 };
  t.n += 1; t.any += any ? 1 : 0; t.all += all ? 1 : 0;
  tally.set(key, t);
};
/** Per-query wall time of each system and K, ms (Parley: the whole HTTP round trip; baselines: the store call). */
const latency = new Map<string, number[]>();
const rounds: number[] = [];
const quantile = (xs: number[] | undefined, q: number): string => {
  if (!xs || xs.length === 0) return 'n/a';
  const sorted = [...xs].sort((a, b) => a - b);
  return (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number).toFixed(1);
};
const t1 = performance.now();
for (const q of qas) {
  const gold = q.evidence.map((d) => diaToUtt.get(`${q.conv_id}|${d}`)).filter((x): x is string => x !== undefined);
  if (gold.length === 0) continue;
  const tenant = tenantOf(q.conv_id);
  const group = q.category === 5 ? '5' : '1-4';
  const vector = (await app.retriever.embedder.embed([q.question]))[0]!;
  for (const k of KS) {
    const timed = async (s: System, f: () => Promise<string[]>): Promise<string[]> => {
      const started = performance.now();
      const ids = await f();
      const list = latency.get(`${s}|${k}`) ?? [];
      list.push(performance.now() - started);
      latency.set(`${s}|${k}`, list);
      return ids;
    };
    const got: Record<System, string[]> = {
      parley: await timed('parley', async () => {
        const answer = options
          ? await answerQuestion(app.retriever, tenant, { question: q.question, k }, options)
          : (await post(q.conv_id, '/v1/query', { question: q.question, k })) as { evidence: MemoryItem[]; rounds: number };
        rounds.push(answer.rounds);
        return answer.evidence.flatMap((i) => i.refer_ids);
      }),
      bm25: await timed('bm25', async () => (await app.stores.lexical.search(tenant, q.question, k, { layer: 'interaction' })).map((h) => h.id)),
      dense: await timed('dense', async () => (await app.stores.vectors.search(tenant, collectionFor('interaction'), vector, k)).map((h) => h.id)),
    };
    for (const s of SYSTEMS) {
      const found = new Set(got[s]);
      const any = gold.some((g) => found.has(g));
      const all = gold.every((g) => found.has(g));
      bump(`${s}|${k}|${group}`, any, all);
      bump(`${s}|${k}|c${q.category}`, any, all);
    }
  }
}
const askMs = performance.now() - t1;
const pctOf = (t: Tally | undefined, f: 'any' | 'all'): string => (t && t.n > 0 ? `${((100 * t[f]) / t.n).toFixed(1)} %` : 'n/a');
console.log(`\nLoCoMo evidence recall, conversations ${skip + 1}–${skip + convs.length}, ${qas.length} questions (asked in ${(askMs / 1000).toFixed(1)} s)`);
if (options) console.log(`Parley asked in-process through answerQuestion with options ${JSON.stringify(options)}`);
console.log('| system | K | cat 1-4 any@K | cat 1-4 all@K | cat 5 any@K | cat 5 all@K | n (1-4 / 5) | query p50 / p95 ms |\n|---|---|---|---|---|---|---|---|');
for (const s of SYSTEMS) {
  for (const k of KS) {
    const a = tally.get(`${s}|${k}|1-4`);
    const b = tally.get(`${s}|${k}|5`);
    const name = s === 'parley' ? (options ? 'Parley answerQuestion' : 'Parley POST /v1/query') : s === 'bm25' ? 'flat BM25 (turns)' : 'flat dense USE-lite (turns)';
    const ms = latency.get(`${s}|${k}`);
    console.log(`| ${name} | ${k} | ${pctOf(a, 'any')} | ${pctOf(a, 'all')} | ${pctOf(b, 'any')} | ${pctOf(b, 'all')} | ${a?.n ?? 0} / ${b?.n ?? 0} | ${quantile(ms, 0.5)} / ${quantile(ms, 0.95)} |`);
  }
}
const CATEGORIES = ['1 multi-hop', '2 temporal', '3 open-domain', '4 single-hop', '5 adversarial'];
console.log(`\nany@K per category\n| system | K | ${CATEGORIES.join(' | ')} |\n|---|---|${CATEGORIES.map(() => '---|').join('')}`);
for (const s of SYSTEMS) {
  for (const k of KS) console.log(`| ${s} | ${k} | ${CATEGORIES.map((_, c) => pctOf(tally.get(`${s}|${k}|c${c + 1}`), 'any')).join(' | ')} |`);
}
const meanRounds = rounds.reduce((a, b) => a + b, 0) / Math.max(1, rounds.length);
console.log(`\nParley agentic rounds per question: mean ${meanRounds.toFixed(2)}; latency columns: Parley = POST /v1/query round trip, baselines = bare store call`);
await app.close();
tmp?.remove();
