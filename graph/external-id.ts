import { ParleyError } from './core/errors.js';
import type { Participant } from './types.js';

/** Longest external id accepted (phone numbers, CRM ids, URNs). */
export const MAX_EXTERNAL_ID_LENGTH = 200;

/** The error for an external id another participant already holds. */
export function externalIdTaken(externalId: string, holderId: string): ParleyError {
  return new ParleyError('PARLEY_ERR_CONFLICT', `external_id ${JSON.stringify(externalId)} already belongs to participant ${holderId}`);
}

/** Refuse to merge two participants the application has told apart (different external ids). */
export function checkMergeable(from: Participant, into: Participant): void {
  if (from.externalId && into.externalId && from.externalId !== into.externalId) {
    throw new ParleyError('PARLEY_ERR_CONFLICT', `participants ${from.id} and ${into.id} hold different external ids; they are not merged`);
  }
}
