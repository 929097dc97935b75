import type { TenantId } from '../../graph/types.js';
import type { Voiceprint, VoiceprintInput, VoiceprintStore } from '../../graph/voiceprint-store.js';
import type { SpeakerThresholds } from './speaker-thresholds.js';
import { SpeakerTracker } from './speaker-tracker.js';

/** An embedded utterance of a known speaker in a simulated session. */
export interface EvalUtterance {
  speaker: string;
  vector: Float32Array;
}

/** Tracker quality over a run of sessions sharing one tenant's prototypes. */
export interface TrackerScore {
  /** Utterances attributed correctly under the best one-to-one id ↔ speaker mapping. */
  accuracy: number;
  /** Distinct ids per true speaker (1 is perfect). */
  fragmentation: number;
  /** Of (speaker, later session) pairs, the share whose majority id equals their first session's. */
  reidentification: number;
  utterances: number;
  speakers: number;
}

/** A tiny in-memory VoiceprintStore for simulations (the SQLite one is tested separately). */
export class MemoryVoiceprintStore implements VoiceprintStore {
  private readonly rows = new Map<string, Voiceprint & { tenant: string }>();
  private n = 0;
  async list(tenant: TenantId, modelId?: string): Promise<Voiceprint[]> {
    return [...this.rows.values()].filter((r) => r.tenant === tenant && (modelId === undefined || r.modelId === modelId));
  }
  async get(tenant: TenantId, id: string): Promise<Voiceprint | null> {
    const r = this.rows.get(id);
    return r && r.tenant === tenant ? r : null;
  }
  async upsert(tenant: TenantId, p: VoiceprintInput): Promise<Voiceprint> {
    const id = p.id ?? `vp_${++this.n}`;
    const now = new Date().toISOString();
    const row = { tenant, id, participantId: p.participantId, modelId: p.modelId, vector: Float32Array.from(p.vector), updateCount: p.updateCount, createdAt: this.rows.get(id)?.createdAt ?? now, updatedAt: now };
    this.rows.set(id, row);
    return row;
  }
  async delete(tenant: TenantId, id: string): Promise<boolean> {
    return (await this.get(tenant, id)) ? this.rows.delete(id) : false;
  }
  async deleteByParticipant(tenant: TenantId, pid: string): Promise<number> {
    const ids = (await this.list(tenant)).filter((r) => r.participantId === pid).map((r) => r.id);
    ids.forEach((i) => this.rows.delete(i));
    return ids.length;
  }
  async reassign(tenant: TenantId, from: string, into: string): Promise<number> {
    const rs = (await this.list(tenant)).filter((r) => r.participantId === from);
    rs.forEach((r) => (r.participantId = into));
    return rs.length;
  }
  async countByParticipant(tenant: TenantId, pid: string): Promise<number> {
    return (await this.list(tenant)).filter((r) => r.participantId === pid).length;
  }
  async close(): Promise<void> {}
}

/** Run the tracker over `sessions` in order (prototypes persist across them) and score it. */
export async function scoreTracker(sessions: EvalUtterance[][], modelId: string, t: Pick<SpeakerThresholds, 'tauMatch' | 'tauUpdate' | 'alpha'>): Promise<TrackerScore> {
  const store = new MemoryVoiceprintStore();
  let next = 0;
  const assigned: { speaker: string; id: string; session: number }[] = [];
  for (const [s, utts] of sessions.entries()) {
    const tracker = await SpeakerTracker.open({ tenant: 'eval', modelId, thresholds: t, storeVoiceprints: true, store, createParticipant: async () => `p${++next}` });
    for (const u of utts) assigned.push({ speaker: u.speaker, id: (await tracker.assign(u.vector)).participantId, session: s });
  }
  const speakers = [...new Set(assigned.map((a) => a.speaker))];
  const counts = new Map<string, number>();
  for (const a of assigned) counts.set(`${a.speaker}\u0000${a.id}`, (counts.get(`${a.speaker}\u0000${a.id}`) ?? 0) + 1);
  // Greedy one-to-one mapping on the confusion counts, largest cells first.
  const usedS = new Set<string>();
  const usedI = new Set<string>();
  let correct = 0;
  for (const [k, c] of [...counts.entries()].sort((a, b) => b[1] - a[1])) {
    const [spk, id] = k.split('\u0000') as [string, string];
    if (usedS.has(spk) || usedI.has(id)) continue;
    usedS.add(spk);
    usedI.add(id);
    correct += c;
  }
  const idsPer = speakers.map((sp) => new Set(assigned.filter((a) => a.speaker === sp).map((a) => a.id)).size);
  const majority = (sp: string, s: number): string | null => {
    const m = new Map<string, number>();
    for (const a of assigned) if (a.speaker === sp && a.session === s) m.set(a.id, (m.get(a.id) ?? 0) + 1);
    return [...m.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
  };
  let reid = 0;
  let reidTotal = 0;
  for (const sp of speakers) {
    const sess = [...new Set(assigned.filter((a) => a.speaker === sp).map((a) => a.session))].sort((a, b) => a - b);
    const first = majority(sp, sess[0]!);
    for (const s of sess.slice(1)) {
      reidTotal++;
      if (majority(sp, s) === first) reid++;
    }
  }
  return {
    accuracy: correct / assigned.length,
    fragmentation: idsPer.reduce((a, b) => a + b, 0) / speakers.length,
    reidentification: reidTotal ? reid / reidTotal : NaN,
    utterances: assigned.length,
    speakers: speakers.length,
  };
}

/**
 * Arrange utterances into sessions: session k holds utterances [k·per, (k+1)·per) of every speaker
 * that has them, interleaved round-robin (a turn-taking conversation).
 */
export function arrangeSessions<T extends { speaker: string }>(utts: T[], perSpeakerPerSession: number): T[][] {
  const by = new Map<string, T[]>();
  for (const u of utts) by.set(u.speaker, [...(by.get(u.speaker) ?? []), u]);
  const maxN = Math.max(...[...by.values()].map((v) => v.length));
  const sessions: T[][] = [];
  for (let k = 0; k * perSpeakerPerSession < maxN; k++) {
    const parts = [...by.values()].map((v) => v.slice(k * perSpeakerPerSession, (k + 1) * perSpeakerPerSession)).filter((p) => p.length > 0);
    const session: T[] = [];
    for (let i = 0; i < perSpeakerPerSession; i++) for (const p of parts) if (p[i]) session.push(p[i]!);
    if (session.length > 0) sessions.push(session);
  }
  return sessions;
}
