import { factEnded, type Fact, type PersonaNode } from '../../graph/memory-store.js';
import type { Stores } from '../../graph/stores.js';
import type { TenantId } from '../../graph/types.js';
import type { MemoryItem } from '../../graph/core/events.js';
import { factItem, personaItem, utteranceItem, type NameResolver } from './memory-items.js';
import { turnsClosedAt } from './validity.js';

type MemoryStores = Pick<Stores, 'graph' | 'memory'>;

const STOP = new Set(('a an and are as at be but by did do does for from had has have he her his i if in is it its me my of on ' +
  'or our she so that the their them they this to was we were what when where which who whom why will with would you your how ' +
  'about tell remember said say').split(' '));

/** Content words of a text, lower-case. */
export function contentWords(text: string): Set<string> {
  return new Set((text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length > 1 && !STOP.has(w)));
}

/** A persona node that shares words with the query. */
export interface PersonaCandidate {
  id: string;
  node: PersonaNode;
  /** Shared content words, then strength. */
  score: number;
}

/**
 * The right brain: persona nodes of the asker and of participants named in the text whose target
 * shares a content word with the text, best first (at most 5).
 */
export async function personaCandidates(
  stores: MemoryStores, tenant: TenantId, text: string, askerId: string | null,
): Promise<PersonaCandidate[]> {
  const words = contentWords(text);
  if (words.size === 0) return [];
  const people = new Set<string>(askerId ? [askerId] : []);
  // A whole name equal to a content word is one word of it: read just the participants holding those words.
  for (const p of await stores.graph.findParticipantsByWords(tenant, [...words])) {
    if ([p.name, ...p.aliases].some((n) => n && words.has(n.toLowerCase()))) people.add(p.id);
  }
  const nodes = (await Promise.all([...people].map((id) => stores.memory.listPersona(tenant, id)))).flat();
  const scored: PersonaCandidate[] = [];
  for (const node of nodes) {
    const shared = [...contentWords(node.target)].filter((w) => words.has(w)).length;
    if (shared > 0) scored.push({ id: node.id, node, score: shared + node.strength });
  }
  return scored.sort((a, b) => b.score - a.score).slice(0, 5);
}

/**
 * Turn fused ids into MemoryItems (interaction, fact / profile, persona), boosting those by, to or
 * about the asker, best first. Ids no longer stored (erased, closed) are dropped. A turn whose facts
 * were all replaced or retracted (or ended by their own words), and a fact past its own end, are
 * marked superseded and keep `supersededFactor` of their score. A fact `skipFact` says is left out (a self-introduction
 * for a turn that asks no name).
 */
export async function hydrate(
  stores: MemoryStores, names: NameResolver, tenant: TenantId, fused: { id: string; score: number }[],
  persona: PersonaCandidate[], askerId: string | null, boost: number, supersededFactor = 0.5, skipFact?: (f: Fact) => boolean,
): Promise<MemoryItem[]> {
  const ids = fused.map((f) => f.id);
  const personaById = new Map(persona.map((p) => [p.id, p.node]));
  const rest = ids.filter((id) => !personaById.has(id));
  const [utterances, facts] = await Promise.all([
    stores.graph.getUtterances(tenant, rest),
    rest.length > 0 ? stores.memory.listFacts(tenant, { ids: rest, limit: rest.length }) : Promise.resolve([]),
  ]);
  const uById = new Map(utterances.map((u) => [u.id, u]));
  const now = new Date().toISOString();
  // Every name the items show, fetched at once and alongside the validity lookup: resolved item by
  // item, each would be a store round trip of its own (a Neo4j graph made that most of a turn's time).
  const people = [...utterances.flatMap((u) => [u.speakerId, ...u.addresseeIds]), ...facts.flatMap((f) => [f.speakerId, ...f.addresseeIds]),
    ...persona.map((p) => p.node.participantId)];
  const [closedAt] = await Promise.all([turnsClosedAt(stores, tenant, utterances, now), names.prefetch(people)]);
  const fById = new Map(facts.map((f) => [f.id, f]));
  // A fact item carries the words of its source turns.
  const sourceIds = [...new Set(facts.flatMap((f) => f.referIds))].filter((r) => !uById.has(r));
  const sourceById = new Map([...uById, ...(await stores.graph.getUtterances(tenant, sourceIds)).map((u) => [u.id, u] as const)]);
  const said = (ids: string[]): string | null => {
    const texts = ids.flatMap((r) => sourceById.get(r)?.text ?? []);
    return texts.length > 0 ? texts.join(' … ') : null;
  };
  const items: MemoryItem[] = [];
  for (const { id, score } of fused) {
    const u = uById.get(id);
    const f = fById.get(id);
    const p = personaById.get(id);
    const involved = askerId !== null && (
      (u && (u.speakerId === askerId || u.addresseeIds.includes(askerId))) ||
      (f && (f.speakerId === askerId || f.subjectId === askerId || f.addresseeIds.includes(askerId))) ||
      (p && p.participantId === askerId));
    const s = (involved ? score * (1 + boost) : score) * ((u && closedAt.has(u.id)) || (f && factEnded(f, now)) ? supersededFactor : 1);
    if (u) items.push(await utteranceItem(names, u, s, closedAt.get(u.id) ?? null));
    else if (f && !skipFact?.(f)) items.push(await factItem(names, f, s, now, said(f.referIds)));
    else if (p) items.push(await personaItem(names, p, s));
  }
  return items.sort((a, b) => b.score - a.score);
}
