import type { GraphStore } from '../../graph/graph-store.js';
import type { ProfileUpdate } from '../../graph/memory-store.js';
import type { TenantId } from '../../graph/types.js';
import { taughtNames, withDerived, withTaughtNames } from '../interaction/participant-attributes.js';
import { couldBeName } from '../speaker/name-words.js';
import { pendingRenameOf, withLearnedName } from '../interaction/pending-rename.js';
import { NAME_REFUSED, contradictedSelfName } from '../interaction/name-conflict.js';
import type { Logger } from 'pino';

/**
 * Apply extracted profile updates: a self-introduced name sets the display name when none is known (otherwise it
 * becomes an alias), recorded as taught (`TAUGHT_NAMES`), and a display name set so owes the rewrite of the memories
 * that called them "an unnamed speaker" (`withLearnedName`; the consolidation job finishes it); other attributes
 * overwrite the derived attribute of the same key, never one the client set itself by PATCH. Names, aliases and
 * attributes are changed on those stored at the write, in one transaction (`GraphStore.updateParticipantNames`), so a
 * PATCH rename or another job's attribute landing meanwhile stays. Returns the participants it named (a rewrite owed).
 */
export async function applyProfileUpdates(
  graph: GraphStore, tenant: TenantId, updates: ProfileUpdate[], said?: { text: string; logger?: Pick<Logger, 'warn'> },
): Promise<string[]> {
  const byParticipant = new Map<string, ProfileUpdate[]>();
  for (const u of updates) byParticipant.set(u.participantId, [...(byParticipant.get(u.participantId) ?? []), u]);
  const named: string[] = [];
  for (const [id, list] of byParticipant) {
    // An extractor (rules or a model) reading "my name is on the list" must not make "On" a name or alias; a name it
    // gives capitalised that is also a word ("River") is strong evidence (`couldBeName`).
    const words = list.flatMap((u) => (u.attribute === 'name' && couldBeName(u.value, undefined, true) ? [u.value] : []));
    const derived = list.filter((u) => u.attribute !== 'name');
    const refused: { kept: string; refused: string }[] = [];
    const p = await graph.updateParticipantNames(tenant, id, (stored) => {
      refused.length = 0;
      let attributes = stored.attributes;
      for (const u of derived) attributes = withDerived(attributes, u.attribute, u.value);
      let next = attributes === stored.attributes ? stored : { ...stored, attributes };
      // Recorded as taught only where this sets it: a name the client set, or an alias already held, is not the update's to take back.
      const taught: string[] = [];
      for (const word of words) {
        // Introduced as Priya, now "I'm Bob": another person under the same label, most likely; Priya is kept (name-conflict.ts).
        const kept = contradictedSelfName(next, word, said?.text);
        if (kept !== null) {
          refused.push({ kept, refused: word });
          continue;
        }
        const learned = withLearnedName(next, word);
        if (learned !== next) taught.push(word.toLowerCase());
        next = learned;
      }
      return taught.length > 0 ? { ...next, attributes: withTaughtNames(next.attributes, [...taughtNames(next.attributes), ...taught]) } : next;
    });
    for (const r of refused) {
      said?.logger?.warn({ participantId: id, name: r }, NAME_REFUSED);
    }
        if (p && pendingRenameOf(p.attributes) !== null) named.push(id);
  }
  return named;
}
