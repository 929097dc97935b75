import type { Stores } from '../../graph/stores.js';
import type { TenantId } from '../../graph/types.js';
import type { TextEmbedder } from '../embeddings/text-embedder.js';
import type { MinAsrConfidence } from '../memory/doubtful-speech.js';
import { MemoryIndexer } from '../memory/memory-indexer.js';
import { speakerLockKey } from '../memory/subject-lock.js';
import { ENTITY_COLLECTION } from '../retrieval/left-brain-job.js';
import { entityKey } from '../../graph/core/ids.js';
import { derivedSlotOf, type DerivedSlot } from './derived-attributes.js';
import { candidateFragments, identifyingValues, isContactSlot, redactText } from './redact-mentions.js';

/** How many candidate utterances are read at once. */
const PAGE = 500;

/**
 * The identifying values participant `participantId` gave (`identifyingValues`): their profile attributes and the
 * slots of their own facts (`factIds`, history included) of contact kinds, and what their own words (`texts`) hold;
 * less any a living participant also holds (`heldByLiving`: a spouse's shared address or landline).
 */
export async function statedValues(stores: Stores, tenant: TenantId, participantId: string, factIds: readonly string[], texts: readonly string[]): Promise<string[]> {
  const person = await stores.graph.getParticipant(tenant, participantId);
  const stated = Object.entries(person?.attributes ?? {}).map(([key, value]) => ({ key, value }));
  for (let i = 0; i < factIds.length; i += 1000) {
    const page = await stores.memory.listFacts(tenant, { ids: factIds.slice(i, i + 1000), includeHistory: true, limit: 1000 });
    for (const f of page) if (f.subjectId === participantId && f.slot && f.value) stated.push({ key: f.slot, value: f.value });
  }
  const values = identifyingValues(stated, texts);
  const held = await heldByLiving(stores, tenant, participantId, values);
  return values.filter((v) => !held.some((text) => redactText(text, [], [v]) !== text));
}

/** Words by which a speaker states a value as their own: "my address is", "our landline", "we live at", "call me on". */
const STATES_OWN = /\b(?:my|our)\b|\b(?:I|we)\s*(?:live|lived|am|'m|are|'re)\b|\b(?:call|ring|reach|phone|text|email|e-mail|write to|find)\s+(?:me|us)\b/i;

/**
 * Texts in which a living participant (anyone but `participantId`) holds one of `values`: the values of their profile
 * attributes, their own turns stating one as theirs (`STATES_OWN`: "My address is 12 Elm Street"), and the contact
 * slot values of facts about them made from turns holding one. Such a value is never redacted: it is theirs too.
 */
async function heldByLiving(stores: Stores, tenant: TenantId, participantId: string, values: readonly string[]): Promise<string[]> {
  if (values.length === 0) return [];
  const held: string[] = [];
  for (let after: { createdAt: string; id: string } | undefined; ;) {
    const page = await stores.graph.listParticipants(tenant, { limit: PAGE, ...(after ? { after } : {}) });
    for (const p of page) {
      if (p.id === participantId) continue;
      for (const [key, value] of Object.entries(p.attributes)) if (!key.startsWith('$') && (typeof value === 'string' || typeof value === 'number')) held.push(String(value));
    }
    if (page.length < PAGE) break;
    const last = page[page.length - 1]!;
    after = { createdAt: last.createdAt, id: last.id };
  }
  const turns: string[] = [];
  const fragments = candidateFragments([], values);
  for (let afterId: string | undefined; fragments.length > 0;) {
    const page = await stores.graph.utterancesContaining(tenant, fragments, { limit: PAGE, ...(afterId ? { afterId } : {}) });
    for (const u of page) {
      if (u.speakerId === participantId) continue;
      turns.push(u.id);
      if (STATES_OWN.test(u.text)) held.push(u.text);
    }
    if (page.length < PAGE) break;
    afterId = page[page.length - 1]!.id;
  }
  for (let i = 0; i < turns.length; i += 1000) {
    const made = [...new Set([...(await stores.memory.processedFactsOf(tenant, turns.slice(i, i + 1000))).values()].flat())];
    for (let j = 0; j < made.length; j += 1000) {
      const facts = await stores.memory.listFacts(tenant, { ids: made.slice(j, j + 1000), includeHistory: true, limit: 1000 });
      for (const f of facts) if (f.subjectId !== participantId && f.slot && f.value && isContactSlot(f.slot)) held.push(f.value);
    }
  }
  return held;
}

/** What redacting other people's turns needs of the erasure's plan. */
export interface MentionRedaction {
  participantId: string;
  /** The names a text names them by (`namesInFacts`): whole words, case as written. */
  names: readonly string[];
  /** Their identifying values (`statedValues`). */
  values: readonly string[];
  /** Utterances redacted already by an earlier run, to index again. */
  redacted: readonly string[];
  /** Their own utterances: erased whole, never redacted. */
  spoken: readonly string[];
}

/**
 * Replace the erased person's names and identifying values in other people's utterances with `[erased]`, and index
 * each such utterance again (keyword entry, and a vector of the new text) without them among its addressees. The ids
 * and texts as they read before are handed to `record` first (the pending erasure keeps them: a run cut short after
 * the rewrite indexes them again, and the left brain rewrites what quotes the old texts). Text holding none of them is
 * never touched. Each step may run again.
 */
