/**
 * Retrieval quality on LoCoMo (../shared/data/locomo), measured so that figures are not fitted:
 * parameters are chosen on conversations 1–5 (`--split dev`) and every reported figure comes from
 * conversations 6–10 (`--split test`, the default). Every conversation of the split is ingested
 * through the HTTP API into its own tenant, consolidated by the server's own jobs (facts, vectors,
 * left brain), then every question is asked via POST /v1/query (k = 5). Side by side, in the same
 * run, over the same turns: Parley with the previous defaults (in-process, `PREVIOUS` options), Parley
 * before the answer layer (in-process, `BEFORE` options: turns only), flat BM25, BM25 over turns with the speaker's name
 * prepended, BM25 + dense (the configured text embedder) fused with RRF (k = 60), and flat dense.
 * Metrics per question: evidence any@5 / all@5 (gold dia_ids map to utterance ids by ingestion order;
 * an item's refer_ids count as its turns) and answer level: does the top item (ans@1) or one of the
 * top 3 (ans@3) state the gold answer (`bench/lib/answer-match.ts`; an item states what its text
 * and, for a fact, the source turn's words it carries in `source_text` state), and "ans@1 with date": the top item's
 * text with its `event_time` (a turn's date resolved against when it was said). Categories 1–4 together, 5
 * separately; each figure with its 95 % bootstrap interval over questions, and the paired difference
 * Parley − baseline with its interval. Also prints latency p50 / p95 (Parley: HTTP round trip).
 * Run: node dist/bench/retrieval-locomo.js [--split dev|test] [--skip N] [--only N] [--questions N] [--categories 1,2,3,4] [--store DIR] [--options JSON] [--ingest-only] [--data DIR [--dev-data]] [--dump FILE] [--variants FILE] [--misses FILE] [--now clock|last-turn] [--second-dense e5-small-v2-q] [--previous JSON] [--dated-kinds [--dated-only]]
 * `--only N` keeps the first N conversations of the split (after the first `--skip N`, left out: a slice, for parallel runs
 * over one store); `--questions N` the first N questions (smoke tests);
 * `--categories LIST` only the questions of those categories (comma-separated).
 * `--store DIR` keeps the ingested, consolidated stores in DIR; a later run with the same DIR and
 * split skips ingestion (for query-time changes only) and writes nothing to DIR: no job runs, and the
 * "speaker: turn" documents of the named BM25 baseline (`bench/lib/locomo-named.ts`, in every mode
 * written once ingestion is consolidated, before any question) are kept with the store, so several
 * runs may ask one store at once and a held-out store stays as built. A store ingested before those
 * documents were kept with it is refused until one `--ingest-only` run on it adds them; one built with
 * another text embedder is refused. `--ingest-only` ingests and consolidates into
 * `--store` and stops before any question is asked (so a held-out store can be built without looking). `--options '{"factItemWeight":1}'` asks
 * in-process through `answerQuestion` with those `AgenticOptions` instead of over HTTP (tuning: dev only).
 * `--data DIR` reads another set in LoCoMo's format from DIR (`turns.jsonl` and `qa.jsonl`, or the
 * `locomo_`-prefixed names; `addressee` may list several names separated by commas, or none); all its
 * conversations are asked (no split: such a set is for reporting, unless declared for development with `--dev-data`). A question's
 * optional `kind` ("who-said", …) gets its own any@5 table. `--dump FILE` appends one JSON line per
 * question (gold ids, every system's items and scores): for diagnosis on dev. `--variants FILE` (dev
 * split, or a `--data` set declared for development with `--dev-data`, which is refused when the set's
 * README.md calls it held out) asks Parley in-process with each named set of `AgenticOptions` in FILE (a JSON object,
 * name → options; the first is the reference) and prints one row per variant with paired
 * differences from the reference, then flat BM25 of the same run (no other baseline) and, where the set
 * has question kinds, any@5 / all@5 per kind: for choosing options on conversations 1–5 or a development set.
 * `--misses FILE` (dev split only, like `--variants`) writes, per question of categories 1–4, where each gold turn ranked in
 * Parley's answer (with `--options`, default the defaults), in flat BM25 and in flat dense, what filled the top 5, and a
 * miss category (`bench/lib/locomo-misses.ts`), then prints the table of categories: for diagnosing misses.
 * `--now last-turn` asks every Parley system in-process as of the day after the conversation's last turn
 * (LoCoMo's chats end in 2023: asked on the machine's clock, the default `--now clock`, "last year" names
 * a year with nothing in it); the baselines ignore time either way.
 * `--previous JSON` replaces the options of the "previous defaults" system (`PREVIOUS`): a same-run baseline of a change, held-out
 * split included. `--dated-kinds` gives each question the kind `dated` when it names a time (`timeScope`, as of when it is
 * asked) and `undated` otherwise, so the per-kind table shows the questions that name a period apart.
 * `PARLEY_TEXT_EMBEDDER` and `MODELS_DIR` in the environment choose the text embedder (default `auto`: bge-small-en-v1.5-q when installed, else USE-lite); a
 * `--store` keeps the vectors of the embedder it was built with (build a store per embedder).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pino } from 'pino';
import { drainConsolidation } from '../pipelines/memory/after-consolidation.js';
import { collectionFor } from '../pipelines/memory/collections.js';
import type { AgenticOptions } from '../pipelines/retrieval/agentic-query.js';
import { ParleyClient } from '../clients/typescript/src/index.js';
import { buildApp } from '../server/app.js';
import { MemoryEventBus } from '../graph/memory-event-bus.js';
import { loadConfig } from '../server/config.js';
import { tempDir } from '../test/helpers/temp-dir.js';
import { addresseesOf, declaredForDevelopment, loadLocomoTurns, locomoTime, sharedDataDir, type LocomoTurn } from './lib/locomo.js';
import { runLocomoQuestions, type LocomoDeps, type LocomoQa } from './lib/locomo-systems.js';
import { runLocomoMisses } from './lib/locomo-misses.js';
import { convsLackingNamedTurns, indexNamedTurns } from './lib/locomo-named.js';
import { runLocomoVariants } from './lib/locomo-variants.js';
import { timeScope } from '../pipelines/retrieval/time-scope.js';
import { convsLackingSecondDense, indexSecondDense, ingestedText } from './lib/locomo-second-dense.js';
import { OnnxTextEmbedder } from '../pipelines/embeddings/onnx-text-embedder.js';
import { E5_SMALL_V2_Q, e5Channel } from '../pipelines/retrieval/second-dense.js';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
// `--data DIR`: another set in LoCoMo's format (turns.jsonl + qa.jsonl, or locomo_turns.jsonl + locomo_qa.jsonl).
const data = arg('data');
const fileIn = (dir: string, name: string): string => (existsSync(path.join(dir, name)) ? path.join(dir, name) : path.join(dir, `locomo_${name}`));
const turnsFile = data ? fileIn(path.resolve(data), 'turns.jsonl') : path.join(sharedDataDir(), 'locomo', 'locomo_turns.jsonl');
const qaFile = data ? fileIn(path.resolve(data), 'qa.jsonl') : path.join(sharedDataDir(), 'locomo', 'locomo_qa.jsonl');
const byConv = loadLocomoTurns(turnsFile);
if (!byConv) process.exit(0);
const split = data ? 'all' : arg('split') ?? 'test';
if (split !== 'dev' && split !== 'test' && split !== 'all') throw new Error('--split is dev (conversations 1–5) or test (6–10)');
const skip = split === 'test' ? 5 : 0;
const most = split === 'all' ? byConv.size : 5;
// `--skip N` leaves out the split's first N conversations (with `--only`, a slice: parallel runs over one store).
const from = Math.min(most, Number(arg('skip') ?? 0));
const convs = [...byConv.keys()].slice(skip + from, skip + Math.min(most, from + Number(arg('only') ?? most)));
const nowMode = arg('now') ?? 'clock';
if (nowMode !== 'clock' && nowMode !== 'last-turn') throw new Error(`--now is clock or last-turn, got ${JSON.stringify(nowMode)}`);
const options = arg('options') === undefined ? null : JSON.parse(arg('options') as string) as AgenticOptions;
const qas = readFileSync(qaFile, 'utf8').split('\n').filter(Boolean)
  .map((l) => JSON.parse(l) as LocomoQa).filter((q) => convs.includes(q.conv_id))
  .filter((q) => arg('categories') === undefined || (arg('categories') as string).split(',').map(Number).includes(q.category))
  .slice(0, Number(arg('questions') ?? Infinity));

const tenantOf = (conv: string): string => conv.replace(/[^A-Za-z0-9_-]/g, '_');
const keyOf = (conv: string): string => `benchkey_${tenantOf(conv)}`;
const store = arg('store');
if (process.argv.includes('--ingest-only') && !store) throw new Error('--ingest-only needs --store DIR (where the ingested store is kept)');
const tmp = store ? null : tempDir('parley-locomo-');
const dataDir = store ? path.resolve(store) : tmp!.dir;
mkdirSync(dataDir, { recursive: true });
const idsFile = path.join(dataDir, 'locomo-ids.json');
const stored = store && existsSync(idsFile) ? JSON.parse(readFileSync(idsFile, 'utf8')) as { conversations: string[]; ids: Record<string, string> } : null;
if (stored && !convs.every((c) => stored.conversations.includes(c))) {
  console.error(`${dataDir} holds conversations ${stored.conversations.join(', ')}, not all of ${convs.join(', ')}: use another --store`);
  process.exit(1);
}
// `PARLEY_TEXT_EMBEDDER` (and `MODELS_DIR`) from the environment pick the text embedder, e.g. bge-small-en-v1.5.
const embedderEnv = Object.fromEntries((['PARLEY_TEXT_EMBEDDER', 'MODELS_DIR'] as const).flatMap((k) => (process.env[k] ? [[k, process.env[k]]] : [])));
// A kept store is consolidated already: no job runs (a job queue that runs jobs prunes old finished ones, a write).
const config = loadConfig({
  DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', PARLEY_API_KEYS: convs.map((c) => `${keyOf(c)}:${tenantOf(c)}`).join(','),
  PARLEY_RUN_JOBS: stored ? 'false' : 'true', ...embedderEnv,
});
// Asking a kept store writes nothing to its file: an in-process event bus (the file's registers its handles).
const app = await buildApp(config, { logger: pino({ level: 'silent' }), ...(stored ? { events: new MemoryEventBus() } : {}) });
console.log(`text embedder: ${app.retriever.embedder.space.model} (Parley's dense searches and the "flat dense" / "BM25 + dense" baselines use it)`);
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
/** The SDK clients: ingestion on a machine shared with other jobs may wait beyond the client's default 30 s for an answer. */
const clients = new Map(convs.map((c) => [c, new ParleyClient({ baseUrl: base, apiKey: keyOf(c), timeoutMs: 300_000 })] as const));
/** The SDK client of a conversation's tenant. */
const client = (conv: string): ParleyClient => clients.get(conv)!;

