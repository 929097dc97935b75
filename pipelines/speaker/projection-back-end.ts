import { addOuter, symmetricEigen, zeros } from './linalg.js';

/**
 * What happens to a projected vector before its length is normalised (and cosines are taken): subtract `centre`,
 * then multiply by `whiten` (square, rows of the projected dimension). Fitted on the training speakers' projected
 * samples by {@link fitBackEnd} and stored in the projection file; a file without it keeps the raw projection.
 */
export interface ProjectionBackEnd {
  /** `centred`: mean removed only; `wccn`: and the within-speaker covariance whitened; `whitened`: and the total covariance whitened. */
  kind: BackEndKind;
  /** Whose speakers the centre (and the total covariance of `whitened`) was taken over, e.g. `all` or `real` voices. */
  centredOn?: string;
  centre: number[];
  whiten: number[][];
}

/** Which back end to fit: its kind and the population it is centred on. */
export type BackEndChoice = Pick<ProjectionBackEnd, 'kind' | 'centredOn'>;

export const BACK_END_KINDS = ['centred', 'wccn', 'whitened'] as const;
export type BackEndKind = (typeof BACK_END_KINDS)[number];

/** A projected training sample and its speaker. */
export interface ProjectedSample {
  label: string;
  y: ArrayLike<number>;
}

/**
 * Fit a back end on projected training samples. The centre is the mean of the speakers' means (each speaker
 * weighs the same, as in the LDA's scatter); `wccn` whitens the pooled within-speaker covariance (each speaker's
 * samples about its own mean, speakers weighted equally), `whitened` the covariance of all samples about the centre.
 * Whitening rows are the covariance's eigenvectors over sqrt(eigenvalue), with eigenvalues floored at 1e-6 of the largest.
 * `population` (named `centredOn`) restricts the centre and the total covariance to some speakers (the
 * within-speaker covariance always pools every speaker).
 */
export function fitBackEnd(
  samples: readonly ProjectedSample[], kind: BackEndKind, population: { name: string; has(label: string): boolean } = { name: 'all', has: () => true },
): ProjectionBackEnd {
  const n = samples[0]!.y.length;
  const bySpeaker = new Map<string, ArrayLike<number>[]>();
  for (const s of samples) bySpeaker.set(s.label, [...(bySpeaker.get(s.label) ?? []), s.y]);
  const means = new Map([...bySpeaker].map(([k, ys]) => [k, meanOf(ys, n)]));
  const members = [...bySpeaker.keys()].filter((k) => population.has(k));
  if (members.length === 0) throw new Error(`projection back end: no speaker of population ${population.name}`);
  const centre = meanOf(members.map((k) => means.get(k)!), n);
  const base = { kind, centredOn: population.name, centre: [...centre] };
  const identity = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));
  if (kind === 'centred') return { ...base, whiten: identity };
  const cov = zeros(n, n);
  const speakers = kind === 'wccn' ? [...bySpeaker.keys()] : members;
  for (const k of speakers) {
    const ys = bySpeaker.get(k)!;
    const about = kind === 'wccn' ? means.get(k)! : centre;
    for (const y of ys) addOuter(cov, Float64Array.from({ length: n }, (_, i) => y[i]! - about[i]!), 1 / (ys.length * speakers.length));
  }
  const e = symmetricEigen(cov);
  const floor = 1e-6 * Math.max(...e.values);
  return { ...base, whiten: e.vectors.map((v, k) => v.map((x) => x / Math.sqrt(Math.max(e.values[k]!, floor)))) };
}

/** `whiten · (y − centre)`, in place in a new array. */
export function applyBackEnd(b: ProjectionBackEnd, y: ArrayLike<number>): Float32Array {
  const n = b.centre.length;
  const d = Float64Array.from({ length: n }, (_, i) => y[i]! - b.centre[i]!);
  return Float32Array.from(b.whiten, (row) => {
    let s = 0;
    for (let i = 0; i < n; i++) s += row[i]! * d[i]!;
    return s;
  });
}

/** Throws when `b` does not fit a projection of `dims` outputs (a back end read from a file). */
export function validateBackEnd(b: ProjectionBackEnd, dims: number): void {
  const ok = (BACK_END_KINDS as readonly string[]).includes(b.kind) && Array.isArray(b.centre) && b.centre.length === dims
    && b.centre.every(Number.isFinite) && Array.isArray(b.whiten) && b.whiten.length === dims
    && b.whiten.every((r) => Array.isArray(r) && r.length === dims && r.every(Number.isFinite));
  if (!ok) throw new Error(`projection back end: need kind (${BACK_END_KINDS.join(', ')}), a centre of ${dims} and ${dims} whitening rows of ${dims} finite numbers`);
}

function meanOf(ys: readonly ArrayLike<number>[], n: number): Float64Array {
  const m = new Float64Array(n);
  for (const y of ys) for (let i = 0; i < n; i++) m[i]! += y[i]! / ys.length;
  return m;
}
