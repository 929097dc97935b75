import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { MAX_OFFSET_MS, MAX_QUESTION_CHARS, NAME, NON_BLANK, TEXT } from './ws-messages.js';
import { CLIENT_KEYS, DERIVED_STEPS, NAME_EVIDENCE, OLD_DERIVED_STEPS, TAUGHT_NAMES } from '../../pipelines/interaction/participant-attributes.js';

/**
 * HTTP request and response schemas; fastify validates with them and @fastify/swagger publishes them.
 * Every schema with an `$id` is registered once (`NAMED_SCHEMAS`, added in `buildApp`) and used
 * through `ref()`, so /openapi.json lists it under `components.schemas` by that name.
 */

/** A `$ref` to a named schema that keeps the schema's static type. */
export function ref<T extends TSchema>(schema: T, options: { description?: string; headers?: Record<string, { description?: string; type?: string; minimum?: number }> } = {}): T {
  if (!schema.$id) throw new Error('ref() needs a schema with an $id');
  return Type.Unsafe<Static<T>>(Type.Ref(schema.$id, options)) as unknown as T;
}

export const ErrorBody = Type.Object(
  {
    error: Type.Object({
      code: Type.String({ description: 'stable PARLEY_ERR_* code (docs/PROTOCOL.md, "Error codes")' }),
      message: Type.String({ description: 'human-readable; may change between versions' }),
    }, { additionalProperties: false }),
  },
  { $id: 'Error', description: 'Every error response: a stable code and a message, never a stack trace' },
);

const Iso = Type.String({ format: 'date-time', description: 'ISO-8601 wall-clock time' });
const Ms = Type.Number({ minimum: 0, maximum: MAX_OFFSET_MS, description: 'milliseconds from the start of the session audio (at most 1e15)' });
const Text = Type.String({ minLength: 1, maxLength: 10_000, pattern: TEXT, description: 'not blank, no NUL' });
/** A person's name or label: not blank, no control characters. */
const Label = Type.String({ minLength: 1, maxLength: 200, pattern: NAME });

/** The application's own id for a participant (phone number, CRM id). */
export const ExternalId = Type.String({ minLength: 1, maxLength: 200, pattern: NON_BLANK, description: "the application's own id for the participant (phone number, CRM id; not blank)" });

/** Path parameter naming a participant: its id, external id or name. */
export const ParticipantRefParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 200, pattern: NON_BLANK, description: 'participant id, external_id, or a name (a name several participants hold is a 409; not blank)' }),
});
export type ParticipantRefParams = Static<typeof ParticipantRefParams>;

export const ParticipantRef = Type.Object(
  { id: Type.String(), name: Type.Union([Type.String(), Type.Null()]) },
  { $id: 'ParticipantRef', description: 'A participant by id, with its name when known' },
);

/** One utterance to store (no `$id` here: the MCP tools compile it with TypeBox, which needs no refs). */
const utteranceInput = () => Type.Object(
  {
    utterance_id: Type.Optional(Type.String({
      minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_.:-]+$',
      description: 'the client\'s id for this utterance: sending it again stores nothing twice',
    })),
    speaker: Type.String({ minLength: 1, maxLength: 200, pattern: NAME, description: 'participant id, or a name/label to resolve (not blank, no control characters)' }),
    text: Text,
    addressees: Type.Optional(Type.Array(Label, { maxItems: 50 })),
    start_ms: Type.Optional(Ms),
    end_ms: Type.Optional(Ms),
    time: Type.Optional(Iso),
  },
  { additionalProperties: false },
);

/** Self-contained (its items inline, not a `$ref`), so the MCP `add_utterances` tool can reuse it. */
export const PostUtterancesBody = Type.Object(
  { utterances: Type.Array(utteranceInput(), { minItems: 1, maxItems: 1000 }) },
  { additionalProperties: false, $id: 'PostUtterancesRequest' },
);
export type PostUtterancesBody = Static<typeof PostUtterancesBody>;

export const PostUtterancesResponse = Type.Object(
  {
    utterance_ids: Type.Array(Type.String(), { description: 'the stored utterances\' ids, in the order sent' }),
    warnings: Type.Optional(Type.Array(Type.String(), {
      description: 'present only when there is something to warn about: one line per speaker label that is a role word ' +
        '("user", "customer", "caller"…) rather than a person\'s id or name; different people under it are stored as one participant',
    })),
  },
  { $id: 'PostUtterancesResponse' },
);

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
    speaker: ref(ParticipantRef),
    addressees: Type.Array(ref(ParticipantRef)),
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

