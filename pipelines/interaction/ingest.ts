import type { Logger } from 'pino';
import type { GraphStore } from '../../graph/graph-store.js';
import type { JobQueue } from '../../graph/job-queue.js';
import type { LexicalIndex } from '../../graph/lexical-index.js';
import type { Participant, TenantId, Utterance } from '../../graph/types.js';
import { inferAddressees } from './addressee.js';

/** The queue name of the per-utterance memory job. */
export const CONSOLIDATE_JOB = 'memory.consolidate';

/** An utterance as a client or the audio pipeline hands it in. */
export interface UtteranceInput {
  /** A participant id, or a label / name to resolve (created when unknown). */
  speaker: string;
  text: string;
  /** Participant ids or names; inferred when absent. */
  addressees?: string[];
  startMs?: number | null;
  endMs?: number | null;
  /** ISO-8601 wall-clock time; default now. */
  time?: string;
  confidence?: number | null;
  audioRef?: string | null;
  /** Confidence of the speaker attribution in [0, 1]; 1 when the client named the speaker. */
  speakerConfidence?: number;
}

/** A stored utterance with its resolved speaker and addressees, ready for `transcript.final`. */
export interface IngestedUtterance {
  utterance: Utterance;
  speaker: { id: string; name: string | null; confidence: number; isNew: boolean };
  addressees: { id: string; name: string | null }[];
}

/** Job data of `memory.consolidate`. */
export interface ConsolidateJobData {
  tenant: TenantId;
  sessionId: string;
  utteranceId: string;
}

export interface InteractionIngestDeps {
  graph: GraphStore;
  lexical: LexicalIndex;
  queue: JobQueue;
  logger: Logger;
}

/**
 * The memory path's first step, shared by WebSocket and HTTP: resolve speaker and addressees, store
 * the utterances atomically in the interaction graph, index them for keyword search, and queue them
 * for consolidation into long-term memory.
 */
export class InteractionIngest {
  constructor(private readonly deps: InteractionIngestDeps) {}

  async ingest(tenant: TenantId, sessionId: string, inputs: UtteranceInput[]): Promise<IngestedUtterance[]> {
    const { graph } = this.deps;
    await graph.openSession(tenant, sessionId, new Date().toISOString());
    const resolver = new ParticipantResolver(graph, tenant, await graph.listParticipants(tenant));
    const prior = (await graph.recentUtterances(tenant, sessionId, 8)).map((u) => ({ speakerId: u.speakerId }));
    // Resolve every speaker first, so a name spoken before its owner's first line in the batch is known.
    const speakers = [];
    for (const input of inputs) speakers.push(await resolver.resolve(input.speaker));
    const pending: { input: UtteranceInput; speaker: Participant; isNew: boolean; addressees: Participant[] }[] = [];
    for (const [i, input] of inputs.entries()) {
      const { participant: speaker, isNew } = speakers[i]!;
      const addressees = input.addressees
        ? await Promise.all(input.addressees.map(async (a) => (await resolver.resolve(a)).participant))
        : resolver.byIds(inferAddressees(speaker.id, input.text, prior, resolver.all()));
      prior.push({ speakerId: speaker.id });
      pending.push({ input, speaker, isNew, addressees: addressees.filter((a) => a.id !== speaker.id) });
    }
    const stored = await graph.addUtterances(
      tenant,
      pending.map(({ input, speaker, addressees }) => ({
        sessionId,
        speakerId: speaker.id,
        addresseeIds: addressees.map((a) => a.id),
        text: input.text,
        startMs: input.startMs ?? null,
        endMs: input.endMs ?? null,
        time: input.time ?? new Date().toISOString(),
        confidence: input.confidence ?? null,
        audioRef: input.audioRef ?? null,
      })),
    );
    await this.afterStore(tenant, stored);
    return stored.map((utterance, i) => {
      const p = pending[i]!;
      return {
        utterance,
        speaker: { id: p.speaker.id, name: p.speaker.name, confidence: p.input.speakerConfidence ?? 1, isNew: p.isNew },
        addressees: p.addressees.map((a) => ({ id: a.id, name: a.name })),
      };
    });
  }

  /** Index and queue; failures here never undo the stored utterances (the job re-indexes). */
  private async afterStore(tenant: TenantId, stored: Utterance[]): Promise<void> {
    try {
      await this.deps.lexical.index(
        tenant,
        stored.map((u) => ({
          id: u.id, text: u.text, layer: 'interaction', sessionId: u.sessionId,
          speakerId: u.speakerId, addresseeIds: u.addresseeIds,
        })),
      );
    } catch (err) {
      this.deps.logger.warn({ tenant, err: (err as Error).message }, 'lexical indexing failed; the consolidation job retries it');
    }
    for (const u of stored) {
      const data: ConsolidateJobData = { tenant, sessionId: u.sessionId, utteranceId: u.id };
      await this.deps.queue.enqueue(CONSOLIDATE_JOB, data, { jobId: `consolidate-${tenant}-${u.id}` });
    }
  }
}

/** Maps speaker labels, names and ids to participants, creating unknown ones once per batch. */
class ParticipantResolver {
  private readonly known = new Map<string, Participant>();

  constructor(private readonly graph: GraphStore, private readonly tenant: TenantId, participants: Participant[]) {
    for (const p of participants) this.known.set(p.id, p);
  }

  all(): Participant[] {
    return [...this.known.values()];
  }

  byIds(ids: string[]): Participant[] {
    return ids.flatMap((id) => this.known.get(id) ?? []);
  }

  async resolve(label: string): Promise<{ participant: Participant; isNew: boolean }> {
    const byId = this.known.get(label);
    if (byId) return { participant: byId, isNew: false };
    const lower = label.toLowerCase();
    const byName = this.all().find(
      (p) => p.name?.toLowerCase() === lower || p.aliases.some((a) => a.toLowerCase() === lower),
    );
    if (byName) return { participant: byName, isNew: false };
    const created = await this.graph.createParticipant(this.tenant, { name: label });
    this.known.set(created.id, created);
    return { participant: created, isNew: true };
  }
}
