import type { GraphStore } from '../../graph/graph-store.js';
import type { ProfileUpdate } from '../../graph/memory-store.js';
import type { TenantId } from '../../graph/types.js';
import { taughtNames, withDerived, withTaughtNames } from '../interaction/participant-attributes.js';
import { couldBeName } from '../speaker/name-words.js';

/**
 * Apply extracted profile updates through `GraphStore.updateParticipant`: a self-introduced name
 * sets the display name when none is known (otherwise it becomes an alias), recorded as taught (`TAUGHT_NAMES`); other attributes
 * overwrite the derived attribute of the same key, never one the client set itself by PATCH.
 */
export async function applyProfileUpdates(graph: GraphStore, tenant: TenantId, updates: ProfileUpdate[]): Promise<void> {
  const byParticipant = new Map<string, ProfileUpdate[]>();
  for (const u of updates) byParticipant.set(u.participantId, [...(byParticipant.get(u.participantId) ?? []), u]);
  for (const [id, list] of byParticipant) {
    const p = await graph.getParticipant(tenant, id);
    if (!p) continue;
    let name = p.name;
    const aliases = new Set(p.aliases);
    let attributes = p.attributes;
    const taught = taughtNames(attributes);
    for (const u of list) {
      if (u.attribute === 'name') {
        // An extractor (rules or a model) reading "my name is on the list" must not make "On" a name or alias.
        if (!couldBeName(u.value)) continue;
        const known = name !== null && name.toLowerCase() === u.value.toLowerCase();
        // Recorded only where this sets it: a name the client set, or an alias already held, is not the update's to take back.
        if (name === null || (!known && !p.aliases.some((a) => a.toLowerCase() === u.value.toLowerCase()))) taught.add(u.value.toLowerCase());
        if (name === null) name = u.value;
        else if (!known) aliases.add(u.value);
      } else {
        attributes = withDerived(attributes, u.attribute, u.value);
      }
    }
    await graph.updateParticipant(tenant, id, { name, aliases: [...aliases], attributes: withTaughtNames(attributes, taught) });
  }
}
