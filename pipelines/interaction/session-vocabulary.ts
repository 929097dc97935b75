import type { GraphStore } from '../../graph/graph-store.js';
import type { TenantId } from '../../graph/types.js';
import { firstNames, recentFirstNames } from './session-naming.js';

/** Options of {@link SessionVocabulary}. */
export interface SessionVocabularyOptions {
  /** Most names in the vocabulary (the session's people first). Default 100. */
  max?: number;
  /**
   * Most tenant names after the session's own: 0 listens for the session's people only. Default `max`
   * (the tenant's recently named participants fill the vocabulary up to `max`).
   */
  tenantNames?: number;
  /** How long the tenant's recently named participants are reused before they are read again, in ms. Default 10 000. */
  tenantRefreshMs?: number;
  /** Clock in ms (tests). Default `performance.now`. */
  now?: () => number;
}

/** A participant as a turn reports it: id and current name (null while unnamed). */
export interface HeardParticipant {
  id: string;
  name: string | null;
}

/**
 * The names a session's recogniser listens for (name spotting): first the people of this session, the
 * participants it expects (a returning caller's external id) and those who spoke or were addressed so
 * far, most recently heard first; then the tenant's most recently named participants, up to the cap.
 * The session's people are read again at every {@link names} call (one read for all of them), so a name
 * learned mid-session enters at once and an erased participant of the session leaves at once; the
 * tenant's recent names, which cost a page of the recency index or more, are read at most every
 * `tenantRefreshMs` (at once after one of the session's people was found erased, or after
 * {@link invalidate}), so another erased participant's name leaves within that time.
 */
export class SessionVocabulary {
  private readonly max: number;
  private readonly tenantMax: number;
  private readonly refreshMs: number;
  private readonly now: () => number;
  /** Session participants' ids, most recently heard first, with the name last reported for each. */
  private readonly people = new Map<string, string | null>();
  private tenantNames: { names: string[]; at: number } | null = null;

  constructor(private readonly graph: GraphStore, private readonly tenant: TenantId, options: SessionVocabularyOptions = {}) {
    this.max = positiveInteger(options.max ?? 100, 'max');
    this.tenantMax = Math.min(this.max, nonNegativeInteger(options.tenantNames ?? this.max, 'tenantNames'));
    this.refreshMs = options.tenantRefreshMs ?? 10_000;
    this.now = options.now ?? (() => performance.now());
  }

  /**
   * Record the people of a turn (its speaker and addressees). Returns true when someone is new to the
   * session or was reported under another name: the vocabulary should then be sent again.
   */
  heard(participants: readonly HeardParticipant[]): boolean {
    let changed = false;
    for (const p of [...participants].reverse()) {
      if (!this.people.has(p.id) || this.people.get(p.id) !== p.name) changed = true;
      // Most recently heard first: re-insert at the end, read back reversed.
      this.people.delete(p.id);
      this.people.set(p.id, p.name);
    }
    return changed;
  }

  /**
   * Learn the session's people from its stored turns (the last `turns` of them): a session resumed
   * after a restart listens for who was in it before anyone speaks again. People already heard in
   * this process stay ahead of them.
   */
  async seed(sessionId: string, turns = 50): Promise<void> {
    const stored = await this.graph.recentUtterances(this.tenant, sessionId, turns);
    const ids = [...new Set(stored.flatMap((u) => [u.speakerId, ...u.addresseeIds]))];
    const found = new Map((await this.graph.getParticipants(this.tenant, ids)).map((p) => [p.id, p]));
    // Read after the reads above: whoever was heard meanwhile stays ahead too.
    const live = this.sessionPeople();
    // Oldest first, so the last speaker ends most recent; the live ones are put back in front after.
    for (const u of stored) {
      for (const id of [...u.addresseeIds, u.speakerId]) {
        const p = found.get(id);
        if (!p) continue;
        this.people.delete(id);
        this.people.set(id, p.name);
      }
    }
    for (const id of [...live].reverse()) {
      const name = this.people.get(id) ?? null;
      this.people.delete(id);
      this.people.set(id, name);
    }
  }

  /**
   * Participant `from` was merged into `into` (mid-call): the survivor takes the merged one's place among the session's
   * people (once: where it was already one of them, the merged one just leaves). Returns whether anything changed.
   */
  merged(from: string, into: string): boolean {
    if (!this.people.has(from)) return false;
    if (this.people.has(into)) return this.people.delete(from);
    const entries = [...this.people].map(([id, name]): [string, string | null] => [id === from ? into : id, name]);
    this.people.clear();
    for (const [id, name] of entries) this.people.set(id, name);
    return true;
  }

  /** Ids of the session's people, most recently heard first. */
  sessionPeople(): string[] {
    return [...this.people.keys()].reverse();
  }

  /**
   * The vocabulary: first names and aliases (as {@link firstNames}) of `expected` participants (ids, in
   * order) and of the session's people, then the tenant's most recently named participants, distinct,
   * at most `max`. An id that no longer exists (erased) is skipped and forgotten.
   */
  async names(expected: readonly string[] = []): Promise<string[]> {
    const out = new Set<string>();
    const ids = [...new Set([...expected, ...this.sessionPeople()])];
    // One read for all of them; the store returns them in no particular order.
    const byId = new Map((ids.length > 0 ? await this.graph.getParticipants(this.tenant, ids) : []).map((p) => [p.id, p]));
    for (const id of ids) {
      const p = byId.get(id);
      if (p) {
        for (const n of firstNames([p])) if (out.size < this.max) out.add(n);
        continue;
      }
      // Erased: forget them, and read the tenant's names again (the cached ones may hold theirs).
      this.people.delete(id);
      this.tenantNames = null;
    }
    const limit = Math.min(this.max, out.size + this.tenantMax);
    if (out.size < limit) {
      for (const n of await this.recent()) {
        if (out.size >= limit) break;
        out.add(n);
      }
    }
    return [...out];
  }

  /** Forget the cached tenant names (the next {@link names} reads them again). */
  invalidate(): void {
    this.tenantNames = null;
  }

  /** The tenant's first `max` recent first names (at most `max` cover any head overlap), read again when older than `tenantRefreshMs`. */
  private async recent(): Promise<string[]> {
    const at = this.now();
    if (this.tenantNames && at - this.tenantNames.at < this.refreshMs) return this.tenantNames.names;
    const names = this.tenantMax > 0 ? await recentFirstNames(this.graph, this.tenant, this.max) : [];
    this.tenantNames = { names, at };
    return names;
  }
}

function positiveInteger(v: number, what: string): number {
  if (!Number.isInteger(v) || v < 1) throw new RangeError(`SessionVocabulary: ${what} must be a positive integer, got ${v}`);
  return v;
}

function nonNegativeInteger(v: number, what: string): number {
  if (!Number.isInteger(v) || v < 0) throw new RangeError(`SessionVocabulary: ${what} must be a non-negative integer, got ${v}`);
  return v;
}