/** Most utterances one transcript page holds, and how many it holds when the request does not say. */
export const TRANSCRIPT_PAGE_MAX = 5000;
export const TRANSCRIPT_PAGE_DEFAULT = 1000;

export const TranscriptQuery = Type.Object(
  {
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: 'the previous page\'s next_cursor: the page goes on after its last utterance' })),
    after_seq: Type.Optional(Type.Integer({
      minimum: 0,
      deprecated: true,
      description: 'deprecated, superseded by cursor (still served, unchanged): the previous page\'s next_after_seq: the page goes on after ' +
        'the utterance with this seq, in the transcript\'s order (0: from the start); a 400 once that utterance is erased, where cursor still works',
    })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: TRANSCRIPT_PAGE_MAX, default: TRANSCRIPT_PAGE_DEFAULT })),
  },
  { additionalProperties: false },
);
export type TranscriptQuery = Static<typeof TranscriptQuery>;

export const TranscriptResponse = Type.Object(
  {
    session_id: Type.String(),
    metadata: Type.Record(Type.String(), Type.Unknown(), {
      description: 'the session\'s settings, as session.updated shows them; a Twilio call\'s also hold channel "twilio" and twilio {call_sid, stream_sid, account_sid, tracks, custom_parameters}',
    }),
    utterances: Type.Array(ref(UtteranceView), { description: 'in the order they were said: by time, ties by seq (the order stored)' }),
    next_cursor: Type.Union([Type.String(), Type.Null()], {
      description: 'more utterances follow: ask again with cursor set to this; null on the last page',
    }),
    next_after_seq: Type.Union([Type.Integer(), Type.Null()], {
      deprecated: true,
      description: 'deprecated, superseded by next_cursor (still given): more utterances follow: ask again with after_seq set to this ' +
        '(the seq of the page\'s last utterance); null on the last page',
    }),
  },
  { $id: 'Transcript' },
);

export const SessionEndResponse = Type.Object(
  { session_id: Type.String(), ended_at: Type.String(), job_id: Type.String() },
  { $id: 'SessionEnd', description: 'End-of-session consolidation is queued as job_id' },
);

/** `cursor` of a listing paged by `next_cursor` (`GET /v1/memories`, `GET /v1/interactions`). */
const PageCursor = Type.String({ minLength: 1, maxLength: 1024, description: 'the previous page\'s next_cursor' });

/** `next_cursor` of such a listing. */
const NextCursor = (items: string) => Type.Union([Type.String(), Type.Null()], {
  description: `more ${items} follow: ask again with the same filters and cursor set to this; null on the last page`,
});

export const InteractionsResponse = Type.Object(
  { interactions: Type.Array(ref(UtteranceView)), next_cursor: NextCursor('interactions') },
  { $id: 'InteractionList' },
);

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

/** `PATCH /v1/participants/{id}`'s answer: the participant, and whom the new name is shared with. */
export const ParticipantPatchedView = Type.Intersect([
  ref(ParticipantView),
  Type.Object({
    same_name: Type.Optional(Type.Array(Type.String(), {
      description: 'only when the patch set a name that other participants also hold (as name or alias): their ids. Allowed, but a lookup by that name is then ambiguous (409) until one is renamed, or they are merged by id if they are one person',
    })),
  }),
], { $id: 'ParticipantPatched' });
export type ParticipantPatchedView = Static<typeof ParticipantPatchedView>;

/** Most participants one page of the list holds, and how many it holds when the request does not say. */
export const PARTICIPANT_PAGE_MAX = 5000;
export const PARTICIPANT_PAGE_DEFAULT = 1000;

export const ParticipantsQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: PARTICIPANT_PAGE_MAX, default: PARTICIPANT_PAGE_DEFAULT })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: 'the previous page\'s next_cursor' })),
  },
  { additionalProperties: false },
);
export type ParticipantsQuery = Static<typeof ParticipantsQuery>;

