import { validatePooledClaim, validateStoredClaim, type PooledClaim, type StoredClaim } from '../../pipelines/speaker/stored-claim.js';

/**
 * The claim grid of bench/speaker-drift.ts and bench/speaker-defer.ts (`--claim` with no list), fixed a priori (helper
 * speech21): each knob alone at two strengths, then two together-settings. The scales: a 3 s turn's calibrated LLR
 * (stats-lda-v2) rises about 5.7 per unit of cosine, so a cost or margin of 0.5–1 asks for 0.1–0.2 more cosine; 1.5 s
 * bars the 0.75 s fragments a VAD gives, 2.5 s also the shorter turns.
 */
export const CLAIM_GRID = '0.5:0:0,1:0:0,0:0.5:0,0:1:0,0:0:1.5,0:0:2.5,0.5:0.5:1.5,1:1:1.5';

/**
 * The second grid (`--pooled-claim` with no list; added after the first grid had no eligible arm, its rule the same,
 * committed before it ran): end-of-session claims from a new id's pooled speech, `MINSECONDS:MARGIN`, each alone on
 * today's online claims and each with the 1.5 s online gate (shorter turns then found session ids that claim at the end).
 */
export const POOLED_GRID = '3:0,3:1,6:0,6:1';

/** `MINSECONDS:MARGIN,…` as end-of-session claim settings; throws on a malformed or invalid one. */
export function parsePooled(list: string): PooledClaim[] {
  return list.split(',').filter((x) => x !== '').map((item) => {
    const parts = item.split(':').map(Number);
    if (parts.length !== 2) throw new RangeError(`--pooled-claim: '${item}' is not MINSECONDS:MARGIN`);
    const c: PooledClaim = { minSeconds: parts[0]!, margin: parts[1]! };
    validatePooledClaim(c);
    return c;
  });
}

/** `COST:MARGIN:MINSECONDS,…` as settings; throws on a malformed or invalid one. */
export function parseClaims(list: string): StoredClaim[] {
  return list.split(',').filter((x) => x !== '').map((item) => {
    const parts = item.split(':').map(Number);
    if (parts.length !== 3) throw new RangeError(`--claim: '${item}' is not COST:MARGIN:MINSECONDS`);
    const c: StoredClaim = { cost: parts[0]!, margin: parts[1]!, minSeconds: parts[2]! };
    validateStoredClaim(c);
    return c;
  });
}
