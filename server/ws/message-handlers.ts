import type { Static } from '@sinclair/typebox';
import { isContextScope } from '../../pipelines/retrieval/context-scope.js';
import { endStoredSession } from '../../pipelines/interaction/session-end.js';
import { changeSessionMetadata } from '../../pipelines/interaction/session-metadata.js';
import { ParleyError } from '../../graph/core/errors.js';
import { likelyMeant } from '../protocol/closest-name.js';
import { clientTime, isoTime } from '../protocol/iso-time.js';
import {
  CLIENT_MESSAGES, usefulValueErrors, valueErrorText, type ParticipantIdentifyMessage, type QueryMessage, type SessionUpdateMessage, type UtteranceMessage,
} from '../protocol/ws-messages.js';
import { resolveParticipantRef } from '../../pipelines/interaction/participant-ref.js';
import { roleLabelWarnings } from '../routes/speaker-labels.js';
import type { LiveSession, LiveSessionDeps } from './live-session.js';
import { validateSessionSettings } from './session-settings.js';

type MessageType = keyof typeof CLIENT_MESSAGES;

/** The most session metadata (`session.update`, merged, as JSON) kept per session: 64 KiB. */
export { MAX_SESSION_METADATA_BYTES } from '../../pipelines/interaction/session-metadata.js';

/** Parse and validate a text frame; throws a ParleyError that says what is wrong. */
export function parseClientMessage(raw: string): { type: MessageType; message: unknown } {
  let message: unknown;
  try {
    message = JSON.parse(raw);
  } catch {
    throw new ParleyError('PARLEY_ERR_BAD_FRAME', 'text frames must be JSON objects');
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    throw new ParleyError('PARLEY_ERR_BAD_FRAME', 'text frames must be JSON objects');
  }
  const type = (message as { type?: unknown }).type;
  if (typeof type !== 'string' || !Object.hasOwn(CLIENT_MESSAGES, type)) {
    throw new ParleyError('PARLEY_ERR_UNKNOWN_TYPE', unknownTypeMessage(type));
  }
  const validator = CLIENT_MESSAGES[type as MessageType];
  // The most useful error, not the first found: a misspelt required field is named with what it was meant to be.
  const [first] = usefulValueErrors(validator.Errors(message), 1);
  if (first) {
    throw new ParleyError('PARLEY_ERR_BAD_FRAME', `${type}: ${first.path || '/'} ${valueErrorText(first)}`);
  }
  return { type: type as MessageType, message };
}

/** Why a message's `type` is none of ours: missing, not a string, or unknown (with the type it was probably meant to be). */
function unknownTypeMessage(type: unknown): string {
  const known = Object.keys(CLIENT_MESSAGES);
  const expected = `expected one of ${known.join(', ')}`;
  if (type === undefined) return `message has no "type" field; ${expected}`;
  if (typeof type !== 'string') return `message "type" must be a string; ${expected}`;
  const meant = likelyMeant(type, known);
  return `unknown message type ${JSON.stringify(type)}; ${meant !== undefined ? `did you mean "${meant}"? ` : ''}${expected}`;
}

/** Runs one validated client message in its session. */
export async function handleClientMessage(
  session: LiveSession,
  deps: LiveSessionDeps,
  type: MessageType,
  message: unknown,
): Promise<void> {
  if (session.ended) {
    // Ended already (by this socket, over HTTP, or Twilio `stop`): a second end has nothing to do.
    if (type === 'session.end') return;
    throw endedError(session, type);
  }
  switch (type) {
    case 'session.update':
      return updateSession(session, deps, message as Static<typeof SessionUpdateMessage>);
    case 'utterance':
      return storeUtterance(session, deps, message as Static<typeof UtteranceMessage>);
    case 'input.commit':
      session.voice.commit();
      return;
    case 'query':
      return answerQuery(session, deps, message as Static<typeof QueryMessage>);
    case 'participant.identify':
      return identifyParticipant(session, deps, message as Static<typeof ParticipantIdentifyMessage>);
    case 'session.end':
      return endSession(session, deps);
  }
}

/** The refusal of a client message that came after the session's end was asked for: nothing of it is stored. */
export function endedError(session: LiveSession, type: string): ParleyError {
  const why = session.ended ? 'has ended' : `is ending (${session.ending ?? 'session.end'})`;
  return new ParleyError('PARLEY_ERR_SESSION_ENDED', `session ${session.id} ${why}: this ${type} was not handled and nothing of it was stored; use a new session`);
}

