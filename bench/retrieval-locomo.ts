/**
 * Retrieval quality on LoCoMo (../shared/data/locomo): every conversation is ingested through the
 * HTTP API into its own tenant (one API key each), consolidated by the server's own jobs (facts,
 * vectors, left brain), then every question is asked via POST /v1/query with k = 5 and 10. Reports
 * evidence recall any@K / all@K for categories 1–4 together and 5 separately, side by side with flat
 * BM25 and flat dense (USE-lite) top-K over the same turns, measured in the same run.
 * Gold dia_ids map to utterance ids by ingestion order; a fact's refer_ids count as its turns.
 * Also prints per-query latency p50 / p95 (Parley: HTTP round trip incl. the agentic rounds; the
 * baselines: the bare store call, no HTTP) and the mean number of agentic rounds.
 * Run: node dist/bench/retrieval-locomo.js [--conversations N]
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pino } from 'pino';
import { collectionFor } from '../pipelines/memory/collections.js';
import { CONSOLIDATION_JOB } from '../pipelines/memory/consolidate.js';
import { repoRoot } from '../pipelines/models/repo-root.js';
import type { MemoryItem } from '../server/protocol/server-events.js';
import { buildApp } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { tempDir } from '../test/helpers/temp-dir.js';

interface Turn { conv_id: string; session: number; session_date_time: string; dia_id: string; speaker: string; addressee: string; text: string; img_caption?: string }
interface Qa { conv_id: string; question: string; category: number; evidence: string[] }

const dataDir = process.env.PARLEY_SHARED_DATA ?? path.resolve(repoRoot(), '../shared/data');
const turnsFile = path.join(dataDir, 'locomo', 'locomo_turns.jsonl');
if (!existsSync(turnsFile)) {
  console.log(`skipped: ${turnsFile} not found (set PARLEY_SHARED_DATA)`);
  process.exit(0);
}
const readJsonl = <T>(file: string): T[] => readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as T);
const ci = process.argv.indexOf('--conversations');
const limit = ci >= 0 ? Number(process.argv[ci + 1]) : Infinity;
const turns = readJsonl<Turn>(turnsFile);
const convs = [...new Set(turns.map((t) => t.conv_id))].slice(0, limit);
const qas = readJsonl<Qa>(path.join(dataDir, 'locomo', 'locomo_qa.jsonl')).filter((q) => convs.includes(q.conv_id));

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
/** "1:56 pm on 8 May, 2023" → ISO. */
function parseTime(s: string, offsetMin: number): string {
  const m = /(\d+):(\d+)\s*(am|pm)\s+on\s+(\d+)\s+(\w+),?\s+(\d{4})/i.exec(s);
  if (!m) return new Date(Date.UTC(2023, 0, 1) + offsetMin * 60_000).toISOString();
  const hour = (Number(m[1]) % 12) + (m[3]!.toLowerCase() === 'pm' ? 12 : 0);
  return new Date(Date.UTC(Number(m[6]), MONTHS.indexOf(m[5]!.toLowerCase()), Number(m[4]), hour, Number(m[2]) + offsetMin)).toISOString();
}

const tenantOf = (conv: string): string => conv.replace(/[^A-Za-z0-9_-]/g, '_');
const keyOf = (conv: string): string => `benchkey_${tenantOf(conv)}`;
const tmp = tempDir('parley-locomo-');
const config = loadConfig({
  DATA_DIR: tmp.dir, PORT: '0', LOG_LEVEL: 'silent', PARLEY_API_KEYS: convs.map((c) => `${keyOf(c)}:${tenantOf(c)}`).join(','),
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

// Ingest, session by session, keeping dia_id → utterance id.
const t0 = performance.now();
const diaToUtt = new Map<string, string>();
for (const conv of convs) {
  const mine = turns.filter((t) => t.conv_id === conv);
  for (const session of [...new Set(mine.map((t) => t.session))]) {
    const rows = mine.filter((t) => t.session === session);
    const body = { utterances: rows.map((t, i) => ({
      speaker: t.speaker, addressees: [t.addressee], time: parseTime(t.session_date_time, i),
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
        const answer = (await post(q.conv_id, '/v1/query', { question: q.question, k })) as { evidence: MemoryItem[]; rounds: number };
        rounds.push(answer.rounds);
        return answer.evidence.flatMap((i) => i.refer_ids);
      }),
      bm25: await timed('bm25', async () => (await app.stores.lexical.search(tenant, q.question, k, { layer: 'interaction' })).map((h) => h.id)),
      dense: await timed('dense', async () => (await app.stores.vectors.search(tenant, collectionFor('interaction'), vector, k)).map((h) => h.id)),
    };
    for (const s of SYSTEMS) {
      const found = new Set(got[s]);
      bump(`${s}|${k}|${group}`, gold.some((g) => found.has(g)), gold.every((g) => found.has(g)));
    }
  }
}
const askMs = performance.now() - t1;
const pctOf = (t: Tally | undefined, f: 'any' | 'all'): string => (t && t.n > 0 ? `${((100 * t[f]) / t.n).toFixed(1)} %` : 'n/a');
console.log(`\nLoCoMo evidence recall, ${convs.length} conversation(s), ${qas.length} questions (asked in ${(askMs / 1000).toFixed(1)} s)`);
console.log('| system | K | cat 1-4 any@K | cat 1-4 all@K | cat 5 any@K | cat 5 all@K | n (1-4 / 5) | query p50 / p95 ms |\n|---|---|---|---|---|---|---|---|');
for (const s of SYSTEMS) {
  for (const k of KS) {
    const a = tally.get(`${s}|${k}|1-4`);
    const b = tally.get(`${s}|${k}|5`);
    const name = s === 'parley' ? 'Parley POST /v1/query' : s === 'bm25' ? 'flat BM25 (turns)' : 'flat dense USE-lite (turns)';
    const ms = latency.get(`${s}|${k}`);
    console.log(`| ${name} | ${k} | ${pctOf(a, 'any')} | ${pctOf(a, 'all')} | ${pctOf(b, 'any')} | ${pctOf(b, 'all')} | ${a?.n ?? 0} / ${b?.n ?? 0} | ${quantile(ms, 0.5)} / ${quantile(ms, 0.95)} |`);
  }
}
const meanRounds = rounds.reduce((a, b) => a + b, 0) / Math.max(1, rounds.length);
console.log(`\nParley agentic rounds per question: mean ${meanRounds.toFixed(2)}; latency columns: Parley = POST /v1/query round trip, baselines = bare store call`);
await app.close();
tmp.remove();
