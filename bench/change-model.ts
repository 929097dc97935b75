/**
 * Trains the learned change model consolidation may run after its rules (`PARLEY_CHANGE_CLASSIFIER`,
 * pipelines/memory/learned-change.ts, issue #16) and writes it to pipelines/memory/params/<embedder>-change.json.
 *
 * Two kinds of rows, both as the model meets them in production (the stored fact's content, the new fact's content and
 * the by-other flag, embedded by the model's embedder):
 * - every labelled pair of bench/data/changes.jsonl, closures.jsonl and closures-2 … closures-15.jsonl, through this
 *   build's real consolidation with its rules alone (bench/memory-changes.ts); of each statement's facts, the pair
 *   nearest in meaning; pairs where a statement gave no fact train nothing;
 * - every fact the rules add beside a current fact in the scripted conversations (bench/data/scenarios*.jsonl, but
 *   `RESERVED`), with its subject's nearest current fact, under the conditions
 *   the model is asked in (`weighable`, `scenarioRows`): ADD unless the file labels the turn as closing that very fact. Without
 *   them the model learns ADD only from look-alike pairs and closes a tenth of ordinary turns' neighbours.
 *
 * The regression's feature set and L2 weight come from `--arms` (default `ab+interact` at 0.01, the arm the grid of
 * bench/change-classifier.ts chose). Its two bars (the probability `cut` an answer naming a change needs, the cosine
 * `floor` the two facts need) are chosen by cross-validation grouped by file (a file's rows are never both train and
 * test). For each setting: the accuracy of rules + model on the pairs (the rules' decision where they found a change,
 * else the model's where it names one above both bars, else ADD), and the stray closures per 100 scenario turns (ADD rows
 * the model would close). This build's rules were fitted to every pair file, so beside them any model looks useless; the
 * files an independent author wrote blind are therefore decided by the rules as they stood when each was first run
 * (`--blind FILE=DIST,…`: that build's dist/, e.g. closures-14.jsonl=<2425478>/dist), and the accuracy that chooses is on
 * those files alone. Chosen: the best such accuracy with at most `STRAY_BOUND` stray closure per 100 scenario turns
 * (ties: the higher bars); none within the bound: the fewest strays, said so. The figures are printed and recorded in
 * the file (slightly optimistic for the choice; the never-run blind sets are the measure). The final model is trained on
 * every row.
 *
 *   npm run build && node dist/bench/change-model.js [--embedder NAME] [--arms logreg:SET:L2] [--iterations N] [--out FILE]
 *     [--blind FILE=DIST,…] [--dry-run]
 */
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../pipelines/models/repo-root.js';
import { CHANGE_CLASSES, CHANGE_MODEL_FORMAT, changeModelPath, featureWidth, weighable, type ChangeModelFile } from '../pipelines/memory/learned-change.js';
import { hybridRight, parseArm } from './lib/change-model-cv.js';
import { EMBEDDED_RULES_VERSION } from '../pipelines/memory/embedded-rules-version.js';
import { pairFeatures, type FactShape } from '../pipelines/memory/pair-features.js';
import { softmaxProbabilities, trainSoftmax } from '../pipelines/memory/softmax-regression.js';
import { benchEmbedder } from './lib/bench-embedders.js';
import { bootstrapDelta, bootstrapMean } from './lib/bootstrap.js';
import { loadPairs, right, runPairs, type Result } from './lib/change-pairs.js';
import { argNumber, argString } from './lib/cli.js';
import { consolidationRig, loadBuild, thisBuild } from './lib/memory-build.js';
import { playScenario, readTurns, type Turn } from './lib/scenario-turns.js';
import { decisionTargets, RuleDecider, type Decider, type DecisionInput } from '../pipelines/memory/decide.js';
import { cosine, type TextEmbedder } from '../pipelines/embeddings/text-embedder.js';

const MODEL_FILES = ['changes.jsonl', 'closures.jsonl', ...Array.from({ length: 14 }, (_, i) => `closures-${i + 2}.jsonl`)];
const CUTS = [0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.98, 0.99];
const FLOORS = [0.5, 0.6, 0.7, 0.8, 0.85, 0.9];
/**
 * Not trained on: the blind set kept for the next model's one measurement (scenarios-held-8, run once on 2026-12-08 with
 * the first shipped model, is development data since; so is closures-15).
 */
const RESERVED = new Set(['scenarios-held-9.jsonl']);
/** The most stray closures per 100 scenario turns a setting may make out of fold (pre-committed before any run with them). */
const STRAY_BOUND = 1;

/** A row the regression learns from: two facts' vectors, the by-other flag, the decision. */
interface TrainRow { file: string; a: Float32Array; b: Float32Array; byOther: boolean; label: number; cos: number; shapes: [FactShape, FactShape] }

