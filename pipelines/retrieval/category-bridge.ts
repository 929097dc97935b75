import type { EntityIndex } from '../../graph/entity-index.js';
import type { TenantId } from '../../graph/types.js';
import { cosine, type TextEmbedder } from '../embeddings/text-embedder.js';
import type { CategoryHead } from './category-head.js';
import type { WordNet } from './wordnet.js';

/** Nearest ancestor synsets of a noun's first sense read for `isKindOf`: far ones ("object", "whole") hold nearly everything. */
const KIND_STEPS = 4;
/**
 * What an entity WordNet files under the category adds to its cosine: a tie-breaker, not a match of its own (WordNet
 * files "clock" under "instrument" too, in a sense the question rarely means).
 */
const KIND_BONUS = 0.1;
/** Most entity names embedded in one call to the embedder. */
const EMBED_BATCH = 64;

interface TenantNouns {
  version: number;
  /** Entity id → its key (the noun phrase the left brain recorded, lower-case). */
  keys: Map<string, string>;
}

/**
 * Word-level vectors of the left brain's entities (the noun runs the entity index recorded for each turn and fact:
 * "violin", "new shoes", "kickboxing"), each name embedded alone with the text embedder, so a category word can be
 * compared with the instances memory holds. Vectors are cached per distinct name per tenant and embedded only for names
 * not seen before (a new index version reads the names again, not their vectors); `forget` drops a tenant's.
 */
export class NounVectors {
  readonly #tenants = new Map<TenantId, TenantNouns>();
  readonly #vectors = new Map<TenantId, Map<string, Float32Array>>();

  constructor(private readonly index: EntityIndex, private readonly embedder: TextEmbedder) {}

  /** Erasure: forget the tenant's names and vectors (they may hold an erased person's words). */
  forget(tenant: TenantId): void {
    this.#tenants.delete(tenant);
    this.#vectors.delete(tenant);
  }

  /** How many name vectors the tenant has cached. */
  cached(tenant: TenantId): number {
    return this.#vectors.get(tenant)?.size ?? 0;
  }

  /** Every entity of the tenant with its name's vector (names embedded now when new). */
  async entities(tenant: TenantId): Promise<Array<{ id: string; key: string; vector: Float32Array }>> {
    const version = await this.index.version(tenant);
    let nouns = this.#tenants.get(tenant);
    if (!nouns || nouns.version !== version) {
      const names = await this.index.listNames(tenant);
      nouns = { version, keys: new Map(names.map((n) => [n.id, n.key])) };
      this.#tenants.set(tenant, nouns);
    }
    let vectors = this.#vectors.get(tenant);
    if (!vectors) {
      vectors = new Map();
      this.#vectors.set(tenant, vectors);
    }
    const missing = [...new Set([...nouns.keys.values()].filter((k) => !vectors.has(k)))];
    for (let i = 0; i < missing.length; i += EMBED_BATCH) {
      const batch = missing.slice(i, i + EMBED_BATCH);
      const got = await this.embedder.embed(batch);
      batch.forEach((k, j) => vectors.set(k, got[j] as Float32Array));
    }
    return [...nouns.keys].flatMap(([id, key]) => {
      const vector = vectors.get(key);
      return vector ? [{ id, key, vector }] : [];
    });
  }
}

/** Options of `categoryTurns`. */
export interface CategoryTurnOptions {
  /** Most entities taken, closest first; default 8. */
  entities?: number;
  /** Least cosine between the category word and an entity's name; default 0.72. */
  minScore?: number;
  /** With WordNet: an entity it files under the category ("violin" under "instrument") gains `KIND_BONUS`; default none. */
  wordnet?: WordNet | null;
  /** Most turn ids returned; default 40. */
  depth?: number;
}

/** An entity scored against a category word, with how. */
export interface CategoryEntity { id: string; key: string; score: number }

/**
 * Entities that are instances of the category: the names closest to the category word by cosine (the category's own
 * word left out, which keyword search finds anyway), those WordNet files under the category a little closer. Best first,
 * at most `entities`.
 */
export async function categoryEntities(
  nouns: NounVectors, embedder: TextEmbedder, tenant: TenantId, category: CategoryHead, options: CategoryTurnOptions = {},
): Promise<CategoryEntity[]> {
  const minScore = options.minScore ?? 0.72;
  const [entities, [query]] = await Promise.all([nouns.entities(tenant), embedder.embed([category.phrase])]);
  if (!query) return [];
  const wordnet = options.wordnet?.available ? options.wordnet : null;
  const own = new Set([category.head, category.phrase]);
  const scored: CategoryEntity[] = [];
  for (const e of entities) {
    const words = e.key.split(' ');
    const last = words[words.length - 1] as string;
    const base = wordnet ? wordnet.baseForms(last, 'noun')[0] ?? last : last.replace(/([^s])s$/, '$1');
    if (own.has(base) || own.has(e.key)) continue;
    let score = cosine(query, e.vector);
    if (wordnet && isKindOf(wordnet, base, category)) score += KIND_BONUS;
    if (score >= minScore) scored.push({ id: e.id, key: e.key, score });
  }
  return scored.sort((a, b) => b.score - a.score || a.key.localeCompare(b.key)).slice(0, options.entities ?? 8);
}

/**
 * Turns that hold an instance of the question's category (`categoryEntities`), ranked by their best entity's score: the
 * entity index's turns and the source turns of its facts. Turns spoken by others than `speakers` (when given) are left out.
 */
export async function categoryTurns(
  index: EntityIndex, tenant: TenantId, found: readonly CategoryEntity[], options: Pick<CategoryTurnOptions, 'depth'> = {},
): Promise<string[]> {
  const depth = options.depth ?? 40;
  const out: string[] = [];
  const seen = new Set<string>();
  for (const e of found) {
    const m = await index.memoriesOf(tenant, [e.id], depth);
    for (const id of m.utteranceIds) {
      if (seen.has(id)) continue;
      seen.add(id);
      out.push(id);
    }
    if (out.length >= depth) break;
  }
  return out.slice(0, depth);
}

/** A test of whether a text names one of `keys` (entity names, lower-case) as whole words. */
export function namesOneOf(keys: readonly string[]): (text: string) => boolean {
  if (keys.length === 0) return () => false;
  const escaped = keys.map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+'));
  const re = new RegExp(`(?<![\\p{L}\\p{N}])(?:${escaped.join('|')})(?![\\p{L}\\p{N}])`, 'iu');
  return (text) => re.test(text);
}

/** Whether WordNet files `noun` under the category: its most common noun sense has a near ancestor synset naming it. */
function isKindOf(wordnet: WordNet, noun: string, category: CategoryHead): boolean {
  const targets = new Set([category.head, category.phrase.replace(/ /g, '_')]);
  return wordnet.nounKinds(noun).some((k) => k.ancestors.slice(0, KIND_STEPS)
    .some((a) => targets.has(a) || a.endsWith(`_${category.head}`)));
}