export async function redactMentions(
  deps: ReindexDeps, tenant: TenantId, what: MentionRedaction,
  record: (ids: string[], texts: string[]) => Promise<void>,
): Promise<void> {
  const { stores } = deps;
  const own = new Set(what.spoken);
  const fragments = candidateFragments(what.names, what.values);
  const changed: { id: string; text: string; before: string }[] = [];
  for (let afterId: string | undefined; fragments.length > 0;) {
    const page = await stores.graph.utterancesContaining(tenant, fragments, { limit: PAGE, ...(afterId ? { afterId } : {}) });
    for (const u of page) {
      if (own.has(u.id) || u.speakerId === what.participantId) continue;
      const text = redactText(u.text, what.names, what.values);
      if (text !== u.text) changed.push({ id: u.id, text, before: u.text });
    }
    if (page.length < PAGE) break;
    afterId = page[page.length - 1]!.id;
  }
  if (changed.length > 0) {
    await record(changed.map((c) => c.id), changed.map((c) => c.before));
    await stores.graph.setUtteranceTexts(tenant, changed.map(({ id, text }) => ({ id, text })));
  }
  await reindexWithout(deps, tenant, what.participantId, [...new Set([...what.redacted, ...changed.map((c) => c.id)])]);
}

/** What indexing other people's utterances again needs: the doubtful-speech gate (`memory.minAsrConfidence`) too. */
export interface ReindexDeps {
  stores: Stores;
  embedder: TextEmbedder;
  minAsrConfidence: MinAsrConfidence;
}

/**
 * Index other people's utterances again as the graph holds them now, without the erased person among their addressees
 * (a stored vector is reused while its text is unchanged, and a redacted text embedded anew); one heard doubtfully
 * (`doubtfulSpeech`) stays out of search (`MemoryIndexer.indexUtterance`).
 */
export async function reindexWithout(deps: ReindexDeps, tenant: TenantId, participantId: string, utteranceIds: readonly string[]): Promise<void> {
  const indexer = new MemoryIndexer(deps.stores.vectors, deps.stores.lexical, deps.embedder, deps.minAsrConfidence);
  for (const id of utteranceIds) {
    const speaker = (await deps.stores.graph.getUtterance(tenant, id))?.speakerId;
    if (!speaker) continue;
    // Under the speaker's lock, which a consolidation job indexing the turn holds: one that read it before the rewrite
    // finds it changed, or has indexed the old text before this indexes the new one.
    await deps.stores.locks.withLock([speakerLockKey(tenant, speaker)], async () => {
      const u = await deps.stores.graph.getUtterance(tenant, id);
      if (!u) return;
      const [vector] = await indexer.vectorsFor(tenant, [{ id: u.id, layer: 'interaction', text: u.text }]);
      if (vector) await indexer.indexUtterance(tenant, { ...u, addresseeIds: u.addresseeIds.filter((a) => a !== participantId) }, vector);
    });
  }
}

/**
 * Delete the left-brain entities named by one of `values` or a part of one ("Vessingham" of "12 Elm Street,
 * Vessingham") that stand on nothing but redacted turns (`redacted`): made from a read-back, they name what it no longer
 * says. One about any other memory stays (someone else's "Elm Street"). Vector first, then the entity; may run again.
 */
export async function eraseValueEntities(stores: Stores, tenant: TenantId, values: readonly string[], redacted: readonly string[]): Promise<void> {
  const keys = [...new Set(values.flatMap((v) => [v, ...v.split(/[,;\n]/)]).map(entityKey).filter((k) => k.length >= 3))];
  if (keys.length === 0 || redacted.length === 0) return;
  const gone = new Set(redacted);
  const ids: string[] = [];
  for (const e of await stores.entities.findByNames(tenant, keys)) {
    const { factIds, utteranceIds } = await stores.entities.memoriesOf(tenant, [e.id], 100_000);
    if ([...factIds, ...utteranceIds].every((id) => gone.has(id))) ids.push(e.id);
  }
  if (ids.length === 0) return;
  await stores.vectors.delete(tenant, ENTITY_COLLECTION, ids);
  await stores.entities.deleteEntities(tenant, ids);
}

/**
 * Facts consolidation made from redacted turns (`redacted`) whose text holds one of `names` or `values` (an agent's
 * "Note to self: ilvane.d@example.org confirmed"): they go with the person, as facts naming them do. Their ids, history
 * included, the turns they came from, and the derived attributes of others (not `participantId`) they may have set.
 */
export async function factsHoldingValues(
  stores: Stores, tenant: TenantId, participantId: string, what: { redacted: readonly string[]; names: readonly string[]; values: readonly string[] },
): Promise<{ ids: string[]; sources: string[]; slots: DerivedSlot[] }> {
  const made = what.redacted.length > 0 ? [...new Set([...(await stores.memory.processedFactsOf(tenant, [...what.redacted])).values()].flat())] : [];
  const out = { ids: [] as string[], sources: [] as string[], slots: [] as DerivedSlot[] };
  for (let i = 0; i < made.length; i += 1000) {
    const page = await stores.memory.listFacts(tenant, { ids: made.slice(i, i + 1000), includeHistory: true, limit: 1000 });
    for (const f of page.filter((f) => redactText(f.content, what.names, what.values) !== f.content)) {
      out.ids.push(f.id);
      out.sources.push(...f.referIds);
      out.slots.push(...derivedSlotOf(f).filter((s) => s.participantId !== participantId));
    }
  }
  return out;
}