export const ParticipantsResponse = Type.Object(
  {
    participants: Type.Array(ref(ParticipantView)),
    next_cursor: Type.Union([Type.String(), Type.Null()], {
      description: 'more participants follow: ask again with cursor set to this; null on the last page',
    }),
  },
  { $id: 'ParticipantList' },
);

export const ParticipantPatchBody = Type.Object(
  {
    name: Type.Optional(Type.Union([Label, Type.Null()], { description: 'not blank, no control characters; null clears it' })),
    external_id: Type.Optional(Type.Union([ExternalId, Type.Null()], { description: 'null clears it; one another participant holds is a 409' })),
    aliases: Type.Optional(Type.Array(Label, { maxItems: 100 })),
    attributes: Type.Optional(Type.Record(Type.String(), Type.Unknown(), {
      description: 'a merge patch (RFC 7386) on the attributes: the keys given are set, a key set to null is removed, the others are kept; ' +
        'a key given is the client\'s own from then on (profile memories never change it); a key set to null is the client\'s no longer: ' +
        'one that profile memories fill (lives_in, works_at, occupation…) shows their current value again, any other is gone; ' +
        `the keys ${CLIENT_KEYS}, ${NAME_EVIDENCE}, ${DERIVED_STEPS}, ${OLD_DERIVED_STEPS} and ${TAUGHT_NAMES} are reserved (400); the attributes after the patch are at most 64 KiB as JSON (400 otherwise)`,
    })),
  },
  { additionalProperties: false, minProperties: 1, $id: 'ParticipantPatch' },
);
export type ParticipantPatchBody = Static<typeof ParticipantPatchBody>;

export const ParticipantErasedResponse = Type.Object(
  {
    id: Type.String(), erased_utterances: Type.Integer(), erased_memories: Type.Integer(), erased_voiceprints: Type.Integer(),
  },
  { $id: 'ParticipantErased' },
);

export const ParticipantMergeBody = Type.Object(
  { into: Type.String({ minLength: 1, maxLength: 200, pattern: NON_BLANK, description: 'the participant who remains: id, external_id or name' }) },
  { additionalProperties: false, $id: 'ParticipantMerge' },
);
export type ParticipantMergeBody = Static<typeof ParticipantMergeBody>;

export const ParticipantMergedResponse = Type.Object(
  {
    from: Type.String({ description: 'the merged-away participant\'s id (gone now)' }),
    into: ref(ParticipantView),
    moved_utterances: Type.Integer({ description: 'utterances the merged-away participant spoke or was addressed in, now re-pointed' }),
    moved_voiceprints: Type.Integer(),
    session_ids: Type.Array(Type.String(), { description: 'the sessions those utterances belong to; each was sent speaker.merged' }),
  },
  { $id: 'ParticipantMerged' },
);

export const InteractionsQuery = Type.Object(
  {
    speaker: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: NON_BLANK, description: 'participant id, external_id or name (not blank)' })),
    addressee: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: NON_BLANK, description: 'participant id, external_id or name (not blank)' })),
    session_id: Type.Optional(Type.String({ minLength: 1 })),
    since: Type.Optional(Iso),
    until: Type.Optional(Iso),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
    cursor: Type.Optional(PageCursor),
  },
  { additionalProperties: false },
);
export type InteractionsQuery = Static<typeof InteractionsQuery>;

export const HealthResponse = Type.Object({ status: Type.Literal('ok') }, { $id: 'Health' });

const QueueReadiness = Type.Object({
  waiting: Type.Integer({ minimum: 0 }),
  running: Type.Integer({ minimum: 0 }),
  oldest_waiting_ms: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
});

export const JobsReadiness = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('unclaimed')], {
    description: '"unclaimed" when a due job has waited unclaimed_after_ms or longer to start: no worker takes jobs '
      + '(PARLEY_RUN_JOBS=false and no `npm run worker` on this queue) or they fall far behind. A warning, not a readiness failure: '
      + 'the server still stores utterances and answers queries; memories form once a worker takes the jobs',
  }),
  waiting: Type.Integer({ minimum: 0, description: 'jobs not running yet, all queues (due, delayed for a retry, or waiting out an outage)' }),
  running: Type.Integer({ minimum: 0 }),
  oldest_waiting_ms: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: 'how long the oldest due job has waited to start; null when none is due' }),
  unclaimed_after_ms: Type.Integer({ minimum: 0, description: 'PARLEY_JOBS_UNCLAIMED_MS' }),
  run_here: Type.Boolean({ description: 'whether this server runs jobs itself (PARLEY_RUN_JOBS)' }),
  queues: Type.Record(Type.String(), QueueReadiness),
});

