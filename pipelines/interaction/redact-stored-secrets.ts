/**
 * Turns stored before the transcript was redacted at ingest (rules 56) or before a secret's reader found their value
 * (rules 63: "my PIN is 7731 I think") still hold it. Once per store and tenant, at start-up, each such turn is given the
 * text ingest stores now (`withSecretsRedacted`, graph/spoken-secrets.ts) and, where it was indexed, its keyword entry
 * and its vector are written again from that text. Nothing else of the turn changes; a turn giving no secret with a
 * digit is never touched.
 */
import type { Logger } from 'pino';
import { SECRET_NAME_FRAGMENTS, withSecretsRedacted } from '../../graph/spoken-secrets.js';
import type { Stores } from '../../graph/stores.js';
import type { TenantId, Utterance } from '../../graph/types.js';
import type { TextEmbedder } from '../embeddings/text-embedder.js';
import { collectionFor } from '../memory/collections.js';
import type { MinAsrConfidence } from '../memory/doubtful-speech.js';
import { MemoryIndexer } from '../memory/memory-indexer.js';
import { speakerLockKey } from '../memory/subject-lock.js';

/**
 * The data migration's name (`MemoryStore.recordMigration`), recorded once every turn of the tenant is redacted. A
 * reader that finds more values later needs a new name, so that turns stored before it are read again.
 */
export const STORED_SECRETS_MIGRATION = 'stored-secrets-redacted/63';

/** What the redaction reads and writes. */
export interface StoredSecretsDeps {
  stores: Pick<Stores, 'graph' | 'memory' | 'vectors' | 'lexical' | 'locks'>;
  embedder: TextEmbedder;
  /** `memory.minAsrConfidence`: a turn heard doubtfully (`doubtfulSpeech`) loses any entry it has rather than gets one. */
  minAsrConfidence: MinAsrConfidence;
  logger?: Logger;
  /** Candidate turns read per page (and one progress line each); default 500. */
  batch?: number;
}

/** How often one turn is read again when its text changed while its new vector was made (an erasure's redaction). */
const TRIES = 5;

/**
 * Redact the digit values of secrets in the stored turns of `tenant` (`STORED_SECRETS_MIGRATION`), unless recorded as
 * done: the turns whose text names a secret (`SECRET_NAME_FRAGMENTS`) are read in pages by id, and each one whose text
 * redaction changes is rewritten. Returns the turns rewritten, or null when the migration had run. Each turn is indexed
 * before its text is written, under its speaker's lock (which consolidation indexes under), so a run cut short leaves the
 * turn's old text for the next start to find; redacting again changes nothing, so a restart goes on where it stopped.
 * The migration is recorded only when every page was read.
 */
export async function redactStoredSecrets(deps: StoredSecretsDeps, tenant: TenantId): Promise<number | null> {
  const { stores } = deps;
  if (await stores.memory.migrationDone(tenant, STORED_SECRETS_MIGRATION)) return null;
  const batch = deps.batch ?? 500;
  const indexer = new MemoryIndexer(stores.vectors, stores.lexical, deps.embedder, deps.minAsrConfidence);
  let read = 0;
  let rewritten = 0;
  for (let afterId: string | undefined; ;) {
    const page = await stores.graph.utterancesContaining(tenant, SECRET_NAME_FRAGMENTS, { limit: batch, ...(afterId ? { afterId } : {}) });
    for (const u of page) if (withSecretsRedacted(u.text) !== u.text && await redactTurn(deps, indexer, tenant, u)) rewritten += 1;
    read += page.length;
    if (page.length > 0) deps.logger?.info({ tenant, read, rewritten }, 'stored turns: secrets redacted so far');
    if (page.length < batch) break;
    afterId = page[page.length - 1]!.id;
  }
  await stores.memory.recordMigration(tenant, STORED_SECRETS_MIGRATION);
  deps.logger?.info({ tenant, read, rewritten }, 'stored turns: secrets redacted');
  return rewritten;
}

/**
 * Write turn `u` with its secrets redacted: its vector (embedded outside the lock, as no lock is held across an
 * embedder call) and keyword entry where it has a vector (a turn never indexed, as doubtful speech, stays unindexed),
 * then its text. Whether it was rewritten (false: erased meanwhile, or redacted by another process).
 */
async function redactTurn(deps: StoredSecretsDeps, indexer: MemoryIndexer, tenant: TenantId, u: Utterance): Promise<boolean> {
  const { graph, vectors, locks } = deps.stores;
  let seen = u;
  for (let tries = 0; tries < TRIES; tries += 1) {
    const text = withSecretsRedacted(seen.text);
    if (text === seen.text) return false;
    const indexed = (await vectors.get(tenant, collectionFor('interaction'), [seen.id])).length > 0;
    const [vector] = indexed ? await indexer.vectorsFor(tenant, [{ id: seen.id, layer: 'interaction', text }]) : [];
    const now = await locks.withLock([speakerLockKey(tenant, seen.speakerId)], async () => {
      const current = await graph.getUtterance(tenant, seen.id);
      if (!current || current.text !== seen.text || current.speakerId !== seen.speakerId) return current;
      if (vector) await indexer.indexUtterance(tenant, { ...current, text }, vector);
      await graph.setUtteranceTexts(tenant, [{ id: current.id, text }]);
      return 'written' as const;
    });
    if (now === 'written') return true;
    if (now === null) return false;
    seen = now;
  }
  throw new Error(`stored turn ${u.id} kept changing while its secrets were redacted; tried ${TRIES} times`);
}
