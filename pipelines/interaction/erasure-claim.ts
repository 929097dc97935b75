import type { Stores } from '../../graph/stores.js';
import type { ErasureLease } from '../../graph/pending-erasures.js';
import { ParleyError } from '../../graph/core/errors.js';
import type { TenantId } from '../../graph/types.js';

/** Who finishes pending erasures, and how long a claim on one holds (`GraphStore.claimErasure`). */
export interface ErasureOwner {
  /** This process, unique among those on the store. */
  owner: string;
  leaseMs: number;
}

/**
 * The claim of one run on a pending erasure (`GraphStore.claimErasure`): taken (or renewed) by `claim`, renewed every
 * third of the lease from then on until `stop`, so an erasure longer than one lease is never taken over by another
 * server while it still runs; `release` ends it now (a failed run), so another server need not wait for the lease.
 */
export class ErasureClaim {
  #renew: NodeJS.Timeout | undefined;
  #claimed = false;

  constructor(private readonly stores: Stores, private readonly tenant: TenantId, private readonly id: string, private readonly lease: ErasureOwner) {}

  /** Take the lease, or renew it; a `PARLEY_ERR_CONFLICT` when another owner holds it. */
  async claim(): Promise<void> {
    const { stores, tenant, id, lease } = this;
    if (!await stores.graph.claimErasure(tenant, id, leaseFrom(lease, new Date()))) {
      const current = (await stores.graph.pendingErasures(tenant)).find((e) => e.participantId === id);
      throw new ParleyError('PARLEY_ERR_CONFLICT',
        `the erasure of ${id} is being finished by another server${current?.leaseUntil ? ` (its claim holds until ${current.leaseUntil})` : ''}; send the same request again later`);
    }
    this.#held();
  }

  /**
   * Record a new erasure already claimed, in one step (`GraphStore.beginClaimedErasure`): a crash never leaves it
   * recorded and unclaimed, and no other server claims it between the two. False when the participant left the graph
   * meanwhile (another server erased them); a `PARLEY_ERR_CONFLICT` when another server began erasing them meanwhile.
   */
  async begin(plan: string, utteranceIds: string[]): Promise<boolean> {
    const { stores, tenant, id, lease } = this;
    if (await stores.graph.beginClaimedErasure(tenant, id, plan, utteranceIds, leaseFrom(lease, new Date()))) {
      this.#held();
      return true;
    }
    const pending = (await stores.graph.pendingErasures(tenant)).find((e) => e.participantId === id);
    if (!pending && !await stores.graph.getParticipant(tenant, id)) return false;
    throw new ParleyError('PARLEY_ERR_CONFLICT',
      `the erasure of ${id} was begun by another server meanwhile${pending?.leaseUntil ? ` (its claim holds until ${pending.leaseUntil})` : ''}; send the same request again later`);
  }

  /** Claimed: renewed every third of the lease from now until `stop`. */
  #held(): void {
    const { stores, tenant, id, lease } = this;
    this.#claimed = true;
    if (this.#renew) return;
    this.#renew = setInterval(() => {
      stores.graph.claimErasure(tenant, id, leaseFrom(lease, new Date()))
        .catch(() => undefined); // a failed renewal leaves the lease to end; the erasure itself goes on (its steps repeat safely)
    }, Math.max(10, Math.floor(lease.leaseMs / 3)));
    this.#renew.unref();
  }

  /** Give the claim up now (its lease ends at once); nothing when it was never taken. Best effort. */
  async release(): Promise<void> {
    this.stop();
    if (!this.#claimed) return;
    const now = new Date().toISOString();
    await this.stores.graph.claimErasure(this.tenant, this.id, { owner: this.lease.owner, now, until: now }).catch(() => undefined);
  }

  stop(): void {
    clearInterval(this.#renew);
    this.#renew = undefined;
  }
}

/** A claim by `lease.owner` from `now` for its lease. */
export function leaseFrom(lease: ErasureOwner, now: Date): ErasureLease {
  return { owner: lease.owner, now: now.toISOString(), until: new Date(now.getTime() + lease.leaseMs).toISOString() };
}
