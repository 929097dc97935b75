import { addOuter, matmul, symmetricEigen, transpose, zeros } from './linalg.js';

/** A labelled raw feature vector. */
export interface LabelledVector {
  label: string;
  x: Float64Array;
}

/** Result of fitting: standardisation, projection rows and their discriminant ratios. */
export interface LdaFit {
  mean: number[];
  std: number[];
  projection: number[][];
  eigenvalues: number[];
}

/** Standardisation, and the shrunk within-speaker and between-speaker scatter of the standardised samples. */
interface Scatter {
  mean: number[];
  std: number[];
  sw: number[][];
  sb: number[][];
  classes: number;
}

function scatter(samples: LabelledVector[], shrinkage: number): Scatter {
  const n = samples[0]!.x.length;
  const mean = new Array<number>(n).fill(0);
  for (const s of samples) for (let i = 0; i < n; i++) mean[i]! += s.x[i]!;
  for (let i = 0; i < n; i++) mean[i] = mean[i]! / samples.length;
  const std = new Array<number>(n).fill(0);
  for (const s of samples) for (let i = 0; i < n; i++) std[i]! += (s.x[i]! - mean[i]!) ** 2;
  for (let i = 0; i < n; i++) std[i] = Math.sqrt(std[i]! / samples.length) || 1;
  const z = samples.map((s) => ({ label: s.label, x: Float64Array.from(s.x, (v, i) => (v - mean[i]!) / std[i]!) }));

  const byClass = new Map<string, Float64Array[]>();
  for (const s of z) byClass.set(s.label, [...(byClass.get(s.label) ?? []), s.x]);
  const classMeans = [...byClass.values()].map((xs) => {
    const m = new Float64Array(n);
    for (const x of xs) for (let i = 0; i < n; i++) m[i]! += x[i]! / xs.length;
    return m;
  });
  const grand = new Float64Array(n);
  for (const m of classMeans) for (let i = 0; i < n; i++) grand[i]! += m[i]! / classMeans.length;
  const sw = zeros(n, n);
  const sb = zeros(n, n);
  [...byClass.values()].forEach((xs, c) => {
    const m = classMeans[c]!;
    // Equal weight per speaker, so voices with many segments do not dominate.
    addOuter(sb, Float64Array.from(m, (v, i) => v - grand[i]!), 1 / byClass.size);
    for (const x of xs) addOuter(sw, Float64Array.from(x, (v, i) => v - m[i]!), 1 / (xs.length * byClass.size));
  });
  let trace = 0;
  for (let i = 0; i < n; i++) trace += sw[i]![i]!;
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) sw[i]![j] = (1 - shrinkage) * sw[i]![j]! + (i === j ? (shrinkage * trace) / n : 0);
  return { mean, std, sw, sb, classes: byClass.size };
}

/** Rows that whiten the (shrunk) within-speaker scatter: its eigenvectors scaled by 1/sqrt(eigenvalue). */
function whitening(sw: number[][]): number[][] {
  const w = symmetricEigen(sw);
  return w.vectors.map((v, k) => v.map((x) => x / Math.sqrt(Math.max(w.values[k]!, 1e-9))));
}

/**
 * Fit standardisation + LDA: whiten the pooled within-speaker covariance (shrunk towards a scaled
 * identity by `shrinkage`), then take the top `dims` principal directions of the whitened
 * between-speaker scatter. In the output space within-speaker variance is 1 in every direction, so
 * cosine weighs every kept direction by how much it separates speakers, a PLDA-like behaviour.
 */
export function fitLda(samples: LabelledVector[], dims: number, shrinkage = 0.1): LdaFit {
  const { mean, std, sw, sb, classes } = scatter(samples, shrinkage);
  const whiten = whitening(sw);
  const sbW = matmul(matmul(whiten, sb), transpose(whiten));
  const b = symmetricEigen(sbW);
  const k = Math.min(dims, classes - 1, mean.length);
  const projection = matmul(b.vectors.slice(0, k), whiten);
  return { mean, std, projection, eigenvalues: b.values.slice(0, k) };
}

/**
 * Fit standardisation + within-class covariance normalisation (WCCN): the whitening of the shrunk
 * within-speaker scatter alone, every dimension kept (unlike LDA, not limited to speakers − 1 directions).
 * `eigenvalues` are the between/within ratio of each whitened direction, for diagnostics.
 */
export function fitWccn(samples: LabelledVector[], shrinkage = 0.1): LdaFit {
  const { mean, std, sw, sb } = scatter(samples, shrinkage);
  const projection = whitening(sw);
  const eigenvalues = projection.map((r) => {
    let s = 0;
    for (let i = 0; i < r.length; i++) for (let j = 0; j < r.length; j++) s += r[i]! * sb[i]![j]! * r[j]!;
    return s;
  });
  return { mean, std, projection, eigenvalues };
}
