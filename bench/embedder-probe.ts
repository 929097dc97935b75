/**
 * Which text embedder finds LoCoMo evidence: dense-only retrieval over one conversation's turns,
 * USE-lite (the embedded default) against ONNX sentence encoders, in the same run, on conversations
 * 1–5 only (the dev split: conversations 6–10 are held out for the lead's decision and never read here).
 * Per question of categories 1–4: evidence any@5 / all@5 for flat dense search with each embedder,
 * flat BM25 (SQLite FTS5, the embedded lexical index) and each embedder fused with BM25 by RRF
 * (top 50 of each, k = 60); each figure with its 95 % bootstrap interval over questions and the paired
 * difference from USE-lite (dense) or from BM25 (fused). Also ms per text to embed the turns (one
 * ONNX thread, batches of 32; USE-lite in its worker, batches of 64) on this machine.
 * Run: npm run bench:embedder-probe [-- --models FILE] [--only N] [--questions N] [--speaker-names]
 * `--speaker-names` embeds each turn as "Speaker: text" (how a question naming a person can meet that person's turns).
 * Without --models it probes bge-small-en-v1.5 as `npm run models -- fetch bge-small-en-v1.5` installs it in MODELS_DIR.
 * FILE is a JSON array of `{ label, model, tokenizer, pooling: 'cls' | 'mean', queryPrefix?, passagePrefix?, maxTokens? }`
 * (paths to an .onnx file and its tokenizer.json), e.g. the files `npm run models -- fetch bge-small-en-v1.5` installs.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../graph/sqlite/database.js';
import { SqliteLexicalIndex } from '../graph/sqlite/sqlite-lexical-index.js';
import { OnnxSentenceModel, type Pooling } from '../pipelines/embeddings/onnx-sentence-model.js';
import { BGE_SMALL_EN, TEXT_MODEL_FILE, TEXT_TOKENIZER_FILE } from '../pipelines/embeddings/onnx-text-embedder.js';
import { installedPath } from '../pipelines/models/manifest.js';
import { modelsDir } from '../pipelines/models/repo-root.js';
import { UseLiteEmbedder } from '../pipelines/embeddings/use-lite-embedder.js';
import { reciprocalRankFusion } from '../pipelines/retrieval/rrf.js';
import { bootstrapDelta, bootstrapMean, pct } from './lib/bootstrap.js';
import { argNumber, argString } from './lib/cli.js';
import { loadLocomoTurns, sharedDataDir, type LocomoTurn } from './lib/locomo.js';
import type { LocomoQa } from './lib/locomo-systems.js';

/** One ONNX encoder to probe. */
interface ModelSpec {
  label: string; model: string; tokenizer: string; pooling: Pooling;
  /** Put before each question (e.g. BGE's retrieval instruction, E5's `query: `). */
  queryPrefix?: string;
  /** Put before each turn (E5's `passage: `). */
  passagePrefix?: string;
  maxTokens?: number;
}
interface Embed { label: string; embed: (texts: string[]) => Promise<Float32Array[]>; close: () => Promise<void>; queryPrefix: string; passagePrefix: string }

const K = 5;
const POOL = 50;
const modelsFile = argString('models', '');
/** Without --models: bge-small-en-v1.5 as `npm run models -- fetch bge-small-en-v1.5` installs it. */
const installed: ModelSpec = {
  label: BGE_SMALL_EN.name, pooling: BGE_SMALL_EN.pooling,
  model: installedPath(modelsDir(), BGE_SMALL_EN.name, TEXT_MODEL_FILE), tokenizer: installedPath(modelsDir(), BGE_SMALL_EN.name, TEXT_TOKENIZER_FILE),
};
const specs = modelsFile ? JSON.parse(readFileSync(modelsFile, 'utf8')) as ModelSpec[] : [installed];
if (!Array.isArray(specs)) throw new Error(`${modelsFile}: expected a JSON array of model specs`);
if (!modelsFile && !existsSync(installed.model)) {
  console.log(`SKIP: ${installed.model} not found (npm run models -- fetch ${BGE_SMALL_EN.name}, or pass --models FILE)`);
  process.exit(0);
}
/** `--speaker-names`: embed each turn as "Speaker: text" (BM25 stays over the bare text). */
const speakerNames = process.argv.includes('--speaker-names');
const byConv = loadLocomoTurns();
if (!byConv) process.exit(0);
// Dev split only: conversations 1–5 (the held-out 6–10 are never loaded into the probe).
const convs = [...byConv.keys()].slice(0, Math.min(5, argNumber('only', 5)));
const qas = readFileSync(path.join(sharedDataDir(), 'locomo', 'locomo_qa.jsonl'), 'utf8').split('\n').filter(Boolean)
  .map((l) => JSON.parse(l) as LocomoQa).filter((q) => convs.includes(q.conv_id) && q.category >= 1 && q.category <= 4)
  .slice(0, argNumber('questions', Infinity));

const embedders: Embed[] = [];
const useLite = new UseLiteEmbedder();
await useLite.start();
embedders.push({ label: 'USE-lite', embed: (t) => useLite.embed(t), close: () => useLite.close(), queryPrefix: '', passagePrefix: '' });
for (const s of specs) {
  const m = await OnnxSentenceModel.load({ modelPath: s.model, tokenizerPath: s.tokenizer, pooling: s.pooling, ...(s.maxTokens ? { maxTokens: s.maxTokens } : {}) });
  embedders.push({ label: s.label, embed: (t) => m.embed(t), close: () => m.close(), queryPrefix: s.queryPrefix ?? '', passagePrefix: s.passagePrefix ?? '' });
}

