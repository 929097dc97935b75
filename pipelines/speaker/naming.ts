import type { TenantId } from '../../graph/types.js';
import { NAME_EVIDENCE } from '../interaction/participant-attributes.js';
import { detectIntroduction, type IntroductionOptions } from './self-introduction.js';

/**
 * Address evidence for one participant: per lower-case name, how many events, in which sessions, and
 * their summed weight (`score`; absent in evidence written before weights, where it equals `events`).
 */
export type NameEvidence = Record<string, { events: number; sessions: string[]; score?: number }>;

/** Where address evidence is kept. `attributesNameEvidenceStore` keeps it in the participant's attributes. */
export interface NameEvidenceStore {
  get(tenant: TenantId, participantId: string): Promise<NameEvidence>;
  /**
   * Set the evidence to what `update` makes of the evidence stored, read and written at once (`update` is pure: it may
   * be called again), so concurrent updates all count. Returns the evidence as stored after; null when there is no
   * such participant (nothing stored).
   */
  update(tenant: TenantId, participantId: string, update: (evidence: NameEvidence) => NameEvidence): Promise<NameEvidence | null>;
}

/**
 * Keep evidence in `attributes.name_evidence` (hidden from clients) via the lead's participant
 * accessors. Entries of another shape (written by hand into the store, or by a client before the key
 * was reserved) are not evidence and are dropped on read.
 */
export function attributesNameEvidenceStore(access: {
  getAttributes(tenant: TenantId, id: string): Promise<Record<string, unknown> | null>;
  /** Set one attribute to what `update` makes of its stored value, atomically (`GraphStore.updateParticipantAttribute`); the attributes after, null when none. */
  updateAttribute(tenant: TenantId, id: string, key: string, update: (current: unknown) => unknown): Promise<Record<string, unknown> | null>;
}): NameEvidenceStore {
  return {
    async get(tenant, id) {
      const a = await access.getAttributes(tenant, id);
      return validEvidence(a?.[NAME_EVIDENCE]);
    },
    async update(tenant, id, update) {
      const after = await access.updateAttribute(tenant, id, NAME_EVIDENCE, (raw) => update(validEvidence(raw)));
      return after ? validEvidence(after[NAME_EVIDENCE]) : null;
    },
  };
}

function validEvidence(raw: unknown): NameEvidence {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return {};
  const out: NameEvidence = {};
  for (const [name, e] of Object.entries(raw as Record<string, unknown>)) {
    if (typeof e !== 'object' || e === null) continue;
    const { events, sessions, score } = e as Record<string, unknown>;
    if (typeof events !== 'number' || !Number.isFinite(events) || !Array.isArray(sessions) || !sessions.every((s) => typeof s === 'string')) continue;
    out[name] = { events, sessions: sessions as string[], ...(typeof score === 'number' && Number.isFinite(score) ? { score } : {}) };
  }
  return out;
}

/** A name to bind to a participant. */
export interface NameBinding {
  participantId: string;
  name: string;
  source: 'self-introduction' | 'direct-address';
}

/**
 * How much one piece of address evidence weighs: another speaker used the name to address this
 * participant ("robert can you…" replying to them), or this participant spoke next after a turn
 * addressed to that name (answering to it).
 */
export const EVIDENCE_WEIGHT = { addressed: 1, answered: 1 } as const;

/** Policy for binding names from direct address. */
export interface AddressNamingOptions {
  /** Summed weight of the evidence for the same name. Default 3. */
  minScore?: number;
  /** Distinct sessions among them. Default 2, unless the score reaches `singleSessionScore`. */
  minSessions?: number;
  /** Score that binds within fewer sessions (repeated address and answers in one meeting). Default 4. */
  singleSessionScore?: number;
  /** Share of all address evidence for the participant that this name must hold. Default 0.75. */
  minShare?: number;
  /** Weight of this event. Default 1. */
  weight?: number;
}

/** Self-introduction: bind at once ("I'm Ana" said by the speaker names the speaker). */
export function nameFromSelfIntroduction(speakerId: string, text: string, options: IntroductionOptions = {}): NameBinding | null {
  const found = detectIntroduction(text, options);
  return found ? { participantId: speakerId, name: found.name, source: 'self-introduction' } : null;
}

const scoreOf = (e: { events: number; score?: number }): number => e.score ?? e.events;

/**
 * Record that `name` was used for `addresseeId` in a session (addressed by it, or answering to it), and
 * return a binding once the evidence is strong, consistent and spans enough sessions (or is strong
 * enough within one). Pure policy over the store; the caller decides whether the participant may take it.
 */
export async function recordAddressEvidence(
  store: NameEvidenceStore,
  tenant: TenantId,
  sessionId: string,
  addresseeId: string,
  name: string,
  options: AddressNamingOptions = {},
): Promise<NameBinding | null> {
  const key = name.toLowerCase();
  // Counted inside the store's update: a concurrent record of the same participant is never lost.
  const ev = await store.update(tenant, addresseeId, (stored) => {
    const e = stored[key] ?? { events: 0, sessions: [] };
    const sessions = e.sessions.includes(sessionId) ? e.sessions : [...e.sessions, sessionId];
    return { ...stored, [key]: { events: e.events + 1, sessions, score: scoreOf(e) + (options.weight ?? 1) } };
  });
  const e = ev?.[key];
  if (!ev || !e) return null;
  const total = Object.values(ev).reduce((s, x) => s + scoreOf(x), 0);
  const score = scoreOf(e);
  const ok =
    score >= (options.minScore ?? 3) &&
    (e.sessions.length >= (options.minSessions ?? 2) || score >= (options.singleSessionScore ?? 4)) &&
    score / total >= (options.minShare ?? 0.75);
  return ok ? { participantId: addresseeId, name: key.charAt(0).toUpperCase() + key.slice(1), source: 'direct-address' } : null;
}

/** Names with any address evidence for a participant (lower-case): what others have called them. */
export async function namesHeardFor(store: NameEvidenceStore, tenant: TenantId, participantId: string): Promise<string[]> {
  return Object.keys(await store.get(tenant, participantId));
}
