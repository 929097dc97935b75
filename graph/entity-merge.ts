/**
 * The merge rules every `EntityIndex` backend shares, written once: how an upsert's name and
 * aliases become keys, how aliases merge into an existing entity, and how per-entity memory lists
 * merge into one answer.
 */
import { entityKey } from './core/ids.js';
import type { EntityInput, EntityMemories } from './entity-index.js';

/** The key an upsert is matched by, and its other names as keys (each once, none equal to the key). */
export function upsertKeys(input: EntityInput): { key: string; aliases: string[] } {
  const key = entityKey(input.name);
  const aliases = [...new Set((input.aliases ?? []).map(entityKey).filter((a) => a && a !== key))];
  return { key, aliases };
}

/** Whether a description from turn `order` takes over a stored one from turn `stored` (`EntityInput.descriptionOrder`). */
export function describesEarlier(stored: string | null | undefined, order: string | null | undefined): boolean {
  return typeof stored === 'string' && stored !== '' && typeof order === 'string' && order < stored;
}

/** An existing entity's aliases with the new ones added, each once, never its own key. */
export function mergeAliases(existing: { key: string; aliases: string[] }, added: string[]): string[] {
  return [...new Set([...existing.aliases, ...added])].filter((a) => a !== existing.key);
}

/** One memory id of an entity's list, newest first, with its layer. */
export interface RankedMemory {
  id: string;
  kind: string;
}

/**
 * Merge per-entity lists (each newest first) round-robin, so every entity contributes: the first
 * of each list, then the second of each, …, skipping ids already taken, at most `limit` ids.
 */
export function mergeMemoryLists(lists: RankedMemory[][], limit: number): EntityMemories {
  const out: EntityMemories = { factIds: [], utteranceIds: [] };
  const seen = new Set<string>();
  for (let i = 0; seen.size < limit && lists.some((l) => i < l.length); i++) {
    for (const l of lists) {
      const m = l[i];
      if (!m || seen.has(m.id) || seen.size >= limit) continue;
      seen.add(m.id);
      (m.kind === 'fact' ? out.factIds : out.utteranceIds).push(m.id);
    }
  }
  return out;
}
