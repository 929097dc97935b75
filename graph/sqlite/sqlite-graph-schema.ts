import type { TenantId } from '../types.js';
import { fromJson, type SqliteDatabase } from './database.js';
import { participantNameWords } from '../name-words.js';
import { migrateUtteranceSeqs } from './sqlite-utterance-seqs.js';
import { RETIRED_IDS_SCHEMA } from './sqlite-retired-ids.js';
import { migratePendingErasures } from './sqlite-pending-erasures.js';
import { migratePendingMerges } from './sqlite-pending-merges.js';

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
 * Columns added after the first release, with the statement that adds each one to an existing database
 * (`CREATE TABLE IF NOT EXISTS` leaves an old table as it is).
 */
const PARTICIPANT_MIGRATIONS: Array<{ column: string; add: string }> = [
  { column: 'external_id', add: 'ALTER TABLE participants ADD COLUMN external_id TEXT' },
];
const SESSION_MIGRATIONS: Array<{ column: string; add: string }> = [
  { column: 'audio_stream_ms', add: 'ALTER TABLE sessions ADD COLUMN audio_stream_ms REAL' },
  { column: 'active_at', add: 'ALTER TABLE sessions ADD COLUMN active_at TEXT' },
  { column: 'stream_owner', add: 'ALTER TABLE sessions ADD COLUMN stream_owner TEXT' },
  { column: 'stream_clock', add: 'ALTER TABLE sessions ADD COLUMN stream_clock TEXT' },
];
const UTTERANCE_MIGRATIONS: Array<{ column: string; add: string }> = [
  { column: 'turn_id', add: 'ALTER TABLE utterances ADD COLUMN turn_id TEXT' },
  { column: 'heard_asr', add: 'ALTER TABLE utterances ADD COLUMN heard_asr TEXT' },
  { column: 'heard_sample_rate', add: 'ALTER TABLE utterances ADD COLUMN heard_sample_rate INTEGER' },
];

/**
 * The words of every participant's name and aliases (`nameWords`, folded in JavaScript, which folds
 * all of Unicode where SQLite's lower() folds ASCII only): findParticipantsByWords seeks (tenant, word).
 */
const NAME_WORDS = `
CREATE TABLE participant_words (
  tenant TEXT NOT NULL, word TEXT NOT NULL, participant_id TEXT NOT NULL,
  PRIMARY KEY (tenant, word, participant_id));
CREATE INDEX participant_words_by_owner ON participant_words (tenant, participant_id);
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

/** Create the graph's tables in `db`, or bring those of an older version up to this schema. */
export function createGraphSchema(db: SqliteDatabase): void {
  db.exec(SCHEMA);
  migrate(db);
}

/**
 * Bring a database written by an older version up to this schema; existing rows keep their data. What is missing is read
 * inside the write transaction, taken at once (`immediate`): a server and a worker starting together on an upgrade add
 * each column once, the second finding it added, never a "duplicate column".
 */
function migrate(db: SqliteDatabase): void {
  const run = db.transaction(() => {
    const columns = new Set((db.prepare('PRAGMA table_info(participants)').all() as { name: string }[]).map((c) => c.name));
    const utteranceColumns = new Set((db.prepare('PRAGMA table_info(utterances)').all() as { name: string }[]).map((c) => c.name));
    const sessionColumns = new Set((db.prepare('PRAGMA table_info(sessions)').all() as { name: string }[]).map((c) => c.name));
    const hasWords = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'participant_words'").get() !== undefined;
    for (const m of PARTICIPANT_MIGRATIONS) if (!columns.has(m.column)) db.exec(m.add);
    for (const m of UTTERANCE_MIGRATIONS) if (!utteranceColumns.has(m.column)) db.exec(m.add);
    for (const m of SESSION_MIGRATIONS) if (!sessionColumns.has(m.column)) db.exec(m.add);
    db.exec(MIGRATED_INDEXES);
    migrateUtteranceSeqs(db);
    db.exec(RETIRED_IDS_SCHEMA);
    migratePendingErasures(db);
    migratePendingMerges(db);
    if (!hasWords) {
      // Created with the words of the participants already stored, once.
      db.exec(NAME_WORDS);
      const all = db.prepare('SELECT tenant, id, name, aliases FROM participants').all() as
        Array<{ tenant: string; id: string; name: string | null; aliases: string }>;
      for (const p of all) indexParticipantWords(db, p.tenant, p.id, p.name, fromJson<string[]>(p.aliases, []));
    }
  });
  run.immediate();
}

/** Replace the name words of participant `id` with those of `name` and `aliases`. */
export function indexParticipantWords(db: SqliteDatabase, tenant: TenantId, id: string, name: string | null, aliases: readonly string[]): void {
  db.prepare('DELETE FROM participant_words WHERE tenant = ? AND participant_id = ?').run(tenant, id);
  const insert = db.prepare('INSERT OR IGNORE INTO participant_words (tenant, word, participant_id) VALUES (?, ?, ?)');
  for (const word of participantNameWords(name, aliases)) insert.run(tenant, word, id);
}