/**
 * The rules' ADDs in a scripted conversation, as the model would meet them: every fact the rules add with a current fact
 * of its subject nearest it (under the same conditions `LearnedChangeDecider` asks the model: no own end, not said
 * ahead, not changed by another clause), labelled by the file: the turn's `closes` decision where the nearest fact is the
 * labelled turn's, else ADD (a new fact beside an unrelated one: what a model must leave alone).
 */
async function scenarioRows(file: string, embedder: TextEmbedder): Promise<{ rows: TrainRow[]; turns: number }> {
  const turns = readTurns(file);
  const seen: { turn: Turn; a: { id: string; content: string }; b: string; byOther: boolean; shapes: [FactShape, FactShape] }[] = [];
  let now: Turn | null = null;
  const rules = new RuleDecider();
  const recorder: Decider = {
    ruledTargets: async (input: DecisionInput) => {
      return decisionTargets(await rules.decide(input));
    },
    decide: async (input: DecisionInput) => {
      const d = await rules.decide(input);
      const nearest = d.op === 'ADD' ? weighable(input) : null;
      if (nearest && now) {
        seen.push({ turn: now, a: { id: nearest.id, content: nearest.content }, b: input.fact.content, byOther: input.fact.speakerId !== input.fact.subjectId,
          shapes: [{ kind: nearest.kind, slot: nearest.slot }, { kind: input.fact.kind, slot: input.fact.slot }] });
      }
      return d;
    },
  };
  const { db, graph, memory, handler } = consolidationRig(thisBuild, embedder, () => {}, recorder);
  const rows: TrainRow[] = [];
  for (const scenario of [...new Set(turns.map((t) => t.scenario))]) {
    const from = seen.length;
    const { utterance } = await playScenario({ graph, handler }, scenario, turns.filter((t) => t.scenario === scenario), {
      before: async (t) => { now = t; },
    });
    for (const r of seen.slice(from)) {
      const target = r.turn.closes !== undefined ? (await memory.processedFacts(scenario, utterance.get(r.turn.closes) ?? '')) ?? [] : [];
      const op = r.turn.expect && r.turn.expect !== 'open' && target.includes(r.a.id) ? r.turn.expect : 'ADD';
      const [a, b] = await embedder.embed([r.a.content, r.b]);
      rows.push({ file, a: a!, b: b!, byOther: r.byOther, label: CHANGE_CLASSES.indexOf(op), cos: cosine(a!, b!), shapes: r.shapes });
    }
  }
  db.close();
  return { rows, turns: turns.length };
}

/** One pair as the model sees it: the nearest stored and new facts' vectors, or null when a statement gave no fact. */
interface Row { result: Result; file: string; a: Float32Array | null; b: Float32Array | null; cos: number; shapes: [FactShape, FactShape] | null }


