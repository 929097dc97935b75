/**
 * How long each text embedder takes per LoCoMo turn on this machine, measured interleaved (round r
 * embeds the same 64 turns with every embedder in turn) so load from other processes falls on all of
 * them alike. USE-lite runs in its worker; each ONNX encoder in-thread with one intra-op thread.
 * Reports the median and the total over rounds, ms per turn. Turns come from conversation 1 (dev).
 * Run: npm run bench:embedder-speed [-- --models FILE] [--rounds N]
 * FILE as for bench/embedder-probe.ts (default: bge-small-en-v1.5 as `models fetch` installs it).
 */
import { existsSync, readFileSync } from 'node:fs';
import { OnnxSentenceModel, type Pooling } from '../pipelines/embeddings/onnx-sentence-model.js';
import { BGE_SMALL_EN, TEXT_MODEL_FILE, TEXT_TOKENIZER_FILE } from '../pipelines/embeddings/onnx-text-embedder.js';
import { UseLiteEmbedder } from '../pipelines/embeddings/use-lite-embedder.js';
import { installedPath } from '../pipelines/models/manifest.js';
import { modelsDir } from '../pipelines/models/repo-root.js';
import { argNumber, argString } from './lib/cli.js';
import { loadLocomoTurns, percentile } from './lib/locomo.js';

interface ModelSpec { label: string; model: string; tokenizer: string; pooling: Pooling }

const BATCH = 64;
const modelsFile = argString('models', '');
const specs: ModelSpec[] = modelsFile ? JSON.parse(readFileSync(modelsFile, 'utf8')) as ModelSpec[] : [{
  label: BGE_SMALL_EN.name, pooling: BGE_SMALL_EN.pooling,
  model: installedPath(modelsDir(), BGE_SMALL_EN.name, TEXT_MODEL_FILE), tokenizer: installedPath(modelsDir(), BGE_SMALL_EN.name, TEXT_TOKENIZER_FILE),
}];
const missing = specs.filter((s) => !existsSync(s.model));
if (missing.length > 0) {
  console.log(`SKIP: ${missing.map((s) => s.model).join(', ')} not found (npm run models -- fetch ${BGE_SMALL_EN.name}, or pass --models FILE)`);
  process.exit(0);
}
const byConv = loadLocomoTurns();
if (!byConv) process.exit(0);
const turns = [...byConv.values()][0]!.map((t) => t.text);
const rounds = Math.min(argNumber('rounds', 6), Math.floor(turns.length / BATCH));

const useLite = new UseLiteEmbedder();
await useLite.start();
const embedders: { label: string; embed: (t: string[]) => Promise<Float32Array[]>; close: () => Promise<void> }[] = [
  { label: 'USE-lite (worker)', embed: (t) => useLite.embed(t), close: () => useLite.close() },
];
for (const s of specs) {
  const m = await OnnxSentenceModel.load({ modelPath: s.model, tokenizerPath: s.tokenizer, pooling: s.pooling });
  embedders.push({ label: s.label, embed: (t) => m.embed(t), close: () => m.close() });
}
for (const e of embedders) await e.embed(turns.slice(0, 8)); // warm up
const perTurn = new Map(embedders.map((e) => [e.label, [] as number[]]));
for (let r = 0; r < rounds; r++) {
  const batch = turns.slice(r * BATCH, (r + 1) * BATCH);
  for (const e of embedders) {
    const t0 = performance.now();
    await e.embed(batch);
    perTurn.get(e.label)!.push((performance.now() - t0) / batch.length);
  }
}
console.log(`${rounds} interleaved rounds of ${BATCH} LoCoMo turns (conversation 1); ms per turn`);
for (const e of embedders) {
  const v = perTurn.get(e.label)!;
  console.log(`${e.label.padEnd(28)} median ${percentile(v, 50).toFixed(1).padStart(6)}   mean ${(v.reduce((a, b) => a + b, 0) / v.length).toFixed(1).padStart(6)}`);
}
for (const e of embedders) await e.close();
