import type { GraphStore } from '../../graph/graph-store.js';
import type { ProfileUpdate } from '../../graph/memory-store.js';
import type { TenantId } from '../../graph/types.js';
import { taughtNames, withDerived, withTaughtNames } from '../interaction/participant-attributes.js';
import { couldBeName } from '../speaker/name-words.js';

/**
 * Apply extracted profile updates: a self-introduced name sets the display name when none is known (otherwise it
 * becomes an alias), recorded as taught (`TAUGHT_NAMES`); other attributes overwrite the derived attribute of the same
 * key, never one the client set itself by PATCH. The attributes are changed on those stored at the write, in one
 * transaction (`GraphStore.updateParticipantAttributes`), so a PATCH or another job's attribute landing meanwhile stays.
 */
export async function applyProfileUpdates(graph: GraphStore, tenant: TenantId, updates: ProfileUpdate[]): Promise<void> {
  const byParticipant = new Map<string, ProfileUpdate[]>();
  for (const u of updates) byParticipant.set(u.participantId, [...(byParticipant.get(u.participantId) ?? []), u]);
  for (const [id, list] of byParticipant) {
    const p = await graph.getParticipant(tenant, id);
    if (!p) continue;
    let name = p.name;
    const aliases = new Set(p.aliases);
    const taught = new Set<string>();
    const derived = list.filter((u) => u.attribute !== 'name');
    for (const u of list) {
      if (u.attribute !== 'name') continue;
      // An extractor (rules or a model) reading "my name is on the list" must not make "On" a name or alias; a name it
      // gives capitalised that is also a word ("River") is strong evidence (`couldBeName`).
      if (!couldBeName(u.value, undefined, true)) continue;
      const known = name !== null && name.toLowerCase() === u.value.toLowerCase();
      // Recorded only where this sets it: a name the client set, or an alias already held, is not the update's to take back.
      if (name === null || (!known && !p.aliases.some((a) => a.toLowerCase() === u.value.toLowerCase()))) taught.add(u.value.toLowerCase());
      if (name === null) name = u.value;
      else if (!known) aliases.add(u.value);
    }
    // Taught is recorded before the name is set: a cut between leaves a taught word nobody holds, which a revision
    // passes over, never a name set but not recorded as taught (a revision could not take it back).
    await graph.updateParticipantAttributes(tenant, id, (stored) => {
      let attributes = stored;
      for (const u of derived) attributes = withDerived(attributes, u.attribute, u.value);
      return taught.size > 0 ? withTaughtNames(attributes, [...taughtNames(attributes), ...taught]) : attributes;
    });
    if (name === p.name && aliases.size === p.aliases.length) continue;
    // Applied over the row as stored now, not as read before extraction: a PATCH rename meanwhile stays (only the new
    // words are added). A rename in the short window between this read and the write can still be overwritten.
    const fresh = await graph.getParticipant(tenant, id);
    if (!fresh) continue;
    const learned = [...(name !== p.name && name !== null ? [name] : []), ...[...aliases].filter((a) => !p.aliases.includes(a))];
    let nextName = fresh.name;
    const nextAliases = [...fresh.aliases];
    for (const word of learned) {
      const held = [nextName, ...nextAliases].some((n) => n?.toLowerCase() === word.toLowerCase());
      if (nextName === null) nextName = word;
      else if (!held) nextAliases.push(word);
    }
    if (nextName !== fresh.name || nextAliases.length !== fresh.aliases.length) await graph.updateParticipant(tenant, id, { name: nextName, aliases: nextAliases });
  }
}
