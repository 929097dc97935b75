/**
 * Issue #16 item 5: what running each text alone costs against padded batches, and whether a text's
 * vector depends on its batch. For each installed ONNX text model (bge-small-en-v1.5-q, the `auto`
 * embedder, and bge-small-en-v1.5 when fetched), in one thread with one intra-op thread: round r embeds
 * the same 64 LoCoMo turns (conversation 1, dev) with `batching: 'padded'` (up to 32 texts of similar
 * length per padded batch, the old way) and with `batching: 'alone'` (the default), interleaved so load
 * from other processes falls on both alike. Reports turns per second (median over rounds, with the
 * per-round paired ratio's median and 95 % bootstrap interval), and how many turns' padded vectors differ
 * from their vectors alone (largest component difference, lowest cosine), and the same for 'alone' run
 * twice in different orders (must be 0).
 * Run: node dist/bench/text-embed-batching.js [--rounds N]
 */
import { OnnxSentenceModel } from '../pipelines/embeddings/onnx-sentence-model.js';
import { ONNX_TEXT_MODELS, TEXT_MODEL_FILE, TEXT_TOKENIZER_FILE } from '../pipelines/embeddings/onnx-text-embedder.js';
import { textModelInstalled } from '../pipelines/embeddings/text-embedder-choice.js';
import { installedPath } from '../pipelines/models/manifest.js';
import { modelsDir } from '../pipelines/models/repo-root.js';
import { bootstrapMean } from './lib/bootstrap.js';
import { argNumber } from './lib/cli.js';
import { loadLocomoTurns, percentile } from './lib/locomo.js';

const BATCH = 64;
const specs = Object.values(ONNX_TEXT_MODELS).filter((s) => textModelInstalled(modelsDir(), s.name));
if (specs.length === 0) {
  console.log(`SKIP: no ONNX text model installed in ${modelsDir()} (npm run models -- fetch bge-small-en-v1.5-q)`);
  process.exit(0);
}
const byConv = loadLocomoTurns();
if (!byConv) process.exit(0);
const turns = [...byConv.values()][0]!.map((t) => t.text);
const rounds = Math.min(argNumber('rounds', 6), Math.floor(turns.length / BATCH));

/** How many of `a`'s vectors differ from `b`'s, the largest component difference and the lowest cosine. */
function compare(a: Float32Array[], b: Float32Array[]): { differ: number; maxAbs: number; minCos: number } {
  let differ = 0;
  let maxAbs = 0;
  let minCos = 1;
  a.forEach((v, i) => {
    let cos = 0;
    let d = 0;
    v.forEach((x, k) => { cos += x * b[i]![k]!; d = Math.max(d, Math.abs(x - b[i]![k]!)); });
    if (d > 0) differ++;
    maxAbs = Math.max(maxAbs, d);
    minCos = Math.min(minCos, cos);
  });
  return { differ, maxAbs, minCos };
}

for (const spec of specs) {
  const files = { modelPath: installedPath(modelsDir(), spec.name, TEXT_MODEL_FILE), tokenizerPath: installedPath(modelsDir(), spec.name, TEXT_TOKENIZER_FILE), pooling: spec.pooling };
  const padded = await OnnxSentenceModel.load({ ...files, batching: 'padded' });
  const alone = await OnnxSentenceModel.load({ ...files, batching: 'alone' });
  await padded.embed(turns.slice(0, 8));
  await alone.embed(turns.slice(0, 8)); // warm up
  const rate = { padded: [] as number[], alone: [] as number[] };
  const ratios: number[] = [];
  const all = { padded: [] as Float32Array[], alone: [] as Float32Array[] };
  for (let r = 0; r < rounds; r++) {
    const batch = turns.slice(r * BATCH, (r + 1) * BATCH);
    const timed = async (m: OnnxSentenceModel): Promise<[Float32Array[], number]> => {
      const t0 = performance.now();
      const v = await m.embed(batch);
      return [v, batch.length / ((performance.now() - t0) / 1000)];
    };
    // Alternate which goes first, so a load change within a round falls on both.
    let p: [Float32Array[], number];
    let a: [Float32Array[], number];
    if (r % 2 === 0) {
      p = await timed(padded);
      a = await timed(alone);
    } else {
      a = await timed(alone);
      p = await timed(padded);
    }
    const [pv, pr] = p;
    const [av, ar] = a;
    rate.padded.push(pr);
    rate.alone.push(ar);
    ratios.push(ar / pr);
    all.padded.push(...pv);
    all.alone.push(...av);
  }
  const n = rounds * BATCH;
  const texts = turns.slice(0, n);
  // 'alone' again in reverse order and in other batches: every vector must be the same bit for bit.
  const again = (await alone.embed([...texts].reverse())).reverse();
  const ci = bootstrapMean(ratios);
  console.log(`${spec.name}: ${rounds} interleaved rounds of ${BATCH} LoCoMo turns (conversation 1), one thread`);
  console.log(`  turns/s median: padded ${percentile(rate.padded, 50).toFixed(1)}, alone ${percentile(rate.alone, 50).toFixed(1)}; `
    + `alone/padded per round: median ${percentile(ratios, 50).toFixed(3)}, mean ${ci.mean.toFixed(3)} (95 % CI ${ci.lo.toFixed(3)}–${ci.hi.toFixed(3)})`);
  const pa = compare(all.padded, all.alone);
  const aa = compare(again, all.alone);
  console.log(`  padded vs alone: ${pa.differ}/${n} vectors differ (max |Δ| ${pa.maxAbs.toExponential(2)}, min cosine ${pa.minCos.toFixed(6)})`);
  console.log(`  alone vs alone in another order: ${aa.differ}/${n} vectors differ (max |Δ| ${aa.maxAbs.toExponential(2)})`);
  await padded.close();
  await alone.close();
}
