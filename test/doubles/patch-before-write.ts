/**
 * Timing double for attribute races (real store, no fake data): a graph store seen through a proxy that, when the code
 * under test is about to write a participant's attributes for the first time, first runs a client's PATCH of that
 * participant, as `PATCH /v1/participants/{ref}` does it (`patchAttributes` on the stored attributes, then
 * `updateParticipant`). The PATCH lands after everything the code read and before its write reaches the store: the
 * widest window a read-modify-write leaves. Deterministic: no timers, no threads.
 */
import type { GraphStore } from '../../graph/graph-store.js';
import type { TenantId } from '../../graph/types.js';
import { patchAttributes } from '../../pipelines/interaction/participant-attributes.js';

/** The store calls that write a participant's attributes (whole, or some keys). */
const ATTRIBUTE_WRITES = new Set<PropertyKey>(['updateParticipant', 'updateParticipantAttribute', 'updateParticipantAttributes', 'updateParticipantNames']);

/** A graph store whose first attribute write of `participantId` is preceded by a client PATCH of `patch`. */
export interface PatchBeforeWrite {
  graph: GraphStore;
  /** How many PATCHes ran (0 or 1): a test asserts 1, so its interleaving cannot silently not happen. */
  patches: () => number;
}

/**
 * `graph`, wrapped so that the first call writing `participantId`'s attributes (any of {@link ATTRIBUTE_WRITES}) runs
 * `patch` (a client's JSON merge patch of the attributes) first, straight on `graph`.
 */
export function patchBeforeFirstWrite(graph: GraphStore, tenant: TenantId, participantId: string, patch: Record<string, unknown>): PatchBeforeWrite {
  let patches = 0;
  const wrapped = new Proxy(graph, {
    get(target, prop) {
      const v = Reflect.get(target, prop, target) as unknown;
      if (typeof v !== 'function') return v;
      const call = (v as (...a: unknown[]) => unknown).bind(target);
      if (!ATTRIBUTE_WRITES.has(prop)) return call;
      return async (...args: unknown[]) => {
        if (patches === 0 && args[0] === tenant && args[1] === participantId) {
          patches += 1;
          const stored = await target.getParticipant(tenant, participantId);
          if (stored) await target.updateParticipant(tenant, participantId, { attributes: patchAttributes(stored.attributes, patch).attributes });
        }
        return call(...args);
      };
    },
  });
  return { graph: wrapped, patches: () => patches };
}
