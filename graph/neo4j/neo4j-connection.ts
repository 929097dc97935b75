import { subscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import neo4j, { type BookmarkManager, type Driver, type ManagedTransaction, type SessionMode } from 'neo4j-driver';
import { ParleyError } from '../core/errors.js';

export interface Neo4jOptions {
  /** `NEO4J_URI`, e.g. `neo4j://127.0.0.1:7687`. */
  uri: string;
  /** `NEO4J_USER`, `NEO4J_PASSWORD`. */
  user: string;
  password: string;
  /** `NEO4J_DATABASE`; default `neo4j`. */
  database?: string;
  /**
   * Prepended to every tenant id stored, so several deployments (or test runs) can share one
   * database without seeing each other; default empty.
   */
  tenantPrefix?: string;
  /** How long managed transactions retry transient errors, ms; default 5000. */
  maxRetryMs?: number;
  /** How long `ready()` waits, ms; default 2000. */
  readyTimeoutMs?: number;
  /**
   * `NEO4J_QUERY_TIMEOUT_MS`: the longest one read or write transaction (its retries included) may take
   * before it fails with `PARLEY_ERR_STORE_UNAVAILABLE`, ms; default {@link DEFAULT_QUERY_TIMEOUT_MS}. The
   * driver has no timeout of its own for a server that accepts the connection but stops answering (a hung
   * or paused process): without it such a request would wait for as long as the server does.
   */
  queryTimeoutMs?: number;
}

/** Default `queryTimeoutMs`. */
export const DEFAULT_QUERY_TIMEOUT_MS = 20_000;

/**
 * The deadline of the few transactions that must see a whole history at once and so cannot be cut into batches (an
 * erasure's plan: every id it will erase, in order, recorded before the first is deleted) and of the start-up
 * backfills (each batch of which seeks its rows by a scan): `queryTimeoutMs`, but at least this, ms. Everything else that
 * grows with a history runs in batches under `queryTimeoutMs` (docs/NETWORKED.md, *Outages*).
 */
export const LONG_QUERY_TIMEOUT_MS = 300_000;

/** Bolt ports of the Neo4j servers this process's drivers talk to. */
const boltPorts = new Set<number>();
let watching = false;

/**
 * Turn Nagle's algorithm off (TCP_NODELAY) on the sockets the driver opens to `uri`'s port. The
 * JavaScript driver leaves it on and writes a message in chunks of about 1.4 kB: a query whose
 * parameters are larger (a query vector, an id pool) then waits for the server's delayed ACK, about
 * 40 ms on Linux, before its last chunk leaves, once per query. Sockets are seen through Node's
 * `net.client.socket` diagnostics channel, which publishes plain TCP connections only: over TLS
 * (`bolt+s://`, `neo4j+s://`) the delay remains. Other client sockets of the process are left alone
 * unless they connect to the same port.
 */
export function disableNagle(uri: string): void {
  if (!URL.canParse(uri)) return;
  boltPorts.add(Number(new URL(uri).port || 7687));
  if (watching) return;
  watching = true;
  subscribe('net.client.socket', (message) => {
    const { socket } = message as { socket: Socket };
    socket.once('connect', () => {
      if (boltPorts.has(socket.remotePort ?? -1)) socket.setNoDelay(true);
    });
  });
}

/** The driver, configured to fail within seconds rather than minutes while Neo4j is down. */
export function createDriver(options: Neo4jOptions): Driver {
  disableNagle(options.uri);
  return neo4j.driver(options.uri, neo4j.auth.basic(options.user, options.password), {
    maxTransactionRetryTime: options.maxRetryMs ?? 5000,
    connectionTimeout: 3000,
    connectionAcquisitionTimeout: 5000,
    maxConnectionPoolSize: 50,
  });
}

/** A driver shared by every store of one process that names the same server and credentials. */
export interface SharedDriver {
  driver: Driver;
  /** One per driver: sessions pass bookmarks through it, so a read sees every write this process made before it. */
  bookmarks: BookmarkManager;
  /** Drop this store's reference; the last one closes the driver. */
  release(): Promise<void>;
}

const shared = new Map<string, { driver: Driver; bookmarks: BookmarkManager; users: number }>();

/**
 * The process's driver for `options` (one connection pool per server, user and retry setting, not
 * one per store), created on first use and closed when its last user releases it.
 */
export function acquireDriver(options: Neo4jOptions): SharedDriver {
  const key = JSON.stringify([options.uri, options.user, options.password, options.maxRetryMs ?? 5000]);
  let entry = shared.get(key);
  if (!entry) {
    entry = { driver: createDriver(options), bookmarks: neo4j.bookmarkManager(), users: 0 };
    shared.set(key, entry);
  }
  entry.users += 1;
  const held = entry;
  let released = false;
  return {
    driver: held.driver, bookmarks: held.bookmarks,
    release: async () => {
      if (released) return;
      released = true;
      held.users -= 1;
      if (held.users > 0) return;
      if (shared.get(key) === held) shared.delete(key);
      await held.driver.close();
    },
  };
}

/**
 * ADDRESSED edges to `Addressee` key nodes for `label` nodes stored before those existed (their
 * `addresseeIds` list only); run once per store through `migrateOnce`. Processes starting together (a
 * server and its workers after an upgrade) may all run it at once: each node is write-locked (a no-op SET)
 * and looked at again under the lock, so a node another process has just given its edges is skipped
 * rather than given a second set (MERGE alone let concurrent runs duplicate them).
 */
export function backfillAddressees(label: 'Utterance' | 'Fact'): string {
  return `
  MATCH (n:${label}) WHERE size(n.addresseeIds) > 0 AND NOT (n)-[:ADDRESSED]->()
  CALL { WITH n
    SET n.addresseeIds = n.addresseeIds
    WITH n WHERE NOT (n)-[:ADDRESSED]->()
    UNWIND n.addresseeIds AS aid
    MERGE (k:Addressee {tenant: n.tenant, id: aid})
    MERGE (n)-[:ADDRESSED]->(k)
  } IN TRANSACTIONS OF 1000 ROWS`;
}

/** A Neo4j integer or float as a JS number (graph counts and sequence numbers stay far below 2^53). */
export function toNum(value: unknown): number {
  if (neo4j.isInt(value)) return (value as { toNumber(): number }).toNumber();
  return Number(value);
}

/** A JS number as a Neo4j integer parameter (plain JS numbers are sent as floats). */
export function int(value: number): ReturnType<typeof neo4j.int> {
  return neo4j.int(Math.trunc(value));
}

/** Turn driver failures into Parley errors that say which setting to check. */
export function toParleyError(err: unknown, what: string): unknown {
  if (err instanceof ParleyError) return err;
  const code = (err as { code?: string } | null)?.code ?? '';
  const message = err instanceof Error ? err.message.split('\n')[0] : String(err);
  if (code === 'Neo.ClientError.Schema.ConstraintValidationFailed') {
    return new ParleyError('PARLEY_ERR_CONFLICT', `${what}: a record with that id already exists`, { cause: err });
  }
  if (code.startsWith('Neo.ClientError.Security.')) {
    return new ParleyError('PARLEY_ERR_STORE_UNAVAILABLE', `Neo4j refused the credentials (NEO4J_USER / NEO4J_PASSWORD) during ${what}: ${message}`, { cause: err });
  }
  if (code.startsWith('Neo.ClientError.')) return err;
  return new ParleyError('PARLEY_ERR_STORE_UNAVAILABLE', `Neo4j (NEO4J_URI) unavailable during ${what}: ${message}`, { cause: err });
}

/** Thrown inside a transaction whose caller has given up on it (`queryTimeoutMs`), so that it rolls back. */
class Abandoned extends Error {}

/**
 * Managed transactions on one database: `read` and `write` run the work in `executeRead` /
 * `executeWrite`, which retry transient failures (leader changes, deadlocks, lost connections)
 * for up to `maxRetryMs`. The work may run more than once, so it must not have side effects outside
 * the transaction. With a bookmark manager, every session waits for the bookmarks of the writes
 * before it (read-your-writes on a cluster, where a read may go to another member). Each call fails
 * with `PARLEY_ERR_STORE_UNAVAILABLE` once it has taken `queryTimeoutMs`.
 */
export class Neo4jRunner {
  constructor(
    private readonly driver: Driver, private readonly database: string, private readonly bookmarks?: BookmarkManager,
    private readonly queryTimeoutMs = DEFAULT_QUERY_TIMEOUT_MS,
  ) {}

  read<T>(what: string, work: (tx: ManagedTransaction) => Promise<T>): Promise<T> {
    return this.transaction(neo4j.session.READ, what, work, this.queryTimeoutMs);
  }

  write<T>(what: string, work: (tx: ManagedTransaction) => Promise<T>): Promise<T> {
    return this.transaction(neo4j.session.WRITE, what, work, this.queryTimeoutMs);
  }

  /** `read`, under the longer deadline of {@link LONG_QUERY_TIMEOUT_MS} (a whole history read at once). */
  readLong<T>(what: string, work: (tx: ManagedTransaction) => Promise<T>): Promise<T> {
    return this.transaction(neo4j.session.READ, what, work, Math.max(this.queryTimeoutMs, LONG_QUERY_TIMEOUT_MS));
  }

  /** `write`, under the longer deadline of {@link LONG_QUERY_TIMEOUT_MS} (an erasure's plan, a start-up backfill's batch). */
  writeLong<T>(what: string, work: (tx: ManagedTransaction) => Promise<T>): Promise<T> {
    return this.transaction(neo4j.session.WRITE, what, work, Math.max(this.queryTimeoutMs, LONG_QUERY_TIMEOUT_MS));
  }

  /**
   * `work` in a managed transaction, given up after `queryTimeoutMs`. A transaction given up on is left to
   * end in the background (its session closed then): a paused server answers nothing, not even a close.
   * Should it answer later, the work's end finds it abandoned and throws, so it rolls back rather than
   * committing after its caller was told it failed (only a commit already sent when time ran out may still
   * land, as with any connection lost at that moment: a retry with the same ids finds it).
   */
  private async transaction<T>(mode: SessionMode, what: string, work: (tx: ManagedTransaction) => Promise<T>, timeoutMs: number): Promise<T> {
    const session = this.driver.session({ database: this.database, defaultAccessMode: mode, bookmarkManager: this.bookmarks });
    let abandoned = false;
    const guarded = async (tx: ManagedTransaction): Promise<T> => {
      const out = await work(tx);
      if (abandoned) throw new Abandoned(`${what} was given up on`);
      return out;
    };
    const attempt = mode === neo4j.session.READ ? session.executeRead(guarded) : session.executeWrite(guarded);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        abandoned = true;
        reject(new ParleyError('PARLEY_ERR_STORE_UNAVAILABLE',
          `Neo4j (NEO4J_URI) did not answer within ${timeoutMs} ms (${timeoutMs === this.queryTimeoutMs ? 'NEO4J_QUERY_TIMEOUT_MS' : 'the longer deadline of a whole-history step'}) during ${what}`));
      }, timeoutMs);
    });
    try {
      return await Promise.race([attempt, deadline]);
    } catch (err) {
      throw toParleyError(err, what);
    } finally {
      clearTimeout(timer);
      if (abandoned) void attempt.catch(() => undefined).then(() => session.close()).catch(() => undefined);
      else await session.close();
    }
  }

  /**
   * One auto-commit query, for `CALL { … } IN TRANSACTIONS` (which commits batch by batch and
   * cannot run inside a managed transaction); not retried.
   */
  async autoCommit(what: string, cypher: string, params: Record<string, unknown>): Promise<void> {
    const session = this.driver.session({ database: this.database, defaultAccessMode: neo4j.session.WRITE, bookmarkManager: this.bookmarks });
    try {
      await session.run(cypher, params);
    } catch (err) {
      throw toParleyError(err, what);
    } finally {
      await session.close();
    }
  }

  /** True when the server answers within `timeoutMs`. */
  async ping(timeoutMs: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    const probe = this.driver.getServerInfo({ database: this.database }).then(() => true, () => false);
    return Promise.race([probe, timeout]).finally(() => clearTimeout(timer));
  }
}

