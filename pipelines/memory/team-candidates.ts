/**
 * What a change of a team's decision, plan or task owner may replace (team-decisions.ts), read from the stores: the facts
 * on its topic however long ago they were said, by the nearest vectors and the keywords of its topic nouns, only those
 * said where the change reaches (a session sharing two people with its own, or one its speaker was in).
 */
import type { GraphStore } from '../../graph/graph-store.js';
import type { LexicalIndex } from '../../graph/lexical-index.js';
import type { MemoryStore } from '../../graph/memory-store.js';
import type { TenantId, Utterance } from '../../graph/types.js';
import type { VectorStore } from '../../graph/vector-store.js';
import { collectionFor } from './collections.js';
import type { Candidate } from './decide.js';
import type { ExtractedFact, ExtractionResult } from './extractor.js';
import { changesDecision, topicWords } from './team-decisions.js';

/** The stores the search reads (a `FactWriteDeps` has them); without `lexical`, the newest facts stand in for the keywords. */
export interface TeamDeps {
  graph: GraphStore;
  memory: MemoryStore;
  vectors: VectorStore;
  lexical?: LexicalIndex;
}

/** Facts each topic search (nearest vectors, topic nouns' keywords) gives a team change to weigh (`teamCandidates`). */
const TOPIC_POOL = 50;

/** The newest facts weighed where no keyword search found anything (the search before teamleft, now a fallback). */
const RECENT_FACTS = 200;

/**
 * The deployment's current facts a change of a team's decision, plan or task owner may replace (`DecisionInput.team`),
 * whoever they are about, with their cosine to `vector`: those on its topic however long ago they were said, found by
 * the nearest vectors among all facts and by a keyword search for its topic nouns (`topicWords`); the newest facts too
 * only where no keyword search was made or it found nothing. The `k` nearest, and every keyword hit, each said where the
 * change reaches (`inTheCircle`). Facts only, never profile values.
 */
export async function teamCandidates(
  deps: TeamDeps, tenant: TenantId, said: Pick<Utterance, 'sessionId' | 'speakerId'>, ef: ExtractedFact, vector: Float32Array, k: number,
): Promise<Candidate[]> {
  const words = topicWords(ef.content);
  const [near, keyed] = await Promise.all([
    deps.vectors.search(tenant, collectionFor('fact'), vector, TOPIC_POOL),
    deps.lexical && words.length > 0 ? deps.lexical.search(tenant, words.join(' '), TOPIC_POOL, { layer: 'fact' }) : null,
  ]);
  const found = [...new Set([...near, ...keyed ?? []].map((h) => h.id))];
  const topical = found.length > 0 ? await deps.memory.listFacts(tenant, { ids: found, layer: 'fact', limit: found.length }) : [];
  const recent = keyed === null || keyed.length === 0 ? await deps.memory.listFacts(tenant, { layer: 'fact', limit: RECENT_FACTS }) : [];
  const pool = new Map([...recent, ...topical].map((f) => [f.id, f]));
  if (pool.size === 0) return [];
  const current = (keyed ?? []).map((h) => h.id).filter((id) => pool.has(id));
  const hits = [...await deps.vectors.search(tenant, collectionFor('fact'), vector, k, { ids: [...pool.keys()] }),
    ...current.length > 0 ? await deps.vectors.search(tenant, collectionFor('fact'), vector, current.length, { ids: current }) : []];
  const scored = new Map<string, Candidate>();
  for (const h of hits.sort((a, b) => b.score - a.score)) {
    const fact = pool.get(h.id);
    if (fact && !scored.has(h.id)) scored.set(h.id, { fact, score: h.score });
  }
  return inTheCircle(deps.graph, tenant, said, [...scored.values()]);
}

/** Turns of a session read for who took part in it (`sessionPeople`): its newest (a longer session is known by those). */
const SESSION_TURNS = 1000;

/**
 * `candidates` said where the change may reach them (meet1's design note): in its own session, in a session sharing two
 * participants or more with it, or in one its speaker took part in. A team's decision is no business of another team that
 * happens to use the same words.
 */
async function inTheCircle(graph: GraphStore, tenant: TenantId, said: Pick<Utterance, 'sessionId' | 'speakerId'>, candidates: Candidate[]): Promise<Candidate[]> {
  const others = [...new Set(candidates.map((c) => c.fact.sessionId))].filter((id) => id !== said.sessionId);
  if (others.length === 0) return candidates;
  const people = await sessionPeople(graph, tenant, [said.sessionId, ...others]);
  const here = people.get(said.sessionId) ?? new Set([said.speakerId]);
  return candidates.filter((c) => {
    if (c.fact.sessionId === said.sessionId) return true;
    const there = people.get(c.fact.sessionId) ?? new Set<string>();
    return there.has(said.speakerId) || [...here].filter((p) => there.has(p)).length >= 2;
  });
}

/** Who took part in each session, by id: the speakers and addressees of its newest `SESSION_TURNS` turns. */
async function sessionPeople(graph: GraphStore, tenant: TenantId, sessionIds: string[]): Promise<Map<string, Set<string>>> {
  const turns = await Promise.all(sessionIds.map((sessionId) => graph.queryInteractions(tenant, { sessionId, limit: SESSION_TURNS })));
  return new Map(sessionIds.map((id, i) => [id, new Set((turns[i] ?? []).flatMap((t) => [t.speakerId, ...t.addresseeIds]))]));
}

/** `candidates` whose facts are current still, as they read now, with the same scores. */
export async function stillCurrent(memory: MemoryStore, tenant: TenantId, candidates: readonly Candidate[]): Promise<Candidate[]> {
  if (candidates.length === 0) return [];
  const now = new Map((await memory.listFacts(tenant, { ids: candidates.map((c) => c.fact.id), limit: candidates.length })).map((f) => [f.id, f]));
  return candidates.flatMap((c) => {
    const fact = now.get(c.fact.id);
    return fact ? [{ fact, score: c.score }] : [];
  });
}

/**
 * What a team change among `extraction`'s facts may replace (`teamCandidates`), by the fact's index (undefined for a fact
 * that changes nothing), and their subjects: read before the consolidation takes its locks so it takes theirs too
 * (review12 F2); `writeFacts` weighs these (`WriteContext.team`), only those of subjects locked
 * (`WriteContext.lockedSubjects`).
 */
export async function teamSubjects(
  deps: TeamDeps, tenant: TenantId, u: Pick<Utterance, 'sessionId' | 'speakerId'>, extraction: ExtractionResult, vectors: Float32Array[], k: number,
): Promise<{ subjects: string[]; candidates: Array<Candidate[] | undefined> }> {
  const candidates = await Promise.all(extraction.facts.map(async (ef, i) => changesDecision(ef)
    ? teamCandidates(deps, tenant, u, ef, vectors[i + 1] as Float32Array, k) : undefined));
  return { subjects: [...new Set(candidates.flatMap((c) => c ?? []).map((c) => c.fact.subjectId))], candidates };
}
