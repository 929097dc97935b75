/**
 * Features of a statement pair (a stored statement and a new one) for the learned change-of-mind classifier
 * (learned-change.ts; trained by bench/change-classifier.ts). Pure: vectors in, numbers out.
 */

/** Which parts of a pair the feature row holds; `e_a`, `e_b` are the two statements' unit vectors. */
export type FeatureSet =
  /** cos(a, b) and the by-other flag: how much meaning alone says. */
  | 'cos'
  /** [e_a ⊙ e_b, |e_a − e_b|, cos, by-other]: symmetric interaction only. */
  | 'interact'
  /** [e_b, e_a ⊙ e_b, |e_a − e_b|, cos, by-other]: what the new statement says, too. */
  | 'b+interact'
  /** [e_a, e_b, e_a ⊙ e_b, |e_a − e_b|, cos, by-other]. */
  | 'ab+interact';

export const FEATURE_SETS: FeatureSet[] = ['cos', 'interact', 'b+interact', 'ab+interact'];

/** The feature row of one pair; vectors of different lengths throw. */
export function pairFeatures(set: FeatureSet, a: Float32Array, b: Float32Array, byOther: boolean): Float64Array {
  if (a.length !== b.length || a.length === 0) throw new Error(`pairFeatures: vectors of ${a.length} and ${b.length} dimensions`);
  let cos = 0;
  for (let i = 0; i < a.length; i++) cos += a[i]! * b[i]!;
  const tail = [cos, byOther ? 1 : 0];
  const prod = Array.from(a, (v, i) => v * b[i]!);
  const diff = Array.from(a, (v, i) => Math.abs(v - b[i]!));
  const parts: number[][] = set === 'cos' ? [tail]
    : set === 'interact' ? [prod, diff, tail]
      : set === 'b+interact' ? [Array.from(b), prod, diff, tail]
        : [Array.from(a), Array.from(b), prod, diff, tail];
  return Float64Array.from(parts.flat());
}
