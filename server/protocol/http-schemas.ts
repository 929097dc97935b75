import { Type, type Static } from '@sinclair/typebox';

/** HTTP request and response schemas; fastify validates with them and @fastify/swagger publishes them. */

export const ErrorBody = Type.Object(
  { error: Type.Object({ code: Type.String(), message: Type.String() }) },
  { $id: 'Error' },
);

const Iso = Type.String({ format: 'date-time', description: 'ISO-8601 wall-clock time' });
const Ms = Type.Number({ minimum: 0, description: 'milliseconds from the start of the session audio' });
const Text = Type.String({ minLength: 1, maxLength: 10_000 });
const Label = Type.String({ minLength: 1, maxLength: 200 });

/** The application's own id for a participant (phone number, CRM id). */
export const ExternalId = Type.String({ minLength: 1, maxLength: 200, description: "the application's own id for the participant (phone number, CRM id)" });

/** Path parameter naming a participant: its id, external id or name. */
export const ParticipantRefParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 200, description: 'participant id, external_id, or a name (a name several participants hold is a 409)' }),
});
export type ParticipantRefParams = Static<typeof ParticipantRefParams>;

export const ParticipantRef = Type.Object({ id: Type.String(), name: Type.Union([Type.String(), Type.Null()]) });

export const UtteranceInputSchema = Type.Object(
  {
    utterance_id: Type.Optional(Type.String({
      minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_.:-]+$',
      description: 'the client\'s id for this utterance: sending it again stores nothing twice',
    })),
    speaker: Type.String({ minLength: 1, maxLength: 200, description: 'participant id, or a name/label to resolve' }),
    text: Text,
    addressees: Type.Optional(Type.Array(Label, { maxItems: 50 })),
    start_ms: Type.Optional(Ms),
    end_ms: Type.Optional(Ms),
    time: Type.Optional(Iso),
  },
  { additionalProperties: false },
);

export const PostUtterancesBody = Type.Object(
  { utterances: Type.Array(UtteranceInputSchema, { minItems: 1, maxItems: 1000 }) },
  { additionalProperties: false },
);
export type PostUtterancesBody = Static<typeof PostUtterancesBody>;

export const SessionIdParams = Type.Object({
  session_id: Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_.:-]+$' }),
});
export type SessionIdParams = Static<typeof SessionIdParams>;

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 128 }) });
export type IdParams = Static<typeof IdParams>;

export const UtteranceView = Type.Object(
  {
    id: Type.String(),
    session_id: Type.String(),
    seq: Type.Integer(),
    speaker: ParticipantRef,
    addressees: Type.Array(ParticipantRef),
    text: Type.String(),
    start_ms: Type.Union([Type.Number(), Type.Null()]),
    end_ms: Type.Union([Type.Number(), Type.Null()]),
    time: Type.String(),
    confidence: Type.Union([Type.Number(), Type.Null()]),
    audio_ref: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: 'Utterance' },
);
export type UtteranceView = Static<typeof UtteranceView>;

export const ParticipantView = Type.Object(
  {
    id: Type.String(),
    name: Type.Union([Type.String(), Type.Null()]),
    external_id: Type.Union([Type.String(), Type.Null()], { description: "the application's own id (phone number, CRM id), unique per tenant" }),
    aliases: Type.Array(Type.String()),
    attributes: Type.Record(Type.String(), Type.Unknown()),
    voiceprint_count: Type.Integer(),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { $id: 'Participant' },
);
export type ParticipantView = Static<typeof ParticipantView>;

export const ParticipantPatchBody = Type.Object(
  {
    name: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 200 }), Type.Null()])),
    external_id: Type.Optional(Type.Union([ExternalId, Type.Null()], { description: 'null clears it; one another participant holds is a 409' })),
    aliases: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 100 })),
    attributes: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type ParticipantPatchBody = Static<typeof ParticipantPatchBody>;

export const InteractionsQuery = Type.Object(
  {
    speaker: Type.Optional(Type.String({ minLength: 1, description: 'participant id, external_id or name' })),
    addressee: Type.Optional(Type.String({ minLength: 1, description: 'participant id, external_id or name' })),
    session_id: Type.Optional(Type.String({ minLength: 1 })),
    since: Type.Optional(Iso),
    until: Type.Optional(Iso),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  },
  { additionalProperties: false },
);
export type InteractionsQuery = Static<typeof InteractionsQuery>;
