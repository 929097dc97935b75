import type { Stores } from '../../graph/stores.js';
import type { TenantId } from '../../graph/types.js';

/**
 * Everything consolidation stored for a tenant, with every generated id replaced by something that
 * does not change between runs (a fact by its text and validity, an utterance by the caller's label,
 * a participant by name, an entity by key) and every list sorted, so two runs over the same input
 * compare line by line: facts (text, slot, validity, history links), participants' profiles,
 * persona nodes, entities with their memories and links.
 */
export async function dumpMemory(stores: Stores, tenant: TenantId, utteranceLabel: Map<string, string>): Promise<string[]> {
  const lines: string[] = [];
  const participants = await stores.graph.listParticipants(tenant);
  const personOf = new Map(participants.map((p) => [p.id, p.name ?? `unnamed(${p.aliases.join('|')})`]));
  const who = (id: string): string => personOf.get(id) ?? id.replace(/^p_[0-9a-f]+$/, '?participant');
  const utt = (id: string): string => utteranceLabel.get(id) ?? '?utterance';

  const facts = [];
  for (let offset = 0; ; offset += 1000) {
    const page = await stores.memory.listFacts(tenant, { includeHistory: true, limit: 1000, offset });
    facts.push(...page);
    if (page.length < 1000) break;
  }
  const factLabel = new Map(facts.map((f) => [f.id, `${f.content} @${f.validFrom}`]));
  const fact = (id: string | null): string | null => (id === null ? null : factLabel.get(id) ?? '?fact');
  for (const f of facts) {
    lines.push(`fact ${JSON.stringify({
      content: f.content, kind: f.kind, layer: f.layer, slot: f.slot, value: f.value, subject: who(f.subjectId),
      speaker: who(f.speakerId), addressees: f.addresseeIds.map(who).sort(), time: f.time, eventTime: f.eventTime,
      validFrom: f.validFrom, validTo: f.validTo, validUntil: f.validUntil, supersedes: fact(f.supersedes),
      supersededBy: fact(f.supersededBy), refers: f.referIds.map(utt).sort(), confidence: f.confidence.toFixed(6),
      session: f.sessionId, source: f.source,
    })}`);
  }
  for (const p of participants) {
    lines.push(`participant ${JSON.stringify({ name: p.name, aliases: [...p.aliases].sort(), externalId: p.externalId, attributes: sortKeys(p.attributes) })}`);
    for (const n of await stores.memory.listPersona(tenant, p.id)) {
      lines.push(`persona ${JSON.stringify({
        who: who(n.participantId), kind: n.kind, target: n.target, valence: n.valence.toFixed(6), label: n.label,
        strength: n.strength.toFixed(6), count: n.evidenceCount, evidence: n.evidenceIds.map(utt), sessions: [...n.sessionIds].sort(),
        firstSeen: n.firstSeen, lastSeen: n.lastSeen, stable: n.stable,
      })}`);
    }
  }
  const names = await stores.entities.listNames(tenant);
  const entities = await stores.entities.getEntities(tenant, names.map((n) => n.id));
  const keyOf = new Map(entities.map((e) => [e.id, e.key]));
  for (const e of entities) {
    const memories = await stores.entities.memoriesOf(tenant, [e.id], 100_000);
    lines.push(`entity ${JSON.stringify({
      key: e.key, name: e.name, aliases: [...e.aliases].sort(), description: e.description, schema: e.schemaId, count: e.memoryCount,
      facts: memories.factIds.map((id) => fact(id)).sort(), utterances: memories.utteranceIds.map(utt).sort(),
    })}`);
  }
  for (const n of await stores.entities.neighbours(tenant, entities.map((e) => e.id), 100_000)) {
    lines.push(`link ${JSON.stringify({ a: keyOf.get(n.entityId), b: keyOf.get(n.neighbourId), strength: n.strength, weight: n.weight })}`);
  }
  return lines.sort();
}

function sortKeys(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
}
