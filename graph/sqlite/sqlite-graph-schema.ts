import type { TenantId } from '../types.js';
import { columnStep, createStep, fromJson, migrateSchema, type SchemaStep, type SqliteDatabase } from './database.js';
import { participantNameWords } from '../name-words.js';
import { UTTERANCE_SEQS_STEP } from './sqlite-utterance-seqs.js';
import { RETIRED_IDS_SCHEMA } from './sqlite-retired-ids.js';
import { PENDING_ERASURES_STEPS } from './sqlite-pending-erasures.js';
import { PENDING_MERGES_STEPS } from './sqlite-pending-merges.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS sessions (
  tenant TEXT NOT NULL, id TEXT NOT NULL, started_at TEXT NOT NULL, ended_at TEXT,
  metadata TEXT NOT NULL DEFAULT '{}', last_event_seq INTEGER NOT NULL DEFAULT 0, audio_stream_ms REAL,
  active_at TEXT, stream_owner TEXT, stream_clock TEXT,
  PRIMARY KEY (tenant, id));
CREATE TABLE IF NOT EXISTS participants (
  tenant TEXT NOT NULL, id TEXT NOT NULL, name TEXT, aliases TEXT NOT NULL DEFAULT '[]',
  attributes TEXT NOT NULL DEFAULT '{}', voiceprint_count INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
  PRIMARY KEY (tenant, id));
-- listParticipants reads a tenant's participants in creation order (each ingest does): no sort.
CREATE INDEX IF NOT EXISTS participants_by_age ON participants (tenant, created_at, id);
-- recentNamedParticipants: the newest named participants, in index order, however many are unnamed.
CREATE INDEX IF NOT EXISTS participants_named_by_update ON participants (tenant, updated_at DESC, created_at, id)
  WHERE name IS NOT NULL OR aliases <> '[]';
CREATE TABLE IF NOT EXISTS utterances (
  tenant TEXT NOT NULL, id TEXT NOT NULL, session_id TEXT NOT NULL, seq INTEGER NOT NULL,
  speaker_id TEXT NOT NULL, text TEXT NOT NULL, start_ms REAL, end_ms REAL, time TEXT NOT NULL,
  confidence REAL, audio_ref TEXT,
  PRIMARY KEY (tenant, id));
CREATE INDEX IF NOT EXISTS utterances_by_session ON utterances (tenant, session_id, seq);
-- getTranscript lists a session's utterances in the order they were said: no sort, pages by a seek.
CREATE INDEX IF NOT EXISTS utterances_by_said ON utterances (tenant, session_id, time, seq);
CREATE INDEX IF NOT EXISTS utterances_by_speaker ON utterances (tenant, speaker_id, time);
CREATE TABLE IF NOT EXISTS addresses (
  tenant TEXT NOT NULL, utterance_id TEXT NOT NULL, participant_id TEXT NOT NULL,
  PRIMARY KEY (tenant, utterance_id, participant_id));
CREATE INDEX IF NOT EXISTS addresses_by_participant ON addresses (tenant, participant_id);
CREATE TABLE IF NOT EXISTS utterance_moves (
  tenant TEXT NOT NULL, utterance_id TEXT NOT NULL, moved_at TEXT NOT NULL, PRIMARY KEY (tenant, utterance_id));
`;

/**
 * Columns added after the first release, each added to an existing database (`CREATE TABLE IF NOT EXISTS` leaves an old
 * table as it is).
 */
const COLUMN_STEPS: SchemaStep[] = [
  columnStep('participants', 'external_id', 'TEXT'),
  columnStep('utterances', 'turn_id', 'TEXT'),
  columnStep('utterances', 'heard_asr', 'TEXT'),
  columnStep('utterances', 'heard_sample_rate', 'INTEGER'),
  columnStep('sessions', 'audio_stream_ms', 'REAL'),
  columnStep('sessions', 'active_at', 'TEXT'),
  columnStep('sessions', 'stream_owner', 'TEXT'),
  columnStep('sessions', 'stream_clock', 'TEXT'),
];

/**
 * The words of every participant's name and aliases (`nameWords`, folded in JavaScript, which folds
 * all of Unicode where SQLite's lower() folds ASCII only): findParticipantsByWords seeks (tenant, word).
 */
const NAME_WORDS = `
CREATE TABLE IF NOT EXISTS participant_words (
  tenant TEXT NOT NULL, word TEXT NOT NULL, participant_id TEXT NOT NULL,
  PRIMARY KEY (tenant, word, participant_id));
CREATE INDEX IF NOT EXISTS participant_words_by_owner ON participant_words (tenant, participant_id);
`;

/** Indexes on migrated columns: created once the columns exist. */
const MIGRATED_INDEXES = `
CREATE INDEX IF NOT EXISTS sessions_idle ON sessions (active_at) WHERE ended_at IS NULL AND active_at IS NOT NULL;
CREATE UNIQUE INDEX IF NOT EXISTS participants_by_external_id ON participants (tenant, external_id)
  WHERE external_id IS NOT NULL;
-- participantsOwingRename: only the participants whose attributes hold a rewrite owed by a rename ($pending_rename).
CREATE INDEX IF NOT EXISTS participants_owing_rename ON participants (tenant, created_at, id)
  WHERE json_extract(attributes, '$."$pending_rename"') IS NOT NULL;
`;

/** Created with the words of the participants already stored, once. */
function indexStoredParticipantWords(db: SqliteDatabase): void {
  const all = db.prepare('SELECT tenant, id, name, aliases FROM participants').all() as
    Array<{ tenant: string; id: string; name: string | null; aliases: string }>;
  for (const p of all) indexParticipantWords(db, p.tenant, p.id, p.name, fromJson<string[]>(p.aliases, []));
}

/** What a database written by an older version lacks, in the order it is added. */
const GRAPH_STEPS: SchemaStep[] = [
  ...COLUMN_STEPS,
  createStep(MIGRATED_INDEXES),
  UTTERANCE_SEQS_STEP,
  createStep(RETIRED_IDS_SCHEMA),
  ...PENDING_ERASURES_STEPS,
  ...PENDING_MERGES_STEPS,
  createStep(NAME_WORDS, indexStoredParticipantWords),
];

/**
 * Create the graph's tables in `db`, or bring those of an older version up to this schema; existing rows keep their
 * data. An up-to-date file takes no write lock; an older one is brought up in one write transaction (`migrateSchema`):
 * a server and a worker starting together on an upgrade add each column once, the second finding it added.
 */
export function createGraphSchema(db: SqliteDatabase): void {
  db.exec(SCHEMA);
  migrateSchema(db, GRAPH_STEPS);
}

/** Replace the name words of participant `id` with those of `name` and `aliases`. */
export function indexParticipantWords(db: SqliteDatabase, tenant: TenantId, id: string, name: string | null, aliases: readonly string[]): void {
  db.prepare('DELETE FROM participant_words WHERE tenant = ? AND participant_id = ?').run(tenant, id);
  const insert = db.prepare('INSERT OR IGNORE INTO participant_words (tenant, word, participant_id) VALUES (?, ?, ?)');
  for (const word of participantNameWords(name, aliases)) insert.run(tenant, word, id);
}
