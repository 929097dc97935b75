import type { GraphStore } from '../../graph/graph-store.js';
import type { Participant, TenantId } from '../../graph/types.js';

/** Maps speaker labels, names and ids to participants, creating unknown ones once per batch. */
export class ParticipantResolver {
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

  /** Replace the cached copy after an update. */
  remember(p: Participant): void {
    this.known.set(p.id, p);
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
