/** The Neo4j memory store's schema, and the facts its `(:Fact)` nodes hold. */
import type { Fact, FactKind, FactLayer, PlanObject } from '../memory-store.js';
import { toNum } from './neo4j-connection.js';
import { optString, stringList, type Props } from './neo4j-store-base.js';

/**
 * The full-text index of fact texts (Lucene's `simple` analyzer: a term is a run of letters, lower-cased). Erasure seeks
 * the facts naming a person through it (`erasedFactIds`) instead of reading every fact of the tenant.
 */
export const FACT_WORDS_INDEX = 'parley_fact_words';

/** Schema statements run once at start-up; each is idempotent. */
export const MEMORY_SCHEMA = [
  'CREATE CONSTRAINT parley_fact_key IF NOT EXISTS FOR (n:Fact) REQUIRE (n.tenant, n.id) IS UNIQUE',
  'CREATE CONSTRAINT parley_persona_key IF NOT EXISTS FOR (n:PersonaNode) REQUIRE (n.tenant, n.id) IS UNIQUE',
  'CREATE CONSTRAINT parley_persona_target IF NOT EXISTS FOR (n:PersonaNode) REQUIRE (n.tenant, n.participantId, n.kind, n.target) IS UNIQUE',
  'CREATE CONSTRAINT parley_processed_key IF NOT EXISTS FOR (n:ProcessedUtterance) REQUIRE (n.tenant, n.utteranceId) IS UNIQUE',
  'CREATE INDEX parley_processed_speaker IF NOT EXISTS FOR (n:ProcessedUtterance) ON (n.tenant, n.speakerId)',
  'CREATE CONSTRAINT parley_kept_extraction_key IF NOT EXISTS FOR (n:KeptExtraction) REQUIRE (n.tenant, n.utteranceId) IS UNIQUE',
  // Open facts (`validTo IS NULL`, which no index holds) seek the tenant's facts.
  'CREATE INDEX parley_fact_tenant IF NOT EXISTS FOR (n:Fact) ON (n.tenant)',
  'CREATE INDEX parley_fact_slot IF NOT EXISTS FOR (n:Fact) ON (n.tenant, n.slot)',
  'CREATE INDEX parley_fact_supersedes IF NOT EXISTS FOR (n:Fact) ON (n.tenant, n.supersedes)',
  'CREATE INDEX parley_fact_valid_to IF NOT EXISTS FOR (n:Fact) ON (n.tenant, n.validTo)',
  // Facts with an end of their own (no other has the property), for the sweep of ended states.
  'CREATE INDEX parley_fact_valid_until IF NOT EXISTS FOR (n:Fact) ON (n.tenant, n.validUntil)',
  'CREATE INDEX parley_fact_subject IF NOT EXISTS FOR (n:Fact) ON (n.tenant, n.subjectId)',
  'CREATE INDEX parley_fact_speaker IF NOT EXISTS FOR (n:Fact) ON (n.tenant, n.speakerId)',
  'CREATE INDEX parley_fact_session IF NOT EXISTS FOR (n:Fact) ON (n.tenant, n.sessionId)',
  'CREATE INDEX parley_persona_participant IF NOT EXISTS FOR (n:PersonaNode) ON (n.tenant, n.participantId)',
  // Addressees, one key node per (tenant, participant id), even for ids no participant has yet:
  // `(:Utterance|Fact)-[:ADDRESSED]->(:Addressee)` makes "addressed to X" an index seek and an expand.
  'CREATE CONSTRAINT parley_addressee_key IF NOT EXISTS FOR (n:Addressee) REQUIRE (n.tenant, n.id) IS UNIQUE',
  // Fact texts by their words (an erasure's facts naming the person, `FACT_WORDS_INDEX`): letters only, any case, so a
  // whole-word name as `textNames` finds it is always one of its hits. Kept in each write's transaction.
  `CREATE FULLTEXT INDEX ${FACT_WORDS_INDEX} IF NOT EXISTS FOR (n:Fact) ON EACH [n.content]
   OPTIONS {indexConfig: {\`fulltext.analyzer\`: 'simple', \`fulltext.eventually_consistent\`: false}}`,
  `CALL db.awaitIndex('${FACT_WORDS_INDEX}', 300)`,
];

/** A fact's `planObject` property (JSON text; absent on facts stored before it existed: null). */
function planObjectOf(v: unknown): PlanObject | null {
  if (typeof v !== 'string' || v === '') return null;
  try {
    return JSON.parse(v) as PlanObject;
  } catch {
    return null;
  }
}

/** The fact a `(:Fact)` node's properties hold. */
export function toFact(f: Props): Fact {
  return {
    id: String(f.id), content: String(f.content), speakerId: String(f.speakerId), addresseeIds: stringList(f.addresseeIds),
    subjectId: String(f.subjectId), kind: String(f.kind) as FactKind, layer: String(f.layer) as FactLayer,
    slot: optString(f.slot), value: optString(f.value), time: String(f.time), eventTime: optString(f.eventTime), referIds: stringList(f.referIds),
    validFrom: String(f.validFrom), validTo: optString(f.validTo), validUntil: optString(f.validUntil),
    planObject: planObjectOf(f.planObject), supersedes: optString(f.supersedes),
    supersededBy: optString(f.supersededBy), confidence: toNum(f.confidence), sessionId: String(f.sessionId),
    source: String(f.source), createdAt: String(f.createdAt),
  };
}
