import type { GraphStore } from './graph-store.js';
import type { TenantId } from './types.js';

/** A participant as responses show them. */
export interface ParticipantRef {
  id: string;
  name: string | null;
}

/** Resolves participant ids to `{id, name}`, each id looked up once per request. */
export class NameResolver {
  readonly #names = new Map<string, Promise<string | null>>();

  constructor(private readonly graph: GraphStore, private readonly tenant: TenantId) {}

  /**
   * Look up every id not yet known in one `getParticipants` call, so the `ref`s that follow need no
   * round trip of their own (an item list's speakers and addressees, resolved one by one, would
   * otherwise cost one store call each).
   */
  prefetch(ids: Iterable<string>): Promise<void> {
    const missing = [...new Set(ids)].filter((id) => !this.#names.has(id));
    if (missing.length === 0) return Promise.resolve();
    const found = this.graph.getParticipants(this.tenant, missing)
      .then((ps) => new Map(ps.map((p) => [p.id, p.name])), () => new Map<string, string | null>());
    for (const id of missing) this.#names.set(id, found.then((byId) => byId.get(id) ?? null));
    return found.then(() => undefined);
  }

  ref(id: string): Promise<ParticipantRef> {
    let name = this.#names.get(id);
    if (!name) {
      name = this.graph.getParticipant(this.tenant, id).then((p) => p?.name ?? null, () => null);
      this.#names.set(id, name);
    }
    return name.then((n) => ({ id, name: n }));
  }
}
