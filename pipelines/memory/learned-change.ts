/**
 * Changes of mind decided by a model learned from labelled pairs, after the rules (issue #16). The rules of
 * consolidation (`RuleDecider`) decide first; where they find no change (ADD), the new fact and its nearest current fact
 * of the same subject are embedded, and a multinomial logistic regression over their pair features
 * (pair-features.ts) says UPDATE / DELETE / KEEP / ADD. Its answer is taken only when it names a change, its
 * probability reaches the model's `cut` and the two facts' cosine its `floor`; otherwise the rules' ADD stands. Which
 * facts it may weigh at all: {@link weighable}.
 *
 * The model is bound to the text embedder it was trained with (`pipelines/memory/params/<embedder>-change.json`,
 * written by `npm run bench:change-model`): under any other embedder no model is loaded and the rules decide alone.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { cosine, type TextEmbedder } from '../embeddings/text-embedder.js';
import { repoRoot } from '../models/repo-root.js';
import type { Fact } from '../../graph/memory-store.js';
import { decisionTargets, type Decider, type Decision, type DecisionInput } from './decide.js';
import { FEATURE_SETS, pairFeatures, SHAPE_WIDTH, type FactShape, type FeatureSet } from './pair-features.js';
import { softmaxProbabilities, type SoftmaxModel } from './softmax-regression.js';

/** The classes of a change model, in the order of its weight rows. */
export const CHANGE_CLASSES = ['UPDATE', 'DELETE', 'KEEP', 'ADD'] as const;
export type ChangeClass = (typeof CHANGE_CLASSES)[number];

/** The format tag of a change model file. */
export const CHANGE_MODEL_FORMAT = 'parley-change-classifier/1';

/** A change model as stored: the regression, the embedder it reads and the two bars its answers must pass. */
export interface ChangeModelFile {
  format: typeof CHANGE_MODEL_FORMAT;
  /** The text embedder's model name (`EmbeddingSpace.model`) and dimension the model was trained on. */
  embedder: string;
  dimension: number;
  features: FeatureSet;
  classes: ChangeClass[];
  /** An answer naming a change is taken at or above this probability. */
  cut: number;
  /** … and only when the two facts' cosine (in the embedder's space) is at or above this. */
  floor: number;
  mean: number[];
  scale: number[];
  /** One row per class: a weight per feature, the bias last. */
  weights: number[][];
  /** How it was trained (data, options, cross-validated figures): read by people, not by Parley. */
  trainedOn?: unknown;
}

/** A loaded change model. */
export interface ChangeModel {
  embedder: string;
  dimension: number;
  features: FeatureSet;
  cut: number;
  floor: number;
  regression: SoftmaxModel;
}

const unit = (v: unknown): v is number => typeof v === 'number' && v >= 0 && v <= 1;
const numbers = (v: unknown, n: number): v is number[] => Array.isArray(v) && v.length === n && v.every((x) => typeof x === 'number' && Number.isFinite(x));

/** Width of a feature row of `set` over vectors of `dimension`. */
export function featureWidth(set: FeatureSet, dimension: number): number {
  return { cos: 0, interact: 2, 'b+interact': 3, 'ab+interact': 4, 'ab+interact+shape': 4 }[set] * dimension + 2 + (set.endsWith('+shape') ? SHAPE_WIDTH : 0);
}

/** A change model from its parsed file; anything malformed throws, naming `where` and the problem. */
export function parseChangeModel(raw: unknown, where: string): ChangeModel {
  const m = raw as Partial<ChangeModelFile> | null;
  const fail = (why: string): never => { throw new Error(`${where}: not a change model: ${why}`); };
  if (!m || typeof m !== 'object') return fail('not a JSON object');
  if (m.format !== CHANGE_MODEL_FORMAT) fail(`format is ${JSON.stringify(m.format)}, expected ${CHANGE_MODEL_FORMAT}`);
  if (typeof m.embedder !== 'string' || !m.embedder) fail('embedder must name a text embedder');
  if (!Number.isInteger(m.dimension) || m.dimension! < 1) fail('dimension must be a positive integer');
  if (!FEATURE_SETS.includes(m.features as FeatureSet)) fail(`features must be one of ${FEATURE_SETS.join(' / ')}`);
  if (JSON.stringify(m.classes) !== JSON.stringify(CHANGE_CLASSES)) fail(`classes must be ${CHANGE_CLASSES.join(', ')} in that order`);
  if (!unit(m.cut)) fail('cut must be a probability in [0, 1]');
  if (typeof m.floor !== 'number' || m.floor < -1 || m.floor > 1) fail('floor must be a cosine in [-1, 1]');
  const width = featureWidth(m.features!, m.dimension!);
  if (!numbers(m.mean, width) || !numbers(m.scale, width)) fail(`mean and scale must each hold ${width} finite numbers`);
  if (!Array.isArray(m.weights) || m.weights.length !== CHANGE_CLASSES.length || !m.weights.every((row) => numbers(row, width + 1))) {
    fail(`weights must hold ${CHANGE_CLASSES.length} rows of ${width + 1} finite numbers`);
  }
  return {
    embedder: m.embedder!, dimension: m.dimension!, features: m.features!, cut: m.cut!, floor: m.floor!,
    regression: {
      classes: CHANGE_CLASSES.length, mean: Float64Array.from(m.mean!), scale: Float64Array.from(m.scale!),
      weights: m.weights!.map((row) => Float64Array.from(row)),
    },
  };
}