/** Ingest session by session; returns dia_id → utterance id (key `conv|dia_id`). */
async function ingest(): Promise<Map<string, string>> {
  const t0 = performance.now();
  const diaToUtt = new Map<string, string>();
  for (const conv of convs) {
    const mine = byConv!.get(conv) as (LocomoTurn & { img_caption?: string })[];
    for (const session of [...new Set(mine.map((t) => t.session))]) {
      const rows = mine.filter((t) => t.session === session);
      const speakersHere = [...new Set(rows.map((t) => t.speaker))];
      // A name already stored as a participant's own name is sent as that participant's id: consolidation
      // may give another participant the same name as an alias (then the bare name is ambiguous, HTTP 409).
      const idByName = new Map((await app.stores.graph.listParticipants(tenantOf(conv))).flatMap((p) => (p.name ? [[p.name, p.id] as const] : [])));
      const ref = (name: string): string => idByName.get(name) ?? name;
      const utterances = rows.map((t, i) => ({
        speaker: ref(t.speaker), addressees: addresseesOf(t, speakersHere).map(ref), time: locomoTime(t.session_date_time, 60 * i),
        text: ingestedText(t),
      }));
      const res = await client(conv).postUtterances(`${tenantOf(conv)}-s${session}`, utterances);
      rows.forEach((t, i) => diaToUtt.set(`${conv}|${t.dia_id}`, res.utterance_ids[i]!));
    }
  }
  const ingestMs = performance.now() - t0;
  await drainConsolidation(app.stores.queue, 3_600_000);
  const consolidateMs = performance.now() - t0 - ingestMs;
  console.log(`ingested ${diaToUtt.size} turns of ${convs.length} conversations in ${(ingestMs / 1000).toFixed(1)} s, consolidated in ${(consolidateMs / 1000).toFixed(1)} s`);
  return diaToUtt;
}

