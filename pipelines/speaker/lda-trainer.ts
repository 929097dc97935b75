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

/**
 * Fit standardisation + LDA: whiten the pooled within-speaker covariance (shrunk towards a scaled
 * identity by `shrinkage`), then take the top `dims` principal directions of the whitened
 * between-speaker scatter. In the output space within-speaker variance is 1 in every direction, so
 * cosine weighs every kept direction by how much it separates speakers, a PLDA-like behaviour.
 */
export function fitLda(samples: LabelledVector[], dims: number, shrinkage = 0.1): LdaFit {
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

  const w = symmetricEigen(sw);
  // Whitening matrix rows: eigenvectors scaled by 1/sqrt(eigenvalue).
  const whiten = w.vectors.map((v, k) => v.map((x) => x / Math.sqrt(Math.max(w.values[k]!, 1e-9))));
  const sbW = matmul(matmul(whiten, sb), transpose(whiten));
  const b = symmetricEigen(sbW);
  const k = Math.min(dims, byClass.size - 1, n);
  const projection = matmul(b.vectors.slice(0, k), whiten);
  return { mean, std, projection, eigenvalues: b.values.slice(0, k) };
}
