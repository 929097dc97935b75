import type { MemoryStore, PersonaNode } from '../../graph/memory-store.js';
import type { TenantId } from '../../graph/types.js';

/** When repeated evidence becomes a stable persona node. */
export interface PersonaOptions {
  /** Observations needed; default 2. */
  minEvidence?: number;
  /** Smallest |mean valence| for affect and preference nodes; default 0.2. */
  minValence?: number;
}

/**
 * Long-horizon consolidation (run at session end): nodes whose evidence repeats consistently become
 * stable; stable nodes whose evidence turned ambivalent lose that status. Returns the stable nodes.
 */
export function createPersonaConsolidator(memory: MemoryStore, options: PersonaOptions = {}) {
  const minEvidence = options.minEvidence ?? 2;
  const minValence = options.minValence ?? 0.2;
  return async function consolidatePersona(tenant: TenantId, participantId: string): Promise<PersonaNode[]> {
    const nodes = await memory.listPersona(tenant, participantId);
    const stable: PersonaNode[] = [];
    for (const n of nodes) {
      const should = n.evidenceCount >= minEvidence && (n.kind === 'trait' || Math.abs(n.valence) >= minValence);
      if (should !== n.stable) await memory.setPersonaStable(tenant, n.id, should);
      if (should) stable.push({ ...n, stable: true });
    }
    return stable;
  };
}