export const ReadinessResponse = Type.Object(
  {
    status: Type.String(),
    checks: Type.Record(Type.String(), Type.Boolean()),
    waiting_on_outage: Type.Optional(Type.Record(Type.String(), Type.Integer({ minimum: 0 }), {
      description: 'per queue, jobs whose last try met a store outage (PARLEY_ERR_STORE_UNAVAILABLE) and that wait to be tried again; '
        + 'they do not make the process unready (a check of the store that is down does); absent when the queue does not answer',
    })),
    jobs: Type.Optional(JobsReadiness),
    warnings: Type.Optional(Type.Array(Type.Object({ code: Type.String(), message: Type.String() }), {
      description: 'conditions an operator should see that leave the server ready, e.g. PARLEY_WARN_JOBS_UNCLAIMED (jobs.status "unclaimed")',
    })),
  },
  { $id: 'Readiness', description: 'status "ready" when every check is true, else "not ready"' },
);

/**
 * Errors any authenticated route may answer: 401 (with `PARLEY_API_KEYS` set, a missing or unknown
 * key), 429 (the key's tenant is over `PARLEY_RATE_LIMIT_PER_MIN`) and 503 (a store or the queue is
 * unavailable, or the server is shutting down); routes with a body also 413 (larger than the body limit).
 */
export function errorResponses(opts: { body?: boolean } = {}): Record<number, TSchema> {
  const out: Record<number, TSchema> = {
    401: ref(ErrorBody, { description: 'PARLEY_ERR_UNAUTHORIZED: missing or unknown API key' }),
    429: RATE_LIMITED,
    503: ref(ErrorBody, { description: 'PARLEY_ERR_STORE_UNAVAILABLE, PARLEY_ERR_OVERLOADED or PARLEY_ERR_SHUTTING_DOWN: retry later' }),
  };
  if (opts.body) out[413] = ref(ErrorBody, { description: 'PARLEY_ERR_FRAME_TOO_LARGE: request body over 16 MiB' });
  return out;
}

/** 429, with the `Retry-After` header @fastify/rate-limit sets (server/plugins/rate-limit.ts). */
const RATE_LIMITED = ref(ErrorBody, {
  description: 'PARLEY_ERR_RATE_LIMITED: this API key\'s tenant sent more than PARLEY_RATE_LIMIT_PER_MIN requests; retry after Retry-After seconds',
  headers: {
    'retry-after': { description: 'seconds until the tenant\'s window resets', type: 'integer', minimum: 0 },
  },
});

/** A documented error response. */
export function errorResponse(description: string): TSchema {
  return ref(ErrorBody, { description });
}

export const FactView = Type.Object(
  {
    id: Type.String(),
    layer: Type.Union([Type.Literal('fact'), Type.Literal('profile')]),
    text: Type.String(),
    kind: Type.String(),
    slot: Type.Union([Type.String(), Type.Null()], { description: 'what the memory fills for its subject, a newer value replacing an older one (lives_in, works_at, preference:sushi); null when none' }),
    value: Type.Union([Type.String(), Type.Null()], { description: 'the slot\'s value in plain words (Porto); a profile memory\'s is its subject\'s attribute of the slot\'s key; null when no slot' }),
    speaker: ref(ParticipantRef),
    addressees: Type.Array(ref(ParticipantRef)),
    subject_id: Type.String(),
    refer_ids: Type.Array(Type.String()),
    session_id: Type.String(),
    time: Type.String(),
    valid_from: Type.String(),
    valid_to: Type.Union([Type.String(), Type.Null()], { description: 'when a newer memory replaced or retracted it; null while it holds' }),
    valid_until: Type.Union([Type.String(), Type.Null()], { description: 'the end a temporary state carries by its own words ("for a month", "until Friday"; exclusive, may lie ahead); past it the fact no longer holds; null when open-ended' }),
    event_time: Type.Union([Type.String(), Type.Null()], { description: 'when what the fact states happens or happened: an ISO date (YYYY-MM-DD, or YYYY-MM when only the month is known); null when undated' }),
    supersedes: Type.Union([Type.String(), Type.Null()]),
    superseded_by: Type.Union([Type.String(), Type.Null()]),
    confidence: Type.Number(),
    source: Type.String(),
  },
  { $id: 'Memory' },
);
export type FactView = Static<typeof FactView>;

