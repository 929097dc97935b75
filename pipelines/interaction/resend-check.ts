import { ParleyError } from '../../graph/core/errors.js';
import type { GraphStore } from '../../graph/graph-store.js';
import type { TenantId, Utterance } from '../../graph/types.js';
import { withSecretsRedacted } from '../../graph/spoken-secrets.js';

/** What of an utterance a resend must repeat: the session, the speaker reference and the text. */
export interface ResendCandidate {
  speaker: string;
  text: string;
  /** Its id was derived from an `Idempotency-Key` header rather than sent as `utterance_id`. */
  idFromKey?: boolean;
}

/**
 * Whether `input`, sent to `sessionId` with the id of `stored`, is a resend of it: the same session,
 * the same text (as stored: a secret's value redacted, `withSecretsRedacted`), and a speaker reference that names the stored speaker (its id, its external id, or
 * its name or an alias, case-insensitive, so a resend that names the speaker as the first try did
 * still matches after the speaker was given a name).
 */
export async function isResendOf(
  graph: GraphStore, tenant: TenantId, sessionId: string, input: ResendCandidate, stored: Utterance,
): Promise<boolean> {
  if (stored.sessionId !== sessionId || (stored.text !== input.text && stored.text !== withSecretsRedacted(input.text))) return false;
  if (input.speaker === stored.speakerId) return true;
  const [speaker] = await graph.getParticipants(tenant, [stored.speakerId]);
  if (!speaker) return false;
  if (speaker.externalId === input.speaker) return true;
  const ref = input.speaker.trim().toLowerCase();
  return [speaker.name, ...speaker.aliases].some((n) => n?.trim().toLowerCase() === ref);
}

/**
 * The refusal of an id already stored with other content or in another session: utterance ids are
 * unique per tenant, and storing nothing while answering 201 would lose the new words.
 */
export function resendConflict(input: ResendCandidate, stored: Utterance, sessionId: string): ParleyError {
  const where = stored.sessionId === sessionId ? 'with another speaker or text' : 'in another session';
  if (input.idFromKey) {
    return new ParleyError('PARLEY_ERR_IDEMPOTENCY_KEY_REUSED',
      `this Idempotency-Key was already used for another request (its utterances were stored ${where}); nothing was stored: send new utterances with a new key`);
  }
  return new ParleyError('PARLEY_ERR_UTTERANCE_ID_CONFLICT',
    `utterance_id ${JSON.stringify(stored.id)} is already stored ${where}; utterance ids are unique per tenant: a resend repeats the session, speaker and text, new words need a new id. Nothing was stored`);
}
