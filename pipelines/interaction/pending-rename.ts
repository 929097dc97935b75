import { PENDING_RENAME_KEY, type ParticipantNames } from '../../graph/graph-store.js';
import type { Participant } from '../../graph/types.js';

/**
 * Where a rename records the memory rewrite it still owes (`renameInFacts`): written before the name by a PATCH, with
 * it by a name learned later (speech, profile updates, a merge: `withLearnedName`), cleared once the memories say the
 * new name. A rewrite cut short (a store error, a crash) is then finished by the same PATCH sent again, the next
 * consolidation job of the participant, or the next start (`finishPendingRenames`), which would otherwise leave
 * memories with the old label for good. Bookkeeping: never shown, never settable by a client.
 */
export const PENDING_RENAME = PENDING_RENAME_KEY;

/**
 * The rewrite owed: every old label (null: "an unnamed speaker") to become `to`; with `facts`, in those facts only (a
 * merge of an unnamed voice into a named person: the voice's facts, never the person's own, whose "an unnamed speaker"
 * was always someone else).
 */
export interface PendingRename {
  from: (string | null)[];
  to: string;
  facts?: string[];
}

/** The pending rename stored in `attributes`, if any is well-formed. */
export function pendingRenameOf(attributes: Record<string, unknown>): PendingRename | null {
  const v = attributes[PENDING_RENAME];
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  const { from, to, facts } = v as { from?: unknown; to?: unknown; facts?: unknown };
  if (typeof to !== 'string' || !Array.isArray(from)) return null;
  const owed: PendingRename = { from: from.filter((f): f is string | null => f === null || typeof f === 'string'), to };
  if (Array.isArray(facts)) owed.facts = facts.filter((f): f is string => typeof f === 'string');
  return owed;
}

/**
 * The rewrite a PATCH setting `name` on `target` (as read before the patch) owes: from the current name (and the
 * labels of a rename still owed to it, so "A"→"B" cut short then "B"→"C" rewrites both), or, when the name is
 * already `name`, the one still owed to it (a retry). Null when nothing is owed.
 */
export function renameOwed(target: Pick<Participant, 'name' | 'attributes'>, name: string | null | undefined): PendingRename | null {
  if (!name) return null;
  const stored = pendingRenameOf(target.attributes);
  // One limited to some facts (a merge's) is finished by its own path; a PATCH owes the rewrite of every fact.
  const owedToCurrent = stored !== null && stored.to === target.name && stored.facts === undefined;
  if (name === target.name) return owedToCurrent ? stored : null;
  const from = [...(owedToCurrent ? stored.from : []), target.name].filter((f) => f !== name);
  return { from: [...new Set(from)], to: name };
}

/** Whether `stored` (an attribute value) is the pending rename `p`: only that one is cleared when done. */
export function isPendingRename(stored: unknown, p: PendingRename): boolean {
  const s = pendingRenameOf({ [PENDING_RENAME]: stored });
  const sameFacts = (s?.facts ?? []).join('\n') === (p.facts ?? []).join('\n') && (s?.facts === undefined) === (p.facts === undefined);
  return s !== null && s.to === p.to && s.from.length === p.from.length && s.from.every((f, i) => f === p.from[i]) && sameFacts;
}

/**
 * `stored` with `name` learned after the fact (from speech, profile updates or a merge): the display name when it has
 * none, with the rewrite of their memories that say "an unnamed speaker" (or "the caller") owed in the same write
 * (`PENDING_RENAME`); otherwise an alias, which owes nothing. The very object given when `name` is held already.
 */
export function withLearnedName(stored: ParticipantNames, name: string): ParticipantNames {
  if ([stored.name, ...stored.aliases].some((n) => n?.toLowerCase() === name.toLowerCase())) return stored;
  if (stored.name !== null) return { ...stored, aliases: [...stored.aliases, name] };
  const owed = renameOwed(stored, name);
  return { ...stored, name, attributes: owed ? { ...stored.attributes, [PENDING_RENAME]: owed } : stored.attributes };
}