/** `cursor` of `GET /v1/memories` (its query schema lives with the route). */
export const MemoriesCursor = PageCursor;

export const MemoriesResponse = Type.Object(
  { memories: Type.Array(ref(FactView)), next_cursor: NextCursor('memories') },
  { $id: 'MemoryList' },
);

export const MemoryPatch = Type.Object(
  {
    text: Type.Optional(Type.String({
      minLength: 1, maxLength: 10_000, pattern: NON_BLANK,
      description: 'not blank; a memory that fills a slot (lives_in…) takes as its value the words that took the old value\'s place ' +
        '("Ana lives in Oslo" → "Ana lives in Bergen": Bergen), or keeps it while the text still says it; otherwise give `value` (400)',
    })),
    value: Type.Optional(Type.String({
      minLength: 1, maxLength: 1000, pattern: NON_BLANK,
      description: 'the new value of the slot the memory fills (400 for a memory that fills none); given alone, the text is rewritten with it in the old value\'s place (400 when the text does not say the old value: give `text` too); given with `text`, that text must say it (400 otherwise); a profile memory\'s value is its participant\'s attribute of that key, unless the client set that attribute itself',
    })),
    confidence: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  },
  { additionalProperties: false, minProperties: 1, $id: 'MemoryPatch' },
);
export type MemoryPatch = Static<typeof MemoryPatch>;

export const MemoryDeletedResponse = Type.Object({ id: Type.String(), deleted: Type.Boolean() }, { $id: 'MemoryDeleted' });

const Id = Type.String({ minLength: 1, maxLength: 200, pattern: NON_BLANK });

export const QueryBody = Type.Object({
  question: Type.String({ minLength: 1, maxLength: MAX_QUESTION_CHARS, pattern: NON_BLANK, description: 'not blank' }),
  asker: Type.Optional(Type.Union([Id, Type.Null()], { description: 'the asker: participant id, external_id or name; given with `audio`, it wins (the voice is not matched); a question in the first person ("what is my insurance?") is about them: their memories rank as a named person\'s' })),
  audio: Type.Optional(Type.String({ minLength: 1, maxLength: 12_000_000, description: 'base64 WAV (integer PCM of 8, 16, 24 or 32 bits, float of 32 or 64 bits, or G.711 A-law or mu-law, plain or WAVE_FORMAT_EXTENSIBLE; any rate; the first channel is used) of the asker\'s voice, matched against known voices when no `asker` is given (with one, it is only checked to be a readable WAV)' })),
  session_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'the session the question is asked in (context, not a filter, unless its context_scope is participants)' })),
  context_scope: Type.Optional(Type.Union([Type.Literal('all'), Type.Literal('participants')], { description: 'whose memories the answer may hold, as memory.context\'s (README, context_scope): all (the tenant) or participants (only the people of the session_id\'s session: its speakers and addressees, its agents while it is live; needs a session_id); default the session\'s own scope when a session_id is given (participants for a Twilio call unless it set its own), else all' })),
  k: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 5 })),
  speaker: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: NON_BLANK, description: 'only memories spoken by this participant (id, external_id or name; not blank)' })),
  addressee: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: NON_BLANK, description: 'only memories addressed to this participant (id, external_id or name; not blank)' })),
  now: Type.Optional(Type.String({ format: 'date-time', description: 'ISO-8601 time the question is asked at ("last week", "still", an end a fact carries are read relative to it: a replay, a benchmark, imported history); default the server\'s clock' })),
}, { additionalProperties: false, $id: 'QueryRequest' });
export type QueryBody = Static<typeof QueryBody>;

/** What `answerable` means, on `POST /v1/query` and `query.result` alike. */
export const ANSWERABLE_DESCRIPTION = 'the best item\'s relevance reaches 0.155 (with PARLEY_ANSWERABLE_TOPIC_GATE=on, also some item shares the question\'s topic words or comes close in meaning): memory likely holds an answer (false: likely nothing on it; a question about what another known person said or did often still reads true)';

