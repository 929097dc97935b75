import { ParleyError } from './core/errors.js';

/** Close reason (and `PARLEY_ERR_SESSION_BUSY` message) for a live session whose audio stream another one took over. */
export const STREAM_TAKEN_OVER = 'session resumed on another connection';

/**
 * The refusal of a turn of a live session whose audio stream another live session took over
 * (`GraphStore.takeAudioStream`), perhaps on another server: nothing of it is stored.
 */
export function streamTakenOver(sessionId: string): ParleyError {
  return new ParleyError('PARLEY_ERR_SESSION_BUSY', `${STREAM_TAKEN_OVER}: session ${sessionId}'s audio stream was taken over, so this connection stores no more turns`);
}

/** Whether `err` is {@link streamTakenOver}'s refusal. */
export function isStreamTakenOver(err: unknown): boolean {
  return err instanceof ParleyError && err.code === 'PARLEY_ERR_SESSION_BUSY';
}
