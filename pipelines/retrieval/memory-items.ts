import type { GraphStore } from '../../graph/graph-store.js';
import type { TenantId, Utterance } from '../../graph/types.js';
import type { MemoryItem } from '../../server/protocol/server-events.js';

/** Turn stored utterances into interaction-layer MemoryItems with participant names resolved. */
export async function utterancesToItems(
  graph: GraphStore,
  tenant: TenantId,
  utterances: { utterance: Utterance; score: number }[],
): Promise<MemoryItem[]> {
  const names = new Map<string, string | null>();
  const nameOf = async (id: string): Promise<{ id: string; name: string | null }> => {
    if (!names.has(id)) names.set(id, (await graph.getParticipant(tenant, id))?.name ?? null);
    return { id, name: names.get(id) ?? null };
  };
  const items: MemoryItem[] = [];
  for (const { utterance: u, score } of utterances) {
    items.push({
      id: u.id,
      layer: 'interaction',
      text: u.text,
      speaker: await nameOf(u.speakerId),
      addressees: await Promise.all(u.addresseeIds.map(nameOf)),
      refer_ids: [u.id],
      session_id: u.sessionId,
      time: u.time,
      score,
    });
  }
  return items;
}
