import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { ServerEventPayloads, ServerEventType } from '../../graph/core/events.js';
import { ANSWERABLE_DESCRIPTION, MemoryItemView, ParticipantRef, ref } from './http-schemas.js';

/**
 * Server → client events on `GET /v1/stream` as JSON Schema (TypeBox), for the AsyncAPI document.
 * The compiler holds each schema to `ServerEventPayloads` (graph/core/events.ts), which the server
 * sends, so the published protocol cannot drift from the code.
 */

const NullableNumber = Type.Union([Type.Number(), Type.Null()]);
const Timings = Type.Record(Type.String(), Type.Number(), { description: 'milliseconds per stage' });

export const SERVER_EVENT_PAYLOADS = {
  'session.started': Type.Object({
    config: Type.Record(Type.String(), Type.Unknown(), { description: '{session_id, sample_rate, encoding, channels}' }),
    resumed: Type.Boolean({ description: 'true when this socket continues an existing session' }),
    unstored_from_ms: Type.Optional(Type.Number({
      description: 'on a resume whose audio goes to a new audio stream (the server crashed or restarted, the resume window was over, another server took the session): where, on the previous audio stream (in ms of it: the clock of its audio_start_ms), nothing is stored; resend the audio from there before new audio (0: nothing of that stream was stored). Absent when the previous stream goes on or there was none',
    })),
  }),
  'session.updated': Type.Object({ session: Type.Record(Type.String(), Type.Unknown(), { description: 'the merged settings' }) }),
  'vad.speech_started': Type.Object({ turn_id: Type.String(), audio_start_ms: Type.Number() }),
  'vad.speech_stopped': Type.Object({
    turn_id: Type.String(),
    audio_end_ms: Type.Number({ description: 'where the speech ended' }),
    decided_at_ms: Type.Number({ description: 'audio position of the end-of-turn decision' }),
    reason: Type.Union([Type.Literal('silence'), Type.Literal('commit'), Type.Literal('max_turn'), Type.Literal('overload')], {
      description: 'overload: audio after the turn was shed under overload (see audio.shed), so the turn ended where that audio begins',
    }),
  }),
  'audio.shed': Type.Object({
    shed_from_ms: Type.Number({ description: 'where the first span begins, ms of the stream (the clock of audio_start_ms)' }),
    shed_until_ms: Type.Number({ description: 'where the last span ends, ms of the stream' }),
    spans: Type.Array(Type.Object({ from_ms: Type.Number(), until_ms: Type.Number() }), {
      description: 'every stretch of audio shed, [from_ms, until_ms), oldest first: exactly what was not heard',
    }),
  }, { description: 'audio shed under overload and never heard, sent when the overload episode ends (or the stream closes during one); a long episode gets one notice per 100 spans' }),
  'transcript.partial': Type.Object({ turn_id: Type.String(), text: Type.String() }),
  'transcript.final': Type.Object({
    turn_id: Type.String(),
    utterance_id: Type.String(),
    text: Type.String(),
    start_ms: NullableNumber,
    end_ms: NullableNumber,
    confidence: NullableNumber,
    speaker: Type.Object({ id: Type.String(), name: Type.Union([Type.String(), Type.Null()]), confidence: Type.Number(), is_new: Type.Boolean() }),
    addressees: Type.Array(ref(ParticipantRef)),
    warnings: Type.Optional(Type.Array(Type.String(), {
      description: 'a typed utterance whose speaker label is a role ("caller", "customer"), not a person: one line saying every turn posted under it is one participant (as the HTTP answer\'s warnings)',
    })),
  }, { description: 'sent only after the utterance is durably stored' }),
  'memory.context': Type.Object({
    turn_id: Type.String(),
    speculative: Type.Boolean(),
    items: Type.Array(ref(MemoryItemView)),
    timings: Type.Object({ match_ms: Type.Number(), expand_ms: Type.Number(), search_ms: Type.Number(), total_ms: Type.Number() }),
    ready_at_ms: Type.Number({ description: 'relative to the turn\'s vad.speech_stopped decision; negative = ready before it' }),
  }),
  'memory.updated': Type.Object({
    ops: Type.Array(Type.Object({
      op: Type.Union([Type.Literal('ADD'), Type.Literal('UPDATE'), Type.Literal('DELETE'), Type.Literal('KEEP')]),
      memory_id: Type.String(),
      text: Type.String(),
      reason: Type.Optional(Type.Union([Type.Literal('speaker_revised'), Type.Literal('forgotten')], {
        description: 'absent for an ordinary decision; `speaker_revised`: the utterance the memory came from was given to another speaker (a DELETE withdraws what it gave the old one, an ADD makes current again what that had replaced or what the utterance had deleted); `forgotten`: utterances were forgotten (DELETE /v1/utterances/{id} or /v1/sessions/{id}), sent to every live session of the tenant (a DELETE for each memory that came only from them, its `text` empty; an ADD for one current again, which only they had replaced or deleted)',
      })),
    })),
  }),
  'speaker.merged': Type.Object({ from: Type.String(), into: Type.String() }, { description: 'everything of `from` now belongs to `into`' }),
  'speaker.revised': Type.Object({ utterance_id: Type.String(), from: Type.String(), into: Type.String() }, { description: 'one stored utterance of the session, said by `from`, now belongs to `into`' }),
  'participant.identified': Type.Object({
    external_id: Type.String(),
    participant: Type.Union([
      Type.Object({ id: Type.String(), name: Type.Union([Type.String(), Type.Null()]), external_id: Type.Union([Type.String(), Type.Null()]) }),
      Type.Null(),
    ], { description: 'the participant now holding the external id; null while it waits for the session\'s first speaker' }),
  }, { description: 'answer to participant.identify' }),
  'query.result': Type.Object({
    id: Type.String(), evidence: Type.Array(ref(MemoryItemView)), answerable: Type.Boolean({ description: ANSWERABLE_DESCRIPTION }), rounds: Type.Number(), timings: Timings,
  }),
  error: Type.Object({
    code: Type.String({ description: 'a PARLEY_ERR_* code' }),
    message: Type.String(),
    fatal: Type.Boolean({ description: 'the socket closes after a fatal error' }),
    unstored_from_ms: Type.Optional(Type.Number({
      description: 'PARLEY_ERR_SHUTTING_DOWN only: where the audio the server did not store begins, in ms of the stream (the clock of audio_start_ms); resend from there after reconnecting',
    })),
    shed_from_ms: Type.Optional(Type.Number({
      description: 'PARLEY_ERR_OVERLOADED of shed audio only: where the shed audio of this overload episode begins, in ms of the stream (the clock of audio_start_ms); audio from there is dropped until the episode ends: 1 s of audio accepted since its last shed frame, or a frame arriving 1 s (wall clock) or more after it, whichever comes first; shedding after that is a new episode with a new error. The episode\'s audio.shed event names exactly what was shed, up to where it ended',
    })),
    id: Type.Optional(Type.String({
      description: 'any error that answers a query (refused, failed, or dropped by a full queue): that query\'s id; no query.result with that id comes',
    })),
    dropped: Type.Optional(Type.Object({
      type: Type.String({ description: "the dropped message's type" }),
      utterance_id: Type.Optional(Type.String({ description: 'its utterance_id, when it had one (utterance, query)' })),
      id: Type.Optional(Type.String({ description: "a dropped query's id: no query.result with that id comes" })),
    }, {
      description: 'PARLEY_ERR_OVERLOADED of a full message queue only (more than PARLEY_SESSION_QUEUE waiting): the client message dropped, when it was a valid one (a malformed one is named only by its place in the order of replies); nothing of it was stored or answered',
    })),
  }),
  'session.ended': Type.Object({}),
} satisfies Record<ServerEventType, TSchema>;

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Fails to compile when a schema above and the payload the server sends disagree. */
const _inSync: { [K in ServerEventType]: Same<Static<(typeof SERVER_EVENT_PAYLOADS)[K]>, ServerEventPayloads[K]> } = {
  'session.started': true, 'session.updated': true, 'vad.speech_started': true, 'vad.speech_stopped': true, 'audio.shed': true,
  'transcript.partial': true, 'transcript.final': true, 'memory.context': true, 'memory.updated': true,
  'speaker.merged': true, 'speaker.revised': true, 'participant.identified': true, 'query.result': true, error: true, 'session.ended': true,
};
void _inSync;

/** Fields every server frame carries besides its payload. */
export const ServerEventEnvelope = {
  session_id: Type.Union([Type.String(), Type.Null()], { description: 'null only on an error refusing the connection' }),
  seq: Type.Integer({ minimum: 0, description: '1, 2, 3… per session, continued across reconnects (0 on a refusal)' }),
};

/** The full frame schema of one event type: envelope + payload. */
export function serverEventSchema(type: ServerEventType): TSchema {
  const payload = SERVER_EVENT_PAYLOADS[type];
  return Type.Object({ type: Type.Literal(type), ...ServerEventEnvelope, ...payload.properties }, {
    ...(payload.description ? { description: payload.description } : {}),
  });
}