const ingestOnly = process.argv.includes('--ingest-only');
let diaToUtt: Map<string, string>;
if (stored) {
  diaToUtt = new Map(Object.entries(stored.ids));
  console.log(`reusing the ${diaToUtt.size} turns ingested in ${dataDir}`);
  const space = await app.stores.vectors.collectionSpace(collectionFor('interaction'));
  const want = app.retriever.embedder.space;
  if (space && (space.model !== want.model || space.dimension !== want.dimension)) {
    console.error(`${dataDir} holds vectors of ${space.model}, not of ${want.model}: build a store per embedder`);
    await app.close();
    process.exit(1);
  }
} else {
  diaToUtt = await ingest();
}
// The "speaker: turn" documents of the named BM25 baseline are written with the store, never while asking.
const named = { byConv: byConv as Map<string, LocomoTurn[]>, diaToUtt, tenantOf };
const lacking = convsLackingNamedTurns(app.stores.sqlite, named, convs);
if (lacking.length > 0 && stored && !ingestOnly) {
  console.error(`${dataDir} lacks the "speaker: turn" documents of ${lacking.join(', ')} (ingested before they were kept with the store): `
    + 'add them with one run of --ingest-only on it; asking never writes to a kept store');
  await app.close();
  process.exit(1);
}
if (lacking.length > 0) console.log(`indexed ${await indexNamedTurns(app.stores.lexical, named, lacking)} "speaker: turn" documents for the named BM25 baseline`);
// `--second-dense e5-small-v2-q`: the loop's second dense channel; its turn vectors are written with the store
// (`--ingest-only`, or an unkept store), never while asking a kept store.
let secondEmbedder: OnnxTextEmbedder | null = null;
if (arg('second-dense') !== undefined) {
  if (arg('second-dense') !== E5_SMALL_V2_Q.name) throw new Error(`--second-dense takes ${E5_SMALL_V2_Q.name}, got ${JSON.stringify(arg('second-dense'))}`);
  const e5 = new OnnxTextEmbedder({ spec: E5_SMALL_V2_Q, modelsDir: config.modelsDir });
  await e5.start();
  secondEmbedder = e5;
  app.retriever.secondDense = e5Channel(e5);
  const missing = await convsLackingSecondDense(app.stores.vectors, app.retriever.secondDense, named, convs);
  if (missing.length > 0 && stored && !ingestOnly) {
    console.error(`${dataDir} lacks the ${E5_SMALL_V2_Q.name} turn vectors of ${missing.join(', ')}: add them with one run of --ingest-only --second-dense on it`);
    await app.close();
    process.exit(1);
  }
  const t0 = performance.now();
  if (missing.length > 0) console.log(`embedded ${await indexSecondDense(app.stores.vectors, app.retriever.secondDense, named, missing)} turns with ${E5_SMALL_V2_Q.name} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
if (store && !stored) writeFileSync(idsFile, JSON.stringify({ conversations: convs, ids: Object.fromEntries(diaToUtt) }));

if (ingestOnly) {
  console.log(`--ingest-only: ${diaToUtt.size} turns stored in ${dataDir}; no question asked`);
  await app.close();
  process.exit(0);
}

const dump = arg('dump');
/** The day after each conversation's last turn (`--now last-turn`). */
const lastTurnNow = new Map(convs.map((conv) => {
  const last = Math.max(...(byConv.get(conv) ?? []).map((t) => Date.parse(locomoTime(t.session_date_time))));
  return [conv, new Date(last + 24 * 3600 * 1000)];
}));
const previous = arg('previous');
if (process.argv.includes('--dated-kinds')) {
  for (const q of qas) q.kind = timeScope(q.question, nowMode === 'last-turn' ? lastTurnNow.get(q.conv_id) as Date : new Date()) ? 'dated' : 'undated';
  // `--dated-only`: ask only the questions naming a time (an option acting only on them, e.g. `timeBoostMatch`).
  if (process.argv.includes('--dated-only')) qas.splice(0, qas.length, ...qas.filter((q) => q.kind === 'dated'));
}
const deps: LocomoDeps = {
  app, client, tenantOf, byConv: byConv as Map<string, LocomoTurn[]>, convs, diaToUtt, options, ...(dump ? { dump } : {}),
  ...(previous ? { previous: JSON.parse(previous) as AgenticOptions } : {}),
  ...(nowMode === 'last-turn' ? { nowOf: (conv: string) => lastTurnNow.get(conv) as Date } : {}),
};
const what = data ? `set ${path.basename(path.resolve(data))}, all ${convs.length} conversations` : `${split} split, conversations ${skip + 1}–${skip + convs.length}`;
const variants = arg('variants');
const misses = arg('misses');
if (misses) {
  if (split !== 'dev' && !(data && process.argv.includes('--dev-data') && declaredForDevelopment(path.resolve(data)))) {
    throw new Error('--misses is for diagnosis: dev split only, or a --data set declared for development with --dev-data');
  }
  await runLocomoMisses(deps, qas, options ?? {}, misses);
} else if (variants) {
  if (split !== 'dev' && !(data && process.argv.includes('--dev-data') && declaredForDevelopment(path.resolve(data)))) {
    throw new Error('--variants is for choosing options: dev split only, or a --data set declared for development with --dev-data (whose README does not call it held out)');
  }
  await runLocomoVariants(deps, qas, JSON.parse(readFileSync(variants, 'utf8')) as Record<string, AgenticOptions>, `${what} (${convs.join(', ')})`);
} else await runLocomoQuestions(deps, qas, `${what} (${convs.join(', ')})`);
await app.close();
await secondEmbedder?.close();
tmp?.remove();
