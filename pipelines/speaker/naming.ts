import type { TenantId } from '../../graph/types.js';
import { detectSelfIntroduction } from './name-patterns.js';

/** Address evidence for one participant: per name, how often and in which sessions. */
export type NameEvidence = Record<string, { events: number; sessions: string[] }>;

/**
 * Where address evidence is kept. `attributesNameEvidenceStore` keeps it in the participant's
 * attributes (key `name_evidence`) through the graph store; `MemoryNameEvidenceStore` in memory.
 */
export interface NameEvidenceStore {
  get(tenant: TenantId, participantId: string): Promise<NameEvidence>;
  put(tenant: TenantId, participantId: string, evidence: NameEvidence): Promise<void>;
}

export class MemoryNameEvidenceStore implements NameEvidenceStore {
  private readonly map = new Map<string, NameEvidence>();
  async get(tenant: TenantId, id: string): Promise<NameEvidence> {
    return structuredClone(this.map.get(`${tenant}\u0000${id}`) ?? {});
  }
  async put(tenant: TenantId, id: string, ev: NameEvidence): Promise<void> {
    this.map.set(`${tenant}\u0000${id}`, structuredClone(ev));
  }
}

/** Keep evidence in `attributes.name_evidence` via the lead's participant accessors. */
export function attributesNameEvidenceStore(access: {
  getAttributes(tenant: TenantId, id: string): Promise<Record<string, unknown> | null>;
  patchAttributes(tenant: TenantId, id: string, attributes: Record<string, unknown>): Promise<void>;
}): NameEvidenceStore {
  return {
    async get(tenant, id) {
      const a = await access.getAttributes(tenant, id);
      return (a?.name_evidence as NameEvidence | undefined) ?? {};
    },
    async put(tenant, id, ev) {
      const a = (await access.getAttributes(tenant, id)) ?? {};
      await access.patchAttributes(tenant, id, { ...a, name_evidence: ev });
    },
  };
}

/** A name to bind to a participant. */
export interface NameBinding {
  participantId: string;
  name: string;
  source: 'self-introduction' | 'direct-address';
}

/** Policy for binding names from direct address. */
export interface AddressNamingOptions {
  /** Events naming the participant with the same name. Default 3. */
  minEvents?: number;
  /** Distinct sessions among them. Default 2. */
  minSessions?: number;
  /** Share of all address evidence for the participant that this name must hold. Default 0.75. */
  minShare?: number;
}

/** Self-introduction: bind at once ("I'm Ana" said by the speaker names the speaker). */
export function nameFromSelfIntroduction(speakerId: string, text: string): NameBinding | null {
  const name = detectSelfIntroduction(text);
  return name ? { participantId: speakerId, name, source: 'self-introduction' } : null;
}

/**
 * Record that `name` was used to address `addresseeId` (e.g. "thanks, Ana" replying to them) in a
 * session, and return a binding once the evidence is repeated, consistent and spans enough sessions.
 */
export async function recordAddressEvidence(
  store: NameEvidenceStore,
  tenant: TenantId,
  sessionId: string,
  addresseeId: string,
  name: string,
  options: AddressNamingOptions = {},
): Promise<NameBinding | null> {
  const ev = await store.get(tenant, addresseeId);
  const key = name.toLowerCase();
  const e = (ev[key] ??= { events: 0, sessions: [] });
  e.events++;
  if (!e.sessions.includes(sessionId)) e.sessions.push(sessionId);
  await store.put(tenant, addresseeId, ev);
  const total = Object.values(ev).reduce((s, x) => s + x.events, 0);
  const ok =
    e.events >= (options.minEvents ?? 3) &&
    e.sessions.length >= (options.minSessions ?? 2) &&
    e.events / total >= (options.minShare ?? 0.75);
  return ok ? { participantId: addresseeId, name: name.charAt(0).toUpperCase() + name.slice(1), source: 'direct-address' } : null;
}