/** Schema statements run once at start-up; each is idempotent. */
export const GRAPH_SCHEMA = [
  'CREATE CONSTRAINT parley_participant_key IF NOT EXISTS FOR (n:Participant) REQUIRE (n.tenant, n.id) IS UNIQUE',
  // Nodes without an externalId are outside a uniqueness constraint: only given external ids must differ.
  'CREATE CONSTRAINT parley_participant_external_id IF NOT EXISTS FOR (n:Participant) REQUIRE (n.tenant, n.externalId) IS UNIQUE',
  // Transient claims on a name key (createNamedParticipant): MERGE under this constraint locks the key, so
  // concurrent first posts by one new name make one participant. Claims never outlive their transaction, so
  // the constraint is created over none, whatever duplicates a database holds from before it.
  'CREATE CONSTRAINT parley_participant_name_claim IF NOT EXISTS FOR (n:ParticipantNameClaim) REQUIRE (n.tenant, n.key) IS UNIQUE',
  'CREATE CONSTRAINT parley_utterance_key IF NOT EXISTS FOR (n:Utterance) REQUIRE (n.tenant, n.id) IS UNIQUE',
  'CREATE CONSTRAINT parley_session_key IF NOT EXISTS FOR (n:Session) REQUIRE (n.tenant, n.id) IS UNIQUE',
  // idleSessions: open sessions by when a stream client was last seen. `openActiveAt` is `activeAt` while the
  // session is open and removed when it ends, so the sweep seeks the open ones only, however many have ended.
  'CREATE INDEX parley_session_open_active IF NOT EXISTS FOR (n:Session) ON (n.openActiveAt)',
  'CREATE CONSTRAINT parley_session_counter_key IF NOT EXISTS FOR (n:SessionCounter) REQUIRE (n.tenant, n.sessionId) IS UNIQUE',
  'CREATE INDEX parley_utterance_session IF NOT EXISTS FOR (n:Utterance) ON (n.tenant, n.sessionId, n.seq)',
  'CREATE INDEX parley_utterance_speaker IF NOT EXISTS FOR (n:Utterance) ON (n.tenant, n.speakerId)',
  'CREATE INDEX parley_utterance_time IF NOT EXISTS FOR (n:Utterance) ON (n.tenant, n.time)',
  'CREATE INDEX parley_utterance_moved IF NOT EXISTS FOR (n:Utterance) ON (n.tenant, n.movedAt)',
  // Lookups no composite index serves (names in a text) seek the tenant's nodes through these
  // instead of scanning the label across every tenant.
  'CREATE INDEX parley_participant_tenant IF NOT EXISTS FOR (n:Participant) ON (n.tenant)',
  'CREATE INDEX parley_participant_age IF NOT EXISTS FOR (n:Participant) ON (n.tenant, n.createdAt)',
  'CREATE INDEX parley_utterance_tenant IF NOT EXISTS FOR (n:Utterance) ON (n.tenant)',
  // Names and aliases, lower-cased, one node each: lookups by name seek (tenant, key).
  'CREATE INDEX parley_participant_name_key IF NOT EXISTS FOR (n:ParticipantName) ON (n.tenant, n.key)',
  'CREATE INDEX parley_participant_name_owner IF NOT EXISTS FOR (n:ParticipantName) ON (n.tenant, n.participantId)',
  // The words of names and aliases (`nameWords`), one node each: findParticipantsByWords seeks (tenant, word).
  'CREATE INDEX parley_participant_word IF NOT EXISTS FOR (n:ParticipantWord) ON (n.tenant, n.word)',
  'CREATE INDEX parley_participant_word_owner IF NOT EXISTS FOR (n:ParticipantWord) ON (n.tenant, n.participantId)',
  // recentNamedParticipants: the tenant's named participants in updatedAt order, from the index.
  'CREATE INDEX parley_participant_named_update IF NOT EXISTS FOR (n:Participant) ON (n.tenant, n.named, n.updatedAt)',
  // Addressees, one key node per (tenant, participant id), even for ids no participant has yet:
  // `(:Utterance|Fact)-[:ADDRESSED]->(:Addressee)` makes "addressed to X" an index seek and an expand.
  'CREATE CONSTRAINT parley_addressee_key IF NOT EXISTS FOR (n:Addressee) REQUIRE (n.tenant, n.id) IS UNIQUE',
];
