/** The pieces of bench/change-model.ts its tests reach: the arm read from `--arms` and the hybrid's decision on one pair. */
import { CHANGE_CLASSES } from '../../pipelines/memory/learned-change.js';
import { FEATURE_SETS, type FeatureSet } from '../../pipelines/memory/pair-features.js';
import { right, type Result } from './change-pairs.js';

/** `logreg:SET:L2` from `--arms` (a `knn:` part is ignored); default ab+interact, 0.01. */
export function parseArm(spec: string): { set: FeatureSet; l2: number } {
  const part = spec.split(',').find((p) => p.startsWith('logreg:'));
  if (!part) return { set: 'ab+interact', l2: 0.01 };
  const [, set, value] = part.split(':');
  const l2 = Number(value);
  if (!FEATURE_SETS.includes(set as FeatureSet) || !Number.isFinite(l2) || l2 < 0) throw new Error(`--arms: ${JSON.stringify(part)} is not logreg:SET:L2 with SET in ${FEATURE_SETS.join(' / ')}`);
  return { set: set as FeatureSet, l2 };
}

/**
 * The hybrid's decision on one pair: the rules' where they closed or kept something; else the model's answer (`p`, per
 * class) where it names a change at or above `cut` and the facts' cosine reaches `floor`; else ADD. True when right.
 */
export function hybridRight(r: Result, p: number[] | null, cos: number, cut: number, floor: number): boolean {
  if (r.got !== 'ADD' || r.othersClosed || !p) return right(r);
  const best = p.indexOf(Math.max(...p));
  const op = CHANGE_CLASSES[best]!;
  return (op !== 'ADD' && p[best]! >= cut && cos >= floor ? op : 'ADD') === r.pair.expect;
}