/** Where the change model of text embedder `model` lives. */
export function changeModelPath(model: string): string {
  return path.join(repoRoot(), 'pipelines', 'memory', 'params', `${path.basename(model)}-change.json`);
}

/**
 * The change model trained for text embedder space `space`, or null when none was trained for it. A file that is not a
 * valid model, or one trained for another embedder or dimension, throws.
 */
export function changeModelFor(space: { model: string; dimension: number }, file = changeModelPath(space.model)): ChangeModel | null {
  if (!existsSync(file)) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`${file}: not a change model: ${(err as Error).message}`);
  }
  const model = parseChangeModel(raw, file);
  if (model.embedder !== space.model || model.dimension !== space.dimension) {
    throw new Error(`${file}: trained for ${model.embedder} (${model.dimension} dimensions), not ${space.model} (${space.dimension})`);
  }
  return model;
}

/** What the model says of one pair: each class's probability (`shapes`: the two facts' kinds and slots, [stored, said]). */
export function changeProbabilities(model: ChangeModel, stored: Float32Array, said: Float32Array, byOther: boolean, shapes?: [FactShape, FactShape]): Record<ChangeClass, number> {
  const p = softmaxProbabilities(model.regression, pairFeatures(model.features, stored, said, byOther, shapes));
  return Object.fromEntries(CHANGE_CLASSES.map((c, k) => [c, p[k]!])) as Record<ChangeClass, number>;
}

/**
 * The current fact the model may weigh a new fact against, where the rules added it: the nearest candidate, unless
 * - the new fact is a temporary state ("off work until Friday") or one said ahead, or the nearest is a stay: a stay
 *   interrupts what holds and never replaces it, and the rules' handling of stays stands (`decideWithStays`);
 * - the nearest is someone else's (a candidate of the addressee or of the session, for the rules' own checks);
 * - the nearest came from the same words (a fact this turn just wrote: "I love hiking. I also love climbing");
 * - the rules change the nearest on another fact of the same words ("my brother is lending me his van, so I won't need a
 *   courtesy car": the second clause cancels the car), so that fact decides it.
 * Null: the rules' ADD stands. bench/change-model.ts trains on the rows this lets through.
 */
export function weighable(input: DecisionInput): Fact | null {
  const nearest = input.candidates[0]?.fact;
  if (!nearest || input.ownEnd || nearest.validUntil) return null;
  if (input.fact.validFrom !== undefined && input.time !== undefined && input.fact.validFrom > input.time) return null;
  if (nearest.subjectId !== input.fact.subjectId) return null;
  if (nearest.referIds.some((id) => input.fact.referIds.includes(id))) return null;
  return input.siblingTargets?.includes(nearest.id) ? null : nearest;
}


/**
 * The rules, then the learned model where the rules add: see the module comment. The model weighs only the nearest
 * candidate (the first of `DecisionInput.candidates`), so it never closes a fact the search did not rank first.
 */
export class LearnedChangeDecider implements Decider {
  readonly #rules: Decider;
  readonly #model: ChangeModel;
  readonly #embedder: TextEmbedder;
  readonly #logger: Logger | undefined;

  constructor(rules: Decider, model: ChangeModel, embedder: TextEmbedder, logger?: Logger) {
    if (embedder.space.model !== model.embedder || embedder.space.dimension !== model.dimension) {
      throw new Error(`LearnedChangeDecider: the model reads ${model.embedder} (${model.dimension}), the embedder is ${embedder.space.model} (${embedder.space.dimension})`);
    }
    this.#rules = rules;
    this.#model = model;
    this.#embedder = embedder;
    this.#logger = logger;
  }

  async ruledTargets(input: DecisionInput): Promise<string[]> {
    return decisionTargets(await this.#rules.decide(input));
  }

  async decide(input: DecisionInput): Promise<Decision> {
    const ruled = await this.#rules.decide(input);
    const nearest = ruled.op === 'ADD' ? weighable(input) : null;
    if (!nearest) return ruled;
    const [stored, said] = await this.#embedder.embed([nearest.content, input.fact.content]);
    if (cosine(stored!, said!) < this.#model.floor) return ruled;
    const p = changeProbabilities(this.#model, stored!, said!, input.fact.speakerId !== input.fact.subjectId, [nearest, input.fact]);
    const best = CHANGE_CLASSES.reduce((a, b) => (p[b] > p[a] ? b : a));
    if (best === 'ADD' || p[best] < this.#model.cut) return ruled;
    this.#logger?.debug({ op: best, p: +p[best].toFixed(3), target: nearest.id }, 'learned change decision');
    if (best === 'DELETE') return { op: 'DELETE', targetIds: [nearest.id] };
    return { op: best, targetId: nearest.id };
  }
}
