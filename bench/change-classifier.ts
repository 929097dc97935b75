/**
 * Changes of mind decided by a model learned from the labelled pairs, beside the rules (issue #16 item 3).
 * Each pair's stored statement `a` and new statement `b` are embedded with the shipped text embedder (default
 * bge-small-en-v1.5-q; vectors cached in a JSON file under /tmp); a pair becomes a feature row (bench/lib/pair-features.ts)
 * and a multinomial logistic regression (bench/lib/softmax-regression.ts) or a cosine kNN over the training rows
 * says UPDATE / DELETE / KEEP / ADD. The classifier judges `a` against `b` only: a pair's `others` are not read.
 *
 * Training data: bench/data/changes.jsonl, closures.jsonl and closures-2 … closures-13.jsonl. The feature set and the
 * L2 weight (and the kNN arm's k) are chosen by cross-validation grouped by file (a file's pairs are never both train
 * and test); the CV accuracy of the chosen setting is slightly optimistic for that choice.
 * With `--report` (once) the chosen model, trained on every training pair, decides bench/data/closures-14.jsonl; the
 * same run puts the rules (this build's consolidation, as bench/memory-changes.ts runs them, with USE-lite as that
 * bench does by default) and the training set's majority class beside it: accuracy with a 95 % bootstrap interval,
 * per-class precision / recall, confusion matrices, and paired differences with their intervals.
 *
 * `--arms logreg:SET:L2,knn:SET:K` runs only those two arms (the ones a full grid run chose), so `--report` need not
 * repeat the grid.
 *
 *   npm run build && node dist/bench/change-classifier.js [--embedder NAME] [--rules-embedder NAME] [--iterations N]
 *     [--cache FILE] [--arms logreg:SET:L2,knn:SET:K] [--report] [--show]
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../pipelines/models/repo-root.js';
import { benchEmbedder } from './lib/bench-embedders.js';
import { bootstrapDelta, bootstrapMean } from './lib/bootstrap.js';
import { loadPairs, OPS, right, runPairs, type Pair } from './lib/change-pairs.js';
import { argNumber, argString } from './lib/cli.js';
import { thisBuild } from './lib/memory-build.js';
import { confusion, knnPredict, perClassRows } from './lib/pair-features.js';
import { FEATURE_SETS, pairFeatures, type FeatureSet } from '../pipelines/memory/pair-features.js';
import { softmaxPredict, trainSoftmax } from '../pipelines/memory/softmax-regression.js';

const TRAIN_FILES = ['changes.jsonl', 'closures.jsonl', ...Array.from({ length: 12 }, (_, i) => `closures-${i + 2}.jsonl`)];
const REPORT_FILE = 'closures-14.jsonl';
const L2_GRID = [0.01, 0.1, 1, 10];
const K_GRID = [1, 5, 15];

interface Row { pair: Pair; file: string; a: Float32Array; b: Float32Array }

/** Vectors of every text, from the cache file where present; new ones are embedded and the cache rewritten. */
async function embedAll(texts: string[], embedderName: string, cacheFile: string): Promise<Map<string, Float32Array>> {
  const cache: Record<string, number[]> = existsSync(cacheFile) ? JSON.parse(readFileSync(cacheFile, 'utf8')) as Record<string, number[]> : {};
  const missing = [...new Set(texts)].filter((t) => !cache[t]);
  if (missing.length > 0) {
    const embedder = benchEmbedder(embedderName);
    for (let i = 0; i < missing.length; i += 32) {
      const chunk = missing.slice(i, i + 32);
      const vectors = await embedder.embed(chunk);
      chunk.forEach((t, j) => { cache[t] = Array.from(vectors[j]!); });
    }
    await embedder.close();
    writeFileSync(cacheFile, JSON.stringify(cache));
  }
  console.log(`embeddings: ${new Set(texts).size} texts, ${missing.length} embedded now, the rest from ${cacheFile}`);
  return new Map(texts.map((t) => [t, Float32Array.from(cache[t]!)]));
}

const label = (p: Pair): number => OPS.indexOf(p.expect);
const features = (set: FeatureSet, rows: Row[]): Float64Array[] => rows.map((r) => pairFeatures(set, r.a, r.b, r.pair.b.by === 'other'));

