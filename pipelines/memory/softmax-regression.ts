/**
 * Multinomial logistic regression, small and dependency-free: features standardised on the training set, weights fit
 * by Nesterov-accelerated full-batch gradient descent on the mean cross-entropy plus `l2 / 2 · ‖W‖²` (biases are not
 * penalised). The step is 1 / L with L = λmax(XᵀX / n) / 2 + l2, a bound on the loss's curvature, so no learning rate
 * needs tuning and the descent cannot diverge.
 */

/** Training options. */
export interface SoftmaxOptions {
  /** L2 penalty on the weights (on standardised features); ≥ 0. */
  l2: number;
  /** Gradient steps; default 300. */
  iterations?: number;
}

/** A fitted model: per-feature standardisation and one weight row (bias last) per class. */
export interface SoftmaxModel {
  readonly classes: number;
  readonly mean: Float64Array;
  readonly scale: Float64Array;
  readonly weights: Float64Array[];
}

function checkRows(x: readonly ArrayLike<number>[], what: string): number {
  if (x.length === 0) throw new Error(`${what}: no rows`);
  const dim = x[0]!.length;
  if (dim === 0) throw new Error(`${what}: rows have no features`);
  for (const [i, row] of x.entries()) {
    if (row.length !== dim) throw new Error(`${what}: row ${i} has ${row.length} features, row 0 has ${dim}`);
    for (let j = 0; j < dim; j++) if (!Number.isFinite(row[j])) throw new Error(`${what}: row ${i} feature ${j} is not a finite number`);
  }
  return dim;
}

/** `logits` turned into probabilities in place (max-shifted, so large logits do not overflow). */
function softmaxInPlace(logits: Float64Array): Float64Array {
  let max = -Infinity;
  for (const v of logits) max = Math.max(max, v);
  let sum = 0;
  for (let k = 0; k < logits.length; k++) sum += (logits[k] = Math.exp(logits[k]! - max));
  for (let k = 0; k < logits.length; k++) logits[k] = logits[k]! / sum;
  return logits;
}

/** Largest eigenvalue of ZᵀZ / n by power iteration (Z standardised rows). */
function largestEigen(z: Float64Array[], dim: number): number {
  let v = new Float64Array(dim).fill(1 / Math.sqrt(dim));
  let lambda = 0;
  for (let it = 0; it < 30; it++) {
    const next = new Float64Array(dim);
    for (const row of z) {
      let dot = 0;
      for (let j = 0; j < dim; j++) dot += row[j]! * v[j]!;
      for (let j = 0; j < dim; j++) next[j] = next[j]! + (dot * row[j]!) / z.length;
    }
    let norm = 0;
    for (const c of next) norm += c * c;
    norm = Math.sqrt(norm);
    if (norm === 0) return 0;
    lambda = norm;
    v = next.map((c) => c / norm);
  }
  return lambda;
}

/** Fits a model to rows `x` with labels `y` in 0 … classes − 1; bad shapes, labels or options throw, naming the problem. */
export function trainSoftmax(x: readonly ArrayLike<number>[], y: readonly number[], classes: number, options: SoftmaxOptions): SoftmaxModel {
  const dim = checkRows(x, 'trainSoftmax');
  if (!Number.isInteger(classes) || classes < 2) throw new Error(`trainSoftmax: classes must be an integer ≥ 2, got ${classes}`);
  if (y.length !== x.length) throw new Error(`trainSoftmax: ${x.length} rows but ${y.length} labels`);
  for (const [i, label] of y.entries()) {
    if (!Number.isInteger(label) || label < 0 || label >= classes) throw new Error(`trainSoftmax: label ${i} is ${label}, not in 0 … ${classes - 1}`);
  }
  if (!(options.l2 >= 0)) throw new Error(`trainSoftmax: l2 must be ≥ 0, got ${options.l2}`);
  const iterations = options.iterations ?? 300;
  if (!Number.isInteger(iterations) || iterations < 1) throw new Error(`trainSoftmax: iterations must be a positive integer, got ${iterations}`);

  const n = x.length;
  const mean = new Float64Array(dim);
  const scale = new Float64Array(dim);
  for (const row of x) for (let j = 0; j < dim; j++) mean[j] = mean[j]! + row[j]! / n;
  for (const row of x) for (let j = 0; j < dim; j++) scale[j] = scale[j]! + (row[j]! - mean[j]!) ** 2 / n;
  for (let j = 0; j < dim; j++) scale[j] = scale[j]! > 1e-12 ? 1 / Math.sqrt(scale[j]!) : 1;
  const z = x.map((row) => Float64Array.from({ length: dim }, (_, j) => (row[j]! - mean[j]!) * scale[j]!));

  // The bias column adds at most 1 to λmax.
  const step = 1 / ((largestEigen(z, dim) + 1) / 2 + options.l2);
  const width = dim + 1;
  let w = Array.from({ length: classes }, () => new Float64Array(width));
  let previous = w.map((r) => r.slice());
  const p = new Float64Array(classes);
  for (let t = 1; t <= iterations; t++) {
    const momentum = (t - 1) / (t + 2);
    const look = w.map((r, k) => r.map((v, j) => v + momentum * (v - previous[k]![j]!)));
    const grad = Array.from({ length: classes }, () => new Float64Array(width));
    for (let i = 0; i < n; i++) {
      const row = z[i]!;
      for (let k = 0; k < classes; k++) {
        const wk = look[k]!;
        let s = wk[dim]!;
        for (let j = 0; j < dim; j++) s += wk[j]! * row[j]!;
        p[k] = s;
      }
      softmaxInPlace(p);
      for (let k = 0; k < classes; k++) {
        const g = (p[k]! - (y[i] === k ? 1 : 0)) / n;
        const gk = grad[k]!;
        for (let j = 0; j < dim; j++) gk[j] = gk[j]! + g * row[j]!;
        gk[dim] = gk[dim]! + g;
      }
    }
    previous = w;
    w = look.map((r, k) => r.map((v, j) => v - step * (grad[k]![j]! + (j < dim ? options.l2 * v : 0))));
  }
  return { classes, mean, scale, weights: w };
}

/** Class probabilities of one row (they sum to 1); a row of another width or with a non-finite value throws. */
export function softmaxProbabilities(model: SoftmaxModel, row: ArrayLike<number>): number[] {
  const dim = model.mean.length;
  if (row.length !== dim) throw new Error(`softmaxProbabilities: row has ${row.length} features, the model ${dim}`);
  checkRows([row], 'softmaxProbabilities');
  const logits = new Float64Array(model.classes);
  for (let k = 0; k < model.classes; k++) {
    const wk = model.weights[k]!;
    let s = wk[dim]!;
    for (let j = 0; j < dim; j++) s += wk[j]! * (row[j]! - model.mean[j]!) * model.scale[j]!;
    logits[k] = s;
  }
  return [...softmaxInPlace(logits)];
}

/** The most probable class of one row. */
export function softmaxPredict(model: SoftmaxModel, row: ArrayLike<number>): number {
  const p = softmaxProbabilities(model, row);
  return p.indexOf(Math.max(...p));
}