export const MemoryItemView = Type.Object({
  id: Type.String(),
  layer: Type.Union([Type.Literal('interaction'), Type.Literal('fact'), Type.Literal('profile'), Type.Literal('persona'), Type.Literal('relation')]),
  text: Type.String(),
  speaker: ref(ParticipantRef),
  addressees: Type.Array(ref(ParticipantRef)),
  refer_ids: Type.Array(Type.String()),
  session_id: Type.Union([Type.String(), Type.Null()]),
  time: Type.Union([Type.String(), Type.Null()]),
  valid_from: Type.Union([Type.String(), Type.Null()], { description: 'ISO-8601 from when the memory holds' }),
  valid_to: Type.Union([Type.String(), Type.Null()], { description: 'ISO-8601 when a newer memory replaced or retracted it, or (a fact) the end it carries by its own words ("for a month"; may lie ahead); null while it holds with no end' }),
  superseded: Type.Boolean({ description: 'replaced or retracted; returned only when the question asks about the past' }),
  event_time: Type.Union([Type.String(), Type.Null()], { description: 'when what the item tells of happens or happened, as its words date it: an ISO date (YYYY-MM-DD; a week: its Monday), or YYYY-MM when only the month is known; a fact: its event_time; a turn: the first date its words name, resolved against when it was said; null when undated and for a persona node' }),
  source_text: Type.Union([Type.String(), Type.Null()], { description: 'a fact, profile or relation: the words of the turns it was drawn from, as said, cut to 500 characters at a word bound with "…" when longer; null for a turn (its text is the turn) and a persona node' }),
  score: Type.Number({ description: 'orders the items of one answer only: a question memory cannot answer still has a best item' }),
  relevance: Type.Optional(Type.Number({
    minimum: 0, maximum: 1,
    description: 'how likely the item answers the question, comparable across questions (the question\'s words it holds, dense similarity, a named participant); present on query answers, absent on `memory.context` items',
  })),
}, { $id: 'MemoryItem' });

export const QueryResponse = Type.Object({
  evidence: Type.Array(ref(MemoryItemView)),
  answerable: Type.Boolean({ description: ANSWERABLE_DESCRIPTION }),
  asker: Type.Union([Type.Object({ id: Type.String(), confidence: Type.Union([Type.Literal('high'), Type.Literal('low')]), score: Type.Number() }), Type.Null()]),
  rounds: Type.Integer(),
  timings: Type.Record(Type.String(), Type.Number()),
}, { $id: 'QueryResponse' });

/** Every named schema, registered with `app.addSchema` before the routes that refer to them. */
export const PersonaNodeView = Type.Object({
  id: Type.String(),
  kind: Type.Union([Type.Literal('trait'), Type.Literal('preference'), Type.Literal('affect')]),
  target: Type.String({ description: 'what it is about, lower-case; `self` for traits without a target' }),
  valence: Type.Number({ description: 'mean valence of the evidence in [-1, 1]' }),
  label: Type.Union([Type.String(), Type.Null()], { description: 'dominant emotion of an affect node' }),
  strength: Type.Number(),
  evidence_count: Type.Integer(),
  evidence_ids: Type.Array(Type.String(), { description: 'utterance ids, oldest first' }),
  session_ids: Type.Array(Type.String()),
  first_seen: Type.String(),
  last_seen: Type.String(),
  stable: Type.Boolean({ description: 'long-horizon consolidation judged the evidence repeated enough' }),
}, { $id: 'PersonaNode' });

export const PersonaResponse = Type.Object(
  { participant_id: Type.String(), persona: Type.Array(ref(PersonaNodeView)) },
  { $id: 'PersonaResponse' },
);

export const NAMED_SCHEMAS: TSchema[] = [
  ErrorBody, ParticipantRef, PostUtterancesBody, PostUtterancesResponse, UtteranceView,
  TranscriptResponse, SessionEndResponse, InteractionsResponse, ParticipantView, ParticipantPatchedView, ParticipantsResponse,
  ParticipantPatchBody, ParticipantErasedResponse, ParticipantMergeBody, ParticipantMergedResponse, HealthResponse, ReadinessResponse, FactView, MemoriesResponse,
  MemoryPatch, MemoryDeletedResponse, QueryBody, MemoryItemView, QueryResponse,
  PersonaNodeView, PersonaResponse,
];
