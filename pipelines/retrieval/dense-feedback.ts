import type { TenantId } from '../../graph/types.js';
import { collectionFor } from '../memory/collections.js';
import type { PolicyOptions } from './question-policy.js';
import type { Retriever } from './retriever.js';

/**
 * Rocchio's query update on unit vectors: `normalise(question + beta · mean(docs))`. With no document (or `beta` 0)
 * the question's own direction. Vectors of another dimension than the question's are left out.
 */
export function rocchio(question: Float32Array, docs: readonly Float32Array[], beta: number): Float32Array {
  const used = docs.filter((d) => d.length === question.length);
  const out = Float32Array.from(question);
  if (used.length > 0 && beta !== 0) {
    for (const d of used) for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) + (beta * (d[i] as number)) / used.length;
  }
  let norm = 0;
  for (const x of out) norm += x * x;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) / norm;
  return out;
}

/**
 * The feedback query vector of `question` from the stored vectors of the turns `ids` (round 1's best first; the first
 * `denseFeedbackDocs` that have a vector), or null when off, when the question cannot be embedded or no turn has a vector.
 */
export async function denseFeedbackVector(
  retriever: Retriever, tenant: TenantId, question: string, ids: readonly string[], o: Pick<PolicyOptions, 'denseFeedback' | 'denseFeedbackDocs'>,
): Promise<Float32Array | null> {
  const beta = o.denseFeedback ?? 0;
  const docs = o.denseFeedbackDocs ?? 3;
  if (!(beta >= 0)) throw new RangeError(`denseFeedback is a factor of 0 or more, got ${String(beta)}`);
  if (!(Number.isInteger(docs) && docs > 0)) throw new RangeError(`denseFeedbackDocs is a positive whole number, got ${String(docs)}`);
  if (beta === 0 || ids.length === 0) return null;
  const q = await retriever.embed(question).catch(() => null);
  if (!q) return null;
  // Read a few more than needed: a turn may have no vector (not yet indexed).
  const wanted = ids.slice(0, docs * 2);
  const points = new Map((await retriever.stores.vectors.get(tenant, collectionFor('interaction'), [...wanted])).map((p) => [p.id, p.vector]));
  const best = wanted.flatMap((id) => points.get(id) ?? []).slice(0, docs);
  return best.length === 0 ? null : rocchio(q, best, beta);
}
