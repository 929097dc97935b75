import type { GraphStore } from '../../graph/graph-store.js';
import type { Participant, TenantId } from '../../graph/types.js';
import { mentionedParticipants } from './addressee.js';
import { findParticipantByRef, looksLikeParticipantId, oneNamed, survivorOfRetired } from './participant-ref.js';
import { ParleyError } from '../../graph/core/errors.js';

/**
 * Maps speaker labels, names and ids to participants for one ingest call, creating unknown ones. Looks
 * participants up as they are needed (never the tenant's whole list, which grows by one per caller in
 * a call center) and keeps what it has seen for the rest of the call.
 */
export class ParticipantResolver {
  private readonly known = new Map<string, Participant>();

  constructor(private readonly graph: GraphStore, private readonly tenant: TenantId) {}

  /** The participants with these ids, in order; unknown ids are skipped. Those not yet seen are read in one call. */
  async byIds(ids: string[]): Promise<Participant[]> {
    const missing = [...new Set(ids.filter((id) => !this.known.has(id)))];
    if (missing.length > 0) for (const p of await this.graph.getParticipants(this.tenant, missing)) this.known.set(p.id, p);
    return ids.flatMap((id) => this.known.get(id) ?? []);
  }

  /** Replace the cached copy after an update. */
  remember(p: Participant): void {
    this.known.set(p.id, p);
  }

  /**
   * An id, else an external id, else a name or alias (case-insensitive), else the survivor of the merge
   * that retired the id, else a new participant so named. A label that names several participants is
   * refused (`PARLEY_ERR_CONFLICT`, listing them): two people labelled alike are never merged by the label
   * alone; so is an erased id (`PARLEY_ERR_CONFLICT`): it never becomes a new participant's name. A label
   * in the form of a participant id (`p_` and letters or digits) that no one holds is a 404: a stale or
   * mistyped id never becomes a new participant named with it.
   */
  async resolve(label: string): Promise<{ participant: Participant; isNew: boolean }> {
    const [byId] = await this.byIds([label]);
    if (byId) return { participant: byId, isNew: false };
    const found = (await findParticipantByRef(this.graph, this.tenant, label)) ?? (await survivorOfRetired(this.graph, this.tenant, label));
    if (found) {
      this.remember(found);
      return { participant: found, isNew: false };
    }
    if (looksLikeParticipantId(label)) {
      throw new ParleyError('PARLEY_ERR_NOT_FOUND', `no participant with id ${JSON.stringify(label)} (a speaker or addressee in the form of a participant id must name an existing participant; nothing was stored)`);
    }
    // Created only if no one took the name meanwhile: concurrent first posts by one new name (in any
    // process) then resolve to one participant.
    const { participants, created } = await this.graph.createNamedParticipant(this.tenant, label);
    const participant = oneNamed(label, participants)!;
    this.remember(participant);
    return { participant, isNew: created };
  }

  /**
   * Ids of participants other than `exceptId` that `text` names (see `mentionedParticipants`): those in
   * `present` by name or alias, any other by full display name only.
   */
  async mentionedIn(text: string, exceptId: string, present?: ReadonlySet<string>): Promise<string[]> {
    const candidates = (await this.graph.findParticipantsInText(this.tenant, text)).filter((p) => p.id !== exceptId);
    for (const p of candidates) if (!this.known.has(p.id)) this.remember(p);
    return mentionedParticipants(text, candidates.map((p) => this.known.get(p.id) ?? p), present);
  }
}