async function updateSession(session: LiveSession, deps: LiveSessionDeps, msg: Static<typeof SessionUpdateMessage>): Promise<void> {
  const settings = validateSessionSettings(msg.session, session.format);
  // Under the session's metadata lock: a scrub or the stream's agents written meanwhile are kept.
  const metadata = (await changeSessionMetadata(deps.stores, session.tenant, session.id, (stored) => {
    const merged: Record<string, unknown> = { ...(stored ?? {}), ...settings };
    if (settings.language === null) delete merged.language;
    if (settings.context_scope === null) delete merged.context_scope;
    return merged;
  }, 'session.update'))!;
  if (Object.hasOwn(settings, 'context_scope')) session.ownContextScope = isContextScope(metadata.context_scope) ? metadata.context_scope : null;
  session.send('session.updated', { session: metadata });
}

async function storeUtterance(session: LiveSession, deps: LiveSessionDeps, msg: Static<typeof UtteranceMessage>): Promise<void> {
  if (msg.start_ms !== undefined && msg.end_ms !== undefined && msg.end_ms < msg.start_ms) {
    throw new ParleyError('PARLEY_ERR_BAD_FRAME', 'utterance: end_ms is before start_ms');
  }
  // Checked before anything is stored: a time HTTP would refuse is refused here too.
  const time = msg.time !== undefined ? clientTime(msg.time, 'utterance: time', deps.clock(), 'PARLEY_ERR_BAD_FRAME') : session.connectionTime();
  // Numbered before it is stored, so the turn is kept with the utterance (a resend, even after a
  // restart, is acknowledged with it); a resend leaves this number unused.
  const turnId = session.nextTurnId();
  const [stored] = await deps.ingest.ingest(session.tenant, session.id, [
    {
      ...(msg.utterance_id ? { id: msg.utterance_id } : {}),
      speaker: msg.speaker, text: msg.text, turnId,
      ...(msg.addressees ? { addressees: msg.addressees } : {}),
      startMs: msg.start_ms ?? null, endMs: msg.end_ms ?? null,
      ...(time !== undefined ? { time } : {}),
    },
  ]);
  if (!stored) return;
  if (stored.resent) {
    session.acknowledgeResend(stored);
    return;
  }
  deps.metrics.utterancesStored.inc({ source: 'ws' });
  await session.claimExternalId(stored.speaker.id);
  // A role for a speaker ("caller") makes every call's caller one participant: said as over HTTP (README, context_scope).
  session.finalised(turnId, stored, roleLabelWarnings([msg.speaker]));
}

/**
 * `participant.identify`: give a participant (by default the session's last speaker who is not one of its agents)
 * the application's own id. Before such a speaker spoke, the next one to speak takes it.
 */
async function identifyParticipant(session: LiveSession, deps: LiveSessionDeps, msg: Static<typeof ParticipantIdentifyMessage>): Promise<void> {
  const ref = msg.participant ?? session.lastNonAgentId();
  if (!ref) {
    session.pendingExternalId = msg.external_id;
    session.send('participant.identified', { external_id: msg.external_id, participant: null });
    return;
  }
  const { graph } = deps.stores;
  const target = await resolveParticipantRef(graph, session.tenant, ref);
  const p = await graph.updateParticipant(session.tenant, target.id, { externalId: msg.external_id });
  if (!p) throw new ParleyError('PARLEY_ERR_NOT_FOUND', `no participant ${target.id}`);
  session.send('participant.identified', { external_id: msg.external_id, participant: { id: p.id, name: p.name, external_id: p.externalId } });
}

async function answerQuery(session: LiveSession, deps: LiveSessionDeps, msg: Static<typeof QueryMessage>): Promise<void> {
  const asker = msg.asker ? (await resolveParticipantRef(deps.stores.graph, session.tenant, msg.asker, 'asker')).id : null;
  // Answered within the session's scope, as its pushed context is: a caller's agent asking mid-call hears no other caller.
  const scope = await session.memoryScope(msg.context_scope);
  const result = await deps.memoryQuery(session.tenant, {
    question: msg.question,
    asker,
    k: msg.k ?? 5,
    ...(msg.now !== undefined ? { now: new Date(isoTime(msg.now, `query ${JSON.stringify(msg.id)}: now`, 'PARLEY_ERR_BAD_FRAME')) } : {}),
    sessionId: session.id,
    // The turn that asked it (just spoken, or sent as an `utterance`) is no evidence of its answer.
    excludeIds: await askingTurns(session, deps, msg),
    ...(scope ? { scope } : {}),
  });
  session.send('query.result', { id: msg.id, ...result });
}

