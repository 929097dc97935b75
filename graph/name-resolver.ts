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

  ref(id: string): Promise<ParticipantRef> {
    let name = this.#names.get(id);
    if (!name) {
      name = this.graph.getParticipant(this.tenant, id).then((p) => p?.name ?? null, () => null);
      this.#names.set(id, name);
    }
    return name.then((n) => ({ id, name: n }));
  }
}
