import { createStep, type SchemaStep, type SqliteDatabase } from './database.js';
import type { TenantId } from '../types.js';

/**
 * The last transcript `seq` handed out per session. Utterances are numbered from this counter, not
 * from what the `utterances` table still holds: erasing a person deletes their utterances, and
 * numbering from `MAX(seq) + 1` would then give the next utterance a number a deleted one had
 * (clients page transcripts by `after_seq`, so a reused number is a turn they never see). Rows are
 * never deleted.
 */
const TABLE = `
CREATE TABLE utterance_seqs (
  tenant TEXT NOT NULL, session_id TEXT NOT NULL, last_seq INTEGER NOT NULL,
  PRIMARY KEY (tenant, session_id));
`;

/**
 * The graph migration's step (`migrateSchema`) that creates the counter table when it is missing (a database from before
 * it), seeded with the highest number each session holds. Numbers of utterances erased before the counter existed are
 * beyond recall; from the migration on, none is reused.
 */
export const UTTERANCE_SEQS_STEP: SchemaStep = createStep(TABLE, (db) => db.exec(`INSERT INTO utterance_seqs (tenant, session_id, last_seq)
  SELECT tenant, session_id, MAX(seq) FROM utterances GROUP BY tenant, session_id`));

/** Hands out the next `seq` of a session; call inside the transaction that stores the utterance. */
export function utteranceSeqCounter(db: SqliteDatabase): (tenant: TenantId, sessionId: string) => number {
  const next = db.prepare(`INSERT INTO utterance_seqs (tenant, session_id, last_seq) VALUES (?, ?, 1)
    ON CONFLICT (tenant, session_id) DO UPDATE SET last_seq = last_seq + 1
    RETURNING last_seq`);
  return (tenant, sessionId) => (next.get(tenant, sessionId) as { last_seq: number }).last_seq;
}