async function main(): Promise<void> {
  const embedderName = argString('embedder', 'bge-small-en-v1.5-q');
  const arm = parseArm(argString('arms', ''));
  const iterations = argNumber('iterations', 300);
  const embedder = benchEmbedder(embedderName);
  const out = argString('out', changeModelPath(embedder.space.model));
  const dataDir = path.join(repoRoot(), 'bench', 'data');

  const blind = new Map(argString('blind', '').split(',').filter(Boolean).map((kv) => {
    const [file, dist] = kv.split('=');
    if (!file || !dist || !MODEL_FILES.includes(file)) throw new Error(`--blind: ${JSON.stringify(kv)} is not FILE=DIST with FILE one of the training files`);
    return [file, dist] as const;
  }));
  const rows: Row[] = [];
  /** Per blind file, the rules' results as they stood when it was first run (same pair order as `rows`). */
  const rulesThen = new Map<Row, Result>();
  for (const file of MODEL_FILES) {
    const started = Date.now();
    const pairs = loadPairs(path.join(dataDir, file));
    const results = await runPairs(thisBuild, embedder, pairs, true);
    const then = blind.has(file) ? await runPairs(await loadBuild(blind.get(file)!), embedder, pairs, true) : null;
    for (const [i, result] of results.entries()) {
      if (result.aFacts.length === 0 || result.bFacts.length === 0) {
        rows.push({ result, file, a: null, b: null, cos: 0, shapes: null });
        if (then) rulesThen.set(rows.at(-1)!, then[i]!);
        continue;
      }
      const vectors = await embedder.embed([...result.aFacts, ...result.bFacts].map((f) => f.content));
      const as = vectors.slice(0, result.aFacts.length);
      const bs = vectors.slice(result.aFacts.length);
      let best = { a: as[0]!, b: bs[0]!, cos: -2, shapes: [result.aFacts[0]!, result.bFacts[0]!] as [FactShape, FactShape] };
      for (const [i, a] of as.entries()) {
        for (const [j, b] of bs.entries()) if (cosine(a, b) > best.cos) best = { a, b, cos: cosine(a, b), shapes: [result.aFacts[i]!, result.bFacts[j]!] };
      }
      rows.push({ result, file, ...best });
      if (then) rulesThen.set(rows.at(-1)!, then[i]!);
    }
    console.log(`${file}: ${results.length} pairs through the rules in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
  const usable = rows.filter((r) => r.a !== null);
  const pairRow = new Map<Row, TrainRow>(usable.map((r) => [r, {
    file: r.file, a: r.a!, b: r.b!, byOther: r.result.pair.b.by === 'other', label: CHANGE_CLASSES.indexOf(r.result.pair.expect), cos: r.cos,
    shapes: r.shapes!,
  }]));
  const scenarioFiles = readdirSync(dataDir).filter((f) => /^scenarios.*\.jsonl$/.test(f) && !RESERVED.has(f)).sort();
  const scenes: TrainRow[] = [];
  let sceneTurns = 0;
  for (const file of scenarioFiles) {
    const got = await scenarioRows(path.join(dataDir, file), embedder);
    scenes.push(...got.rows.map((r) => ({ ...r, file })));
    sceneTurns += got.turns;
  }
  const sceneAdds = scenes.filter((r) => CHANGE_CLASSES[r.label] === 'ADD');
  console.log(`${scenarioFiles.length} scenario files (${[...RESERVED].join(', ')} reserved, not read): ${sceneTurns} turns, `
    + `${scenes.length} facts the rules added beside a current fact (${scenes.length - sceneAdds.length} of them labelled changes)`);
  const training = [...pairRow.values(), ...scenes];
  const features = (r: TrainRow): Float64Array => pairFeatures(arm.set, r.a, r.b, r.byOther, r.shapes);
  console.log(`\n${rows.length} pairs, ${usable.length} with a fact from each statement, + ${scenes.length} scenario rows; logreg ${arm.set} l2=${arm.l2}, `
    + `${iterations} steps, embedder ${embedder.space.model}`);

  // Out-of-fold class probabilities, one fold per file (pair files and scenario files alike).
  const oof = new Map<TrainRow, number[]>();
  for (const file of [...MODEL_FILES, ...scenarioFiles]) {
    const train = training.filter((r) => r.file !== file);
    const model = trainSoftmax(train.map(features), train.map((r) => r.label), CHANGE_CLASSES.length, { l2: arm.l2, iterations });
    for (const r of training.filter((u) => u.file === file)) oof.set(r, softmaxProbabilities(model, features(r)));
  }
  const probs = new Map<Row, number[]>(usable.map((r) => [r, oof.get(pairRow.get(r)!)!]));
  /** Whether the model, out of fold, would take its answer on a scenario row at these bars (and which). */
  const fires = (r: TrainRow, cut: number, floor: number): number | null => {
    const p = oof.get(r)!;
    const best = p.indexOf(Math.max(...p));
    return CHANGE_CLASSES[best] !== 'ADD' && p[best]! >= cut && r.cos >= floor ? best : null;
  };
  const strays = (cut: number, floor: number): number => sceneAdds.filter((r) => fires(r, cut, floor) !== null).length;
  const strayRate = (cut: number, floor: number): number => (100 * strays(cut, floor)) / sceneTurns;
  const f = (x: number): string => x.toFixed(3);
  /** Accuracy of rules + model over `set` (each pair weighed with `rules`' result) at each setting, and the rules alone. */
  const accuracy = (set: Row[], rules: (r: Row) => Result) => {
    const rulesHits: number[] = set.map((r) => (right(rules(r)) ? 1 : 0));
    const hitsAt = (cut: number, floor: number): number[] => set.map((r) => (hybridRight(rules(r), probs.get(r) ?? null, r.cos, cut, floor) ? 1 : 0));
    return { rulesHits, hitsAt };
  };
  const everyFile = accuracy(rows, (r) => r.result);
  const blindRows = rows.filter((r) => rulesThen.has(r));
  const onBlind = blindRows.length > 0 ? accuracy(blindRows, (r) => rulesThen.get(r)!) : null;
  const sel = onBlind ?? everyFile;
  const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
  console.log(`\ngrouped CV, per setting: accuracy of rules + model on ${onBlind ? `the blind files (${[...blind.keys()].join(', ')}; rules as they stood when each was first run; alone ${f(mean(onBlind.rulesHits))})` : 'every file'}`
    + ` / on every file (this build's rules, fitted to them all; alone ${f(mean(everyFile.rulesHits))}) / stray closures per 100 scenario turns (${sceneAdds.length} ADD rows in ${sceneTurns} turns)`);
  console.log(`| cut \\ floor | ${FLOORS.join(' | ')} |\n|---|${FLOORS.map(() => '---|').join('')}`);
  let chosen: { cut: number; floor: number; score: number; stray: number } | null = null;
  let safest = { cut: CUTS[0]!, floor: FLOORS[0]!, score: -1, stray: Infinity };
  for (const cut of CUTS) {
    const cells = FLOORS.map((floor) => {
      const score = mean(sel.hitsAt(cut, floor));
      const stray = strayRate(cut, floor);
      // Under the bound, the best accuracy (ties: the higher bars, met later in the grid); else the fewest strays.
      if (stray <= STRAY_BOUND && (!chosen || score >= chosen.score)) chosen = { cut, floor, score, stray };
      if (stray < safest.stray || (stray === safest.stray && score >= safest.score)) safest = { cut, floor, score, stray };
      return `${f(score)} / ${f(mean(everyFile.hitsAt(cut, floor)))} / ${stray.toFixed(1)}`;
    });
    console.log(`| ${cut} | ${cells.join(' | ')} |`);
  }
  const pick: { cut: number; floor: number; score: number; stray: number } = chosen ?? safest;
  const report = (name: string, acc: ReturnType<typeof accuracy>) => {
    const hybrid = acc.hitsAt(pick.cut, pick.floor);
    const h = bootstrapMean(hybrid);
    const r0 = bootstrapMean(acc.rulesHits);
    const d = bootstrapDelta(hybrid, acc.rulesHits);
    console.log(`  ${name}: ${f(h.mean)} [${f(h.lo)}, ${f(h.hi)}] vs the rules alone ${f(r0.mean)} [${f(r0.lo)}, ${f(r0.hi)}]; paired ${d.mean >= 0 ? '+' : ''}${f(d.mean)} `
      + `[${f(d.lo)}, ${f(d.hi)}] (${hybrid.filter((v, i) => v > acc.rulesHits[i]!).length} pairs gained, ${hybrid.filter((v, i) => v < acc.rulesHits[i]!).length} lost)`);
    return { hybrid: +h.mean.toFixed(3), rulesAlone: +r0.mean.toFixed(3), delta: [+d.lo.toFixed(3), +d.hi.toFixed(3)], pairs: hybrid.length };
  };
  const caught = scenes.filter((r) => CHANGE_CLASSES[r.label] !== 'ADD' && fires(r, pick.cut, pick.floor) === r.label).length;
  console.log(`\n${chosen ? `chosen: the best accuracy with at most ${STRAY_BOUND} stray closure per 100 scenario turns` : `NO setting keeps stray closures to ${STRAY_BOUND} per 100 scenario turns: the fewest`}`
    + ` — cut ${pick.cut}, floor ${pick.floor}: ${pick.stray.toFixed(1)} stray closures per 100 scenario turns (${strays(pick.cut, pick.floor)}); `
    + `scenario changes the rules missed and the model takes right: ${caught} of ${scenes.length - sceneAdds.length}`);
  const figures = { ...(onBlind ? { blindFiles: report('blind files', onBlind) } : {}), everyFile: report('every file', everyFile) };

  const model = trainSoftmax(training.map(features), training.map((r) => r.label), CHANGE_CLASSES.length, { l2: arm.l2, iterations });
  const round = (v: number): number => +v.toPrecision(7);
  const file: ChangeModelFile = {
    format: CHANGE_MODEL_FORMAT, embedder: embedder.space.model, dimension: embedder.space.dimension, features: arm.set,
    classes: [...CHANGE_CLASSES], cut: pick.cut, floor: pick.floor,
    trainedOn: {
      command: `node dist/bench/change-model.js --embedder ${embedderName} --arms logreg:${arm.set}:${arm.l2} --iterations ${iterations}${blind.size ? ` --blind ${argString('blind', '')}` : ''}`,
      files: MODEL_FILES, scenarioFiles, pairs: usable.length, scenarioRows: scenes.length, rulesVersion: EMBEDDED_RULES_VERSION, l2: arm.l2, iterations,
      blindRules: Object.fromEntries(blind), strayBound: STRAY_BOUND, withinBound: chosen !== null,
      groupedCv: { ...figures, strayPer100Turns: +pick.stray.toFixed(2), scenarioChangesTaken: caught },
    },
    mean: Array.from(model.mean, round), scale: Array.from(model.scale, round), weights: model.weights.map((w) => Array.from(w, round)),
  };
  if (file.mean.length !== featureWidth(arm.set, embedder.space.dimension)) throw new Error('change-model: feature width does not match the embedder');
  if (process.argv.includes('--dry-run')) console.log('\n--dry-run: no model written');
  else {
    writeFileSync(out, `${JSON.stringify(file)}\n`);
    console.log(`\nwrote ${out}`);
  }
  await embedder.close();
}

await main();