/** What ingestion stores as a turn's text (bench/retrieval-locomo.ts). */
const turnText = (t: LocomoTurn & { img_caption?: string }): string => (t.img_caption ? `${t.text} [shares a photo: ${t.img_caption}]` : t.text);
const turnsOf = new Map(convs.map((c) => [c, byConv.get(c)!]));
const allTurns = convs.flatMap((c) => turnsOf.get(c)!.map((t) => ({ conv: c, t })));

const lexical = new SqliteLexicalIndex(openDatabase(':memory:'));
for (const c of convs) await lexical.index(c, turnsOf.get(c)!.map((t) => ({ id: t.dia_id, text: turnText(t), layer: 'interaction' })));

// Embed every turn and question with every embedder; time the turns.
const turnVecs = new Map<string, Map<string, Float32Array[]>>();
const questionVecs = new Map<string, Float32Array[]>();
const msPerTurn = new Map<string, number>();
for (const e of embedders) {
  const t0 = performance.now();
  const vecs = await e.embed(allTurns.map(({ t }) => e.passagePrefix + (speakerNames ? `${t.speaker}: ` : '') + turnText(t)));
  msPerTurn.set(e.label, (performance.now() - t0) / allTurns.length);
  const byC = new Map<string, Float32Array[]>();
  allTurns.forEach(({ conv }, i) => {
    if (!byC.has(conv)) byC.set(conv, []);
    byC.get(conv)!.push(vecs[i]!);
  });
  turnVecs.set(e.label, byC);
  questionVecs.set(e.label, await e.embed(qas.map((q) => e.queryPrefix + q.question)));
  console.log(`embedded ${allTurns.length} turns with ${e.label}: ${msPerTurn.get(e.label)!.toFixed(1)} ms per turn`);
}

/** The `n` turns (dia_ids) of `conv` nearest to `qv` by cosine (all vectors have unit length). */
function dense(label: string, conv: string, qv: Float32Array, n: number): string[] {
  const vecs = turnVecs.get(label)!.get(conv)!;
  const turns = turnsOf.get(conv)!;
  const scored = vecs.map((v, i) => {
    let dot = 0;
    for (let k = 0; k < v.length; k++) dot += v[k]! * qv[k]!;
    return { id: turns[i]!.dia_id, dot };
  });
  return scored.sort((a, b) => b.dot - a.dot).slice(0, n).map((s) => s.id);
}

const systems = ['BM25', ...embedders.map((e) => `dense ${e.label}`), ...embedders.map((e) => `BM25+${e.label} RRF`)];
const any = new Map(systems.map((s) => [s, [] as number[]]));
const all = new Map(systems.map((s) => [s, [] as number[]]));
for (const [qi, q] of qas.entries()) {
  const ids = new Set(turnsOf.get(q.conv_id)!.map((t) => t.dia_id));
  const gold = q.evidence.filter((d) => ids.has(d));
  if (gold.length === 0) continue;
  const bm25 = (await lexical.search(q.conv_id, q.question, POOL, { layer: 'interaction' })).map((h) => h.id);
  const ranked = new Map<string, string[]>([['BM25', bm25.slice(0, K)]]);
  for (const e of embedders) {
    const d = dense(e.label, q.conv_id, questionVecs.get(e.label)![qi]!, POOL);
    ranked.set(`dense ${e.label}`, d.slice(0, K));
    ranked.set(`BM25+${e.label} RRF`, reciprocalRankFusion([{ ids: bm25 }, { ids: d }]).slice(0, K).map((r) => r.id));
  }
  for (const s of systems) {
    const top = new Set(ranked.get(s)!);
    any.get(s)!.push(gold.some((g) => top.has(g)) ? 1 : 0);
    all.get(s)!.push(gold.every((g) => top.has(g)) ? 1 : 0);
  }
}

const n = any.get('BM25')!.length;
console.log(`\nLoCoMo dev split (conversations ${convs.join(', ')}), turns embedded ${speakerNames ? 'as "Speaker: text"' : 'as their text'}, categories 1–4: ${n} questions; mean [95 % bootstrap interval over questions]`);
console.log(`${'system'.padEnd(34)} ${'any@5'.padEnd(22)} ${'all@5'.padEnd(22)} Δany@5 (paired)        Δall@5 (paired)        vs`);
for (const s of systems) {
  const ref = s.startsWith('dense ') ? 'dense USE-lite' : 'BM25';
  const delta = s === ref ? ['', ''] : [pct(bootstrapDelta(any.get(s)!, any.get(ref)!), true), pct(bootstrapDelta(all.get(s)!, all.get(ref)!), true)];
  console.log(`${s.padEnd(34)} ${pct(bootstrapMean(any.get(s)!)).padEnd(22)} ${pct(bootstrapMean(all.get(s)!)).padEnd(22)} ${delta[0]!.padEnd(22)} ${delta[1]!.padEnd(22)} ${s === ref ? '' : ref}`);
}
console.log(`\nms per turn to embed (${allTurns.length} turns): ${embedders.map((e) => `${e.label} ${msPerTurn.get(e.label)!.toFixed(1)}`).join(', ')}`);
for (const e of embedders) await e.close();
await lexical.close();