type Arm = { kind: 'logreg'; set: FeatureSet; l2: number } | { kind: 'knn'; set: FeatureSet; k: number };
const armName = (arm: Arm): string => (arm.kind === 'logreg' ? `logreg ${arm.set} l2=${arm.l2}` : `kNN ${arm.set} k=${arm.k}`);

/**
 * `--arms logreg:SET:L2,knn:SET:K`: only these arms (one of each kind), as chosen by an earlier full grid run, so a
 * `--report` run does not repeat the grid; anything else throws.
 */
function parseArms(spec: string): Arm[] {
  const arms = spec.split(',').map((part): Arm => {
    const [kind, set, value] = part.split(':');
    const v = Number(value);
    if (!FEATURE_SETS.includes(set as FeatureSet) || !Number.isFinite(v) || (kind !== 'logreg' && kind !== 'knn')) {
      throw new Error(`--arms: ${JSON.stringify(part)} is not logreg:SET:L2 or knn:SET:K with SET in ${FEATURE_SETS.join(' / ')}`);
    }
    return kind === 'logreg' ? { kind, set: set as FeatureSet, l2: v } : { kind, set: set as FeatureSet, k: v };
  });
  if (!arms.some((a) => a.kind === 'logreg') || !arms.some((a) => a.kind === 'knn')) throw new Error('--arms needs one logreg and one knn arm');
  return arms;
}

/** Predictions of `arm` trained on `train` for `test`. */
function predict(arm: Arm, train: Row[], test: Row[], iterations: number): number[] {
  const x = features(arm.set, train);
  const y = train.map((r) => label(r.pair));
  const q = features(arm.set, test);
  if (arm.kind === 'knn') return knnPredict(x, y, OPS.length, arm.k, q);
  const model = trainSoftmax(x, y, OPS.length, { l2: arm.l2, iterations });
  return q.map((row) => softmaxPredict(model, row));
}

/** Out-of-fold predictions, one fold per training file. */
function groupedCv(arm: Arm, rows: Row[], iterations: number): number[] {
  const out = new Array<number>(rows.length).fill(-1);
  for (const file of TRAIN_FILES) {
    const testIdx = rows.flatMap((r, i) => (r.file === file ? [i] : []));
    const got = predict(arm, rows.filter((r) => r.file !== file), testIdx.map((i) => rows[i]!), iterations);
    testIdx.forEach((i, j) => { out[i] = got[j]!; });
  }
  return out;
}

/** Accuracy with its interval, per-class table and (optionally) confusion matrix; returns the per-pair hits (or `given`). */
function printScores(title: string, expected: number[], predicted: number[], withMatrix: boolean, given?: number[]): number[] {
  const hits = given ?? expected.map((e, i) => (e === predicted[i] ? 1 : 0));
  const ci = bootstrapMean(hits);
  console.log(`\n${title}: ${hits.length} pairs, accuracy ${ci.mean.toFixed(2)} (95 % bootstrap ${ci.lo.toFixed(2)}–${ci.hi.toFixed(2)})`);
  const m = confusion(expected, predicted, OPS.length);
  console.log('| decision | expected | predicted | correct | precision | recall |\n|---|---|---|---|---|---|');
  for (const line of perClassRows(m, OPS)) console.log(line);
  if (withMatrix) {
    console.log(`\nconfusion (rows expected, columns predicted)\n| | ${OPS.join(' | ')} |\n|---|${OPS.map(() => '---|').join('')}`);
    m.forEach((row, k) => console.log(`| ${OPS[k]} | ${row.join(' | ')} |`));
  }
  return hits;
}

function printDelta(title: string, a: number[], b: number[]): void {
  const d = bootstrapDelta(a, b);
  const gained = a.filter((v, i) => v > b[i]!).length;
  const lost = a.filter((v, i) => v < b[i]!).length;
  console.log(`${title}: ${d.mean >= 0 ? '+' : ''}${d.mean.toFixed(2)} (95 % bootstrap ${d.lo.toFixed(2)} to ${d.hi.toFixed(2)}), ${gained} pairs gained, ${lost} lost`);
}

