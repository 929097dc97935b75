/**
 * Features of a statement pair (a stored statement and a new one) for the learned change-of-mind classifier
 * (learned-change.ts; trained by bench/change-model.ts, compared by bench/change-classifier.ts). Pure: vectors in, numbers out.
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
  | 'ab+interact'
  /** 'ab+interact' and what the two facts are ({@link shapeFeatures}): their kinds and slots. */
  | 'ab+interact+shape';

export const FEATURE_SETS: FeatureSet[] = ['cos', 'interact', 'b+interact', 'ab+interact', 'ab+interact+shape'];

/** What kind of fact each of a pair is: its kind and its exclusive slot (null: none). */
export interface FactShape { kind: string; slot: string | null }

/** How many numbers {@link shapeFeatures} gives. */
export const SHAPE_WIDTH = 5;

/**
 * [same kind, same slot, two different slots, the stored fact has a slot, the new one has]: a new value of the same slot
 * replaces, one of another slot seldom does, whatever the words share.
 */
export function shapeFeatures(stored: FactShape, said: FactShape): number[] {
  const flag = (b: boolean): number => (b ? 1 : 0);
  return [flag(stored.kind === said.kind), flag(stored.slot !== null && stored.slot === said.slot),
    flag(stored.slot !== null && said.slot !== null && stored.slot !== said.slot), flag(stored.slot !== null), flag(said.slot !== null)];
}

/**
 * The feature row of one pair; vectors of different lengths throw, and so does a set with shapes (`+shape`) without
 * `shapes` ([stored, said]).
 */
export function pairFeatures(set: FeatureSet, a: Float32Array, b: Float32Array, byOther: boolean, shapes?: [FactShape, FactShape]): Float64Array {
  if (a.length !== b.length || a.length === 0) throw new Error(`pairFeatures: vectors of ${a.length} and ${b.length} dimensions`);
  if (set.endsWith('+shape') && !shapes) throw new Error(`pairFeatures: ${set} needs the two facts' shapes`);
  let cos = 0;
  for (let i = 0; i < a.length; i++) cos += a[i]! * b[i]!;
  const tail = [cos, byOther ? 1 : 0];
  const prod = Array.from(a, (v, i) => v * b[i]!);
  const diff = Array.from(a, (v, i) => Math.abs(v - b[i]!));
  const parts: number[][] = set === 'cos' ? [tail]
    : set === 'interact' ? [prod, diff, tail]
      : set === 'b+interact' ? [Array.from(b), prod, diff, tail]
        : [Array.from(a), Array.from(b), prod, diff, tail, ...(set === 'ab+interact+shape' ? [shapeFeatures(...shapes!)] : [])];
  return Float64Array.from(parts.flat());
}
