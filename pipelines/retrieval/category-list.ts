import type { AgenticOptions } from './agentic-options.js';
import { categoryEntities, categoryTurns, namesOneOf } from './category-bridge.js';
import { categoryHead } from './category-head.js';
import type { ActionContext } from './question-tools.js';
import type { RankedList } from './rrf.js';
import { defaultWordNet } from './wordnet.js';

/** What the question's category brings to the loop. */
export interface CategoryEvidence {
  /** Round 1's category list (`categoryWeight`): none, or one list of turns. */
  lists: RankedList[];
  /** Whether a text names an instance of the category (`categoryBoost`); always false without one. */
  holdsInstance: (text: string) => boolean;
}

const NONE: CategoryEvidence = { lists: [], holdsInstance: () => false };

/**
 * The agentic loop's category evidence: for a question asking for a category by its head noun (`categoryHead`), its
 * instances among the left brain's entities (`categoryEntities`), as a list of the turns holding them (`categoryWeight`,
 * restricted to the named subjects' own turns with `categorySubjectOnly` and to the question's filters) and as a test
 * for the final boost (`categoryBoost`). Nothing when both are 0, the question names no category, or no instance is
 * close enough.
 */
export async function categoryEvidence(ctx: ActionContext, subjectIds: readonly string[], options: AgenticOptions): Promise<CategoryEvidence> {
  const weight = options.categoryWeight ?? 0;
  const boost = options.categoryBoost ?? 0;
  if (!(weight >= 0)) throw new RangeError(`categoryWeight is a weight of 0 or more, got ${String(weight)}`);
  if (!(boost >= 0)) throw new RangeError(`categoryBoost is a share of 0 or more, got ${String(boost)}`);
  if (weight === 0 && boost === 0) return NONE;
  const wordnet = options.wordnet ?? defaultWordNet();
  const category = categoryHead(ctx.question, wordnet);
  if (!category) return NONE;
  const { retriever, tenant, filters } = ctx;
  const found = await categoryEntities(retriever.nouns, retriever.embedder, tenant, category, {
    wordnet: (options.categoryWordNet ?? false) ? wordnet : null,
    ...(options.categoryEntities !== undefined ? { entities: options.categoryEntities } : {}),
    ...(options.categoryMinScore !== undefined ? { minScore: options.categoryMinScore } : {}),
  });
  const holdsInstance = boost > 0 ? namesOneOf(found.map((e) => e.key)) : NONE.holdsInstance;
  if (weight === 0 || found.length === 0) return { lists: [], holdsInstance };
  const ids = await categoryTurns(retriever.entities, tenant, found, { depth: ctx.depth * 2 });
  ctx.signal?.throwIfAborted();
  const speakers = (options.categorySubjectOnly ?? true) && subjectIds.length > 0 ? new Set(subjectIds) : null;
  const byId = new Map((await retriever.stores.graph.getUtterances(tenant, ids)).map((u) => [u.id, u]));
  const kept = ids.filter((id) => {
    const u = byId.get(id);
    return u !== undefined && (!speakers || speakers.has(u.speakerId)) && (!filters.speakerId || u.speakerId === filters.speakerId) &&
      (!filters.addresseeId || u.addresseeIds.includes(filters.addresseeId));
  });
  return { lists: kept.length > 0 ? [{ ids: kept.slice(0, ctx.depth), weight }] : [], holdsInstance };
}