/**
 * The turns a `query` leaves out of its evidence: exactly the one its `utterance_id` names (a turn of this
 * session, else refused), or without it the session's last turns with the question's words.
 */
async function askingTurns(session: LiveSession, deps: LiveSessionDeps, msg: Static<typeof QueryMessage>): Promise<string[]> {
  const id = msg.utterance_id;
  if (id === undefined) return session.recentTurns.asking(msg.question);
  if (session.recentTurns.has(id)) return [id];
  const turn = await deps.stores.graph.getUtterance(session.tenant, id);
  // Another session's turn reads as unknown: a socket learns nothing of other sessions.
  if (turn?.sessionId !== session.id) {
    throw new ParleyError('PARLEY_ERR_NOT_FOUND', `query ${JSON.stringify(msg.id)}: session ${session.id} has no turn ${JSON.stringify(id)} (utterance_id names the turn that asked the question: the utterance_id of its transcript.final); nothing was asked`);
  }
  return [turn.id];
}

/**
 * End a live session from outside its socket (`POST /v1/sessions/{id}/end`, that end made on another server, or the
 * idle sweep; `why` tells clients which), as
 * `session.end` would: behind the messages already queued, its open turn stored, then the one end time and job,
 * `session.ended` and the close. Without it the socket went on storing turns into the ended session, after its job.
 */
export async function endLiveSession(session: LiveSession, deps: LiveSessionDeps, why = 'it was ended over HTTP'): Promise<void> {
  if (session.ended) return;
  // A session waiting for a resume ends too (its subscribers told, its slot freed), not when its resume window closes.
  session.ending ??= why;
  await new Promise<void>((resolve, reject) => {
    // Queued even when the queue is full: the end is never shed.
    session.enqueue(() => (session.ended ? Promise.resolve() : endSession(session, deps)).then(resolve, reject), { always: true });
  });
}

/**
 * `session.end` arrived on the socket (or the stream ended otherwise: `why`): from now on the session takes
 * nothing more (`LiveSession.ending`); the end runs behind the messages queued before it, even when the queue is full.
 */
export function requestEnd(session: LiveSession, deps: LiveSessionDeps, why = 'session.end was sent'): void {
  // Sent again, or after an end over HTTP: that end is under way, and its session.ended answers this one too.
  if (session.ending !== null || session.ended) return;
  session.ending = why;
  session.enqueue(() => handleClientMessage(session, deps, 'session.end', { type: 'session.end' }), { always: true });
}

async function endSession(session: LiveSession, deps: LiveSessionDeps): Promise<void> {
  session.ending ??= 'session.end was sent';
  try {
    await session.endVoice(true);
    const { waiting, noWorker } = await session.awaitConsolidation(deps.config.sessionEndWaitMs);
    // Without a worker, `ConsolidationWorkers` has said why, once for all sessions: no second warning per session.
    if (waiting > 0 && !noWorker) {
      session.log.warn({ waiting, waitedMs: deps.config.sessionEndWaitMs }, 'session ended before every utterance was consolidated within PARLEY_SESSION_END_WAIT_MS; memory.updated follows later, not on the closed socket');
    } else if (waiting > 0) {
      session.log.debug({ waiting }, 'session ended without waiting for consolidation: no worker takes the jobs');
    }
    // Ended over HTTP meanwhile: that end holds (one end time, one job).
    await endStoredSession(deps.stores, session.tenant, session.id);
  } catch (err) {
    // Not ended (the store refused the end): the session goes on, and session.end may be sent again.
    session.ending = null;
    throw err;
  }
  session.ended = true;
  // What came after the end and still waits is refused now, in order, before session.ended and the close.
  await session.runQueuedNow();
  session.send('session.ended', {});
  await session.close(1000, 'session ended');
  session.onFinished();
}