async function main(): Promise<void> {
  const dataDir = path.join(repoRoot(), 'bench', 'data');
  const iterations = argNumber('iterations', 300);
  const embedderName = argString('embedder', 'bge-small-en-v1.5-q');
  const cacheFile = argString('cache', `/tmp/parley-change-classifier-${embedderName}.json`);
  const trainPairs = TRAIN_FILES.flatMap((file) => loadPairs(path.join(dataDir, file)).map((pair) => ({ pair, file })));
  const reportPairs = process.argv.includes('--report') ? loadPairs(path.join(dataDir, REPORT_FILE)) : [];
  const texts = [...trainPairs.map((t) => t.pair), ...reportPairs].flatMap((p) => [p.a.text, p.b.text]);
  const vectors = await embedAll(texts, embedderName, cacheFile);
  const toRow = (pair: Pair, file: string): Row => ({ pair, file, a: vectors.get(pair.a.text)!, b: vectors.get(pair.b.text)! });
  const rows = trainPairs.map(({ pair, file }) => toRow(pair, file));
  const y = rows.map((r) => label(r.pair));
  console.log(`training: ${rows.length} pairs in ${TRAIN_FILES.length} files (${OPS.map((op) => `${op} ${y.filter((v) => OPS[v] === op).length}`).join(', ')}); embedder ${embedderName}; ${iterations} gradient steps`);

  const arms: Arm[] = argString('arms', '') ? parseArms(argString('arms', '')) : [
    ...FEATURE_SETS.flatMap((set) => L2_GRID.map((l2): Arm => ({ kind: 'logreg', set, l2 }))),
    ...FEATURE_SETS.flatMap((set) => K_GRID.map((k): Arm => ({ kind: 'knn', set, k }))),
  ];
  console.log('\ngrouped CV (one fold per file), accuracy over all training pairs:\n| arm | accuracy |\n|---|---|');
  const cv = new Map<Arm, number[]>();
  for (const arm of arms) {
    const got = groupedCv(arm, rows, iterations);
    cv.set(arm, got);
    console.log(`| ${armName(arm)} | ${(got.filter((g, i) => g === y[i]).length / rows.length).toFixed(3)} |`);
  }
  const best = (kind: Arm['kind']): Arm => arms.filter((a) => a.kind === kind)
    .reduce((p, q) => (cv.get(q)!.filter((g, i) => g === y[i]).length > cv.get(p)!.filter((g, i) => g === y[i]).length ? q : p));
  const chosen = [best('logreg'), best('knn')];
  const majority = OPS.map((_, k) => y.filter((v) => v === k).length).reduce((bi, c, k, all) => (c > all[bi]! ? k : bi), 0);
  for (const arm of chosen) printScores(`grouped CV, chosen ${armName(arm)}`, y, cv.get(arm)!, true);
  printScores(`grouped CV, majority class (${OPS[majority]})`, y, y.map(() => majority), false);
  if (reportPairs.length === 0) return;

  const test = reportPairs.map((p) => toRow(p, REPORT_FILE));
  const ty = test.map((r) => label(r.pair));
  console.log(`\n=== report set ${REPORT_FILE}: ${test.length} pairs, decided once ===`);
  const preds = chosen.map((arm) => predict(arm, rows, test, iterations));
  const hits = chosen.map((arm, i) => printScores(`${armName(arm)} trained on all ${rows.length} training pairs`, ty, preds[i]!, true));
  const rulesEmbedder = benchEmbedder(argString('rules-embedder', 'use-lite'));
  const rules = await runPairs(thisBuild, rulesEmbedder, reportPairs, true);
  await rulesEmbedder.close();
  const wrongTarget = rules.filter((r) => r.othersClosed).length;
  const rulesHits = printScores(`rules (this build, ${argString('rules-embedder', 'use-lite')}; ${wrongTarget} pairs closed another plan and count wrong)`,
    ty, rules.map((r) => OPS.indexOf(r.got)), true, rules.map((r) => (right(r) ? 1 : 0)));
  const majHits = printScores(`majority class of training (${OPS[majority]})`, ty, ty.map(() => majority), false);
  console.log('');
  chosen.forEach((arm, i) => {
    printDelta(`paired ${armName(arm)} − rules`, hits[i]!, rulesHits);
    printDelta(`paired ${armName(arm)} − majority`, hits[i]!, majHits);
  });
  if (process.argv.includes('--show')) {
    console.log('\nper pair: id expected | logreg | kNN | rules');
    test.forEach((r, i) => console.log(`  ${r.pair.id} ${r.pair.expect} | ${OPS[preds[0]![i]!]} | ${OPS[preds[1]![i]!]} | ${rules[i]!.got}${rules[i]!.othersClosed ? ' (closed another plan)' : ''} — "${r.pair.b.text}"`));
  }
}

await main();
