import { validateStoredClaim, type StoredClaim } from '../../pipelines/speaker/stored-claim.js';

/**
 * The claim grid of bench/speaker-drift.ts and bench/speaker-defer.ts (`--claim` with no list), fixed a priori (helper
 * speech21): each knob alone at two strengths, then two together-settings. The scales: a 3 s turn's calibrated LLR
 * (stats-lda-v2) rises about 5.7 per unit of cosine, so a cost or margin of 0.5–1 asks for 0.1–0.2 more cosine; 1.5 s
 * bars the 0.75 s fragments a VAD gives, 2.5 s also the shorter turns.
 */
export const CLAIM_GRID = '0.5:0:0,1:0:0,0:0.5:0,0:1:0,0:0:1.5,0:0:2.5,0.5:0.5:1.5,1:1:1.5';

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
