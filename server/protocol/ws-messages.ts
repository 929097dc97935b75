import { Type, type Static } from '@sinclair/typebox';
import { TypeCompiler, ValueErrorType, type ValueError } from '@sinclair/typebox/compiler';
import { AUDIO_ENCODINGS, SAMPLE_RATES } from '../../pipelines/audio/audio-format.js';
import { likelyMeant } from './closest-name.js';
// Registers `format: date-time` (an utterance's `time`, a stream's `start_time`) with TypeBox.
import './iso-time.js';

/** Client → server text frames on `GET /v1/stream`. */

/** Pattern of a name, label or memory text: something besides whitespace (`"  "` names nobody). */
export const NON_BLANK = '\\S';

/** What a validation error says of a value that fails {@link NON_BLANK} (instead of "must match pattern"). */
export const BLANK_MESSAGE = 'must not be blank (empty or only whitespace)';

/**
 * Pattern of a person's name or speaker label: not blank, and no control characters (C0, DEL, C1) nor
 * invisible direction marks and overrides (U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), which would
 * make a stored name print as something else.
 */
export const NAME = '^(?=[\\s\\S]*\\S)[^\\u0000-\\u001F\\u007F-\\u009F\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069]*$';

/** What a validation error says of a value that fails {@link NAME}. */
export const NAME_MESSAGE = 'must not hold control characters or direction overrides (U+0000–U+001F, U+007F–U+009F, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069)';

/** Pattern of an utterance's text: not blank, and no NUL character. */
export const TEXT = '^(?=[\\s\\S]*\\S)[^\\u0000]*$';

/** What a validation error says of a value that fails {@link TEXT}. */
export const TEXT_MESSAGE = 'must not hold a NUL character (U+0000)';

/**
 * What a validation error says of `value` failing `pattern`, when it is one of ours (instead of "must match
 * pattern"): {@link BLANK_MESSAGE} for a blank value, else what the pattern refuses.
 */
export function patternMessage(pattern: unknown, value: unknown): string | undefined {
  if (pattern !== NON_BLANK && pattern !== NAME && pattern !== TEXT) return undefined;
  if (pattern === NON_BLANK || (typeof value === 'string' && !/\S/.test(value))) return BLANK_MESSAGE;
  return pattern === NAME ? NAME_MESSAGE : TEXT_MESSAGE;
}

/**
 * A TypeBox validation error in words: a value failing one of our patterns reads as its message ({@link patternMessage}); an unknown field (the last
 * step of the error's path) says so, with the known field it was probably meant to be.
 */
export function valueErrorText(error: ValueError): string {
  if (error.type === ValueErrorType.ObjectAdditionalProperties) {
    const meant = unknownFieldMeant(error);
    return `is an unknown field${meant !== undefined ? `; did you mean "${meant}"?` : ''}`;
  }
  const ours = error.type === ValueErrorType.StringPattern ? patternMessage((error.schema as { pattern?: unknown }).pattern, error.value) : undefined;
  return ours ?? error.message;
}

/** For an unknown-field error: the known field it was probably meant to be, if one is close. */
function unknownFieldMeant(error: ValueError): string | undefined {
  const name = error.path.slice(error.path.lastIndexOf('/') + 1).replaceAll('~1', '/').replaceAll('~0', '~');
  return likelyMeant(name, Object.keys((error.schema as { properties?: object }).properties ?? {}));
}

/** Lower is more useful: a missing field, then an unknown one, then whatever was found first. */
function errorRank(error: ValueError): number {
  if (error.type === ValueErrorType.ObjectRequiredProperty) return 0;
  return error.type === ValueErrorType.ObjectAdditionalProperties ? 1 : 2;
}

/**
 * The useful validation errors, one per field, at most `max`: of a field's errors the most useful ("Expected
 * required property" rather than the "Expected string" that follows it), and none for a missing field an unknown
 * field's "did you mean" already names (`questoin` for `question`), so the unknown field is the one reported.
 */
export function usefulValueErrors(errors: Iterable<ValueError>, max = 5): ValueError[] {
  const byPath = new Map<string, ValueError>();
  let seen = 0;
  for (const e of errors) {
    const kept = byPath.get(e.path);
    if (!kept || errorRank(e) < errorRank(kept)) byPath.set(e.path, e);
    if (++seen >= 100) break;
  }
  for (const e of [...byPath.values()]) {
    if (e.type !== ValueErrorType.ObjectAdditionalProperties) continue;
    const meant = unknownFieldMeant(e);
    if (meant === undefined) continue;
    const target = `${e.path.slice(0, e.path.lastIndexOf('/'))}/${meant.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    if (byPath.get(target)?.type === ValueErrorType.ObjectRequiredProperty) byPath.delete(target);
  }
  return [...byPath.values()].slice(0, max);
}

/** Validation errors in words, one per field (`path: text`), at most `max` ({@link usefulValueErrors}). */
export function valueErrorsText(errors: Iterable<ValueError>, max = 5): string[] {
  return usefulValueErrors(errors, max).map((e) => `${e.path || '/'}: ${valueErrorText(e)}`);
}

/** Client messages take no field their schema does not name: a misspelt one is an error naming it, never ignored. */
const STRICT = { additionalProperties: false } as const;

export const SessionUpdateMessage = Type.Object({
  type: Type.Literal('session.update'),
  session: Type.Record(Type.String(), Type.Unknown(), {
    description: 'settings such as language, metadata and context_scope ("all" or "participants": whose memories memory.context may hold; null for the server\'s default)',
  }),
}, STRICT);

/**
 * The largest offset into a session's audio a client may give (`start_ms`, `end_ms`), ms: 1e15 (about 31,700
 * years), far past any session yet well inside the integers a double holds exactly and the dates JavaScript keeps.
 */
export const MAX_OFFSET_MS = 1e15;

/** Characters of a client-chosen utterance id. */
const UTTERANCE_ID_PATTERN = '^[A-Za-z0-9_.:-]+$';

export const UtteranceMessage = Type.Object({
  type: Type.Literal('utterance'),
  utterance_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128, pattern: UTTERANCE_ID_PATTERN, description: 'resending it stores nothing twice' })),
  speaker: Type.String({ minLength: 1, maxLength: 200, pattern: NAME, description: 'label or participant id (not blank, no control characters)' }),
  text: Type.String({ minLength: 1, maxLength: 10_000, pattern: TEXT, description: 'not blank, no NUL' }),
  addressees: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200, pattern: NAME }), { maxItems: 50 })),
  start_ms: Type.Optional(Type.Number({ minimum: 0, maximum: MAX_OFFSET_MS })),
  end_ms: Type.Optional(Type.Number({ minimum: 0, maximum: MAX_OFFSET_MS })),
  time: Type.Optional(Type.String({
    format: 'date-time',
    description: "ISO-8601 wall-clock time it was said (as HTTP's `time`: at most 24 h after the server's clock); default the stream's `start_time` plus the time since the connection opened, else now",
  })),
}, STRICT);

export const InputCommitMessage = Type.Object({ type: Type.Literal('input.commit') }, STRICT);

/** Longest question, in characters, on the WebSocket `query` and `POST /v1/query` alike. */
export const MAX_QUESTION_CHARS = 4_000;

export const QueryMessage = Type.Object({
  type: Type.Literal('query'),
  id: Type.String({ minLength: 1, maxLength: 200 }),
  question: Type.String({ minLength: 1, maxLength: MAX_QUESTION_CHARS, pattern: NON_BLANK, description: 'not blank' }),
  asker: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: NON_BLANK })),
  k: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
  utterance_id: Type.Optional(Type.String({
    minLength: 1, maxLength: 128, pattern: UTTERANCE_ID_PATTERN,
    description: "the turn of this session that asked the question (the utterance_id of its transcript.final, or of the client's own utterance message): exactly that turn is left out of the evidence; without it, the session's last turns with the question's words are",
  })),
  now: Type.Optional(Type.String({
    format: 'date-time',
    description: "ISO-8601 time the question is asked at, as POST /v1/query's `now` (\"yesterday\", \"last week\", \"still\", an end a fact carries are read relative to it: a replay, a simulated day); default the server's clock",
  })),
  context_scope: Type.Optional(Type.Union([Type.Literal('all'), Type.Literal('participants')], {
    description: "whose memories the answer may hold, as memory.context's (README, context_scope): all (the tenant) or participants (only the people of this session); default the session's own scope",
  })),
}, STRICT);

export const SessionEndMessage = Type.Object({ type: Type.Literal('session.end') }, STRICT);

/** External ids: the application's own id for a person (phone number, CRM id); never blank. */
const ExternalIdString = Type.String({ minLength: 1, maxLength: 200, pattern: NON_BLANK });

export const ParticipantIdentifyMessage = Type.Object({
  type: Type.Literal('participant.identify'),
  external_id: ExternalIdString,
  participant: Type.Optional(Type.String({
    minLength: 1, maxLength: 200, pattern: NON_BLANK,
    description: 'id, external id or name; default: the last speaker of the session who is not one of its agents (`?agent=`), or the next one to speak when none spoke yet',
  })),
}, STRICT);

export const ClientMessage = Type.Union([
  SessionUpdateMessage, UtteranceMessage, InputCommitMessage, QueryMessage, SessionEndMessage, ParticipantIdentifyMessage,
]);
export type ClientMessage = Static<typeof ClientMessage>;

/** Per-type validators, so an error names what is wrong with that message type. */
export const CLIENT_MESSAGES = {
  'session.update': TypeCompiler.Compile(SessionUpdateMessage),
  utterance: TypeCompiler.Compile(UtteranceMessage),
  'input.commit': TypeCompiler.Compile(InputCommitMessage),
  query: TypeCompiler.Compile(QueryMessage),
  'session.end': TypeCompiler.Compile(SessionEndMessage),
  'participant.identify': TypeCompiler.Compile(ParticipantIdentifyMessage),
} as const;

/** Query parameters of the WebSocket upgrade; an unknown one (`samplerate`) fails the upgrade with a 400 naming it. */
export const StreamQuery = Type.Object({
  session_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_.:-]+$' })),
  sample_rate: Type.Optional(Type.String({ description: `one of ${SAMPLE_RATES.join(', ')}; default 16000` })),
  encoding: Type.Optional(Type.String({ description: `one of ${AUDIO_ENCODINGS.join(', ')}; default pcm_s16le` })),
  channels: Type.Optional(Type.String({ description: 'must be 1' })),
  token: Type.Optional(Type.String({ description: 'API key, for clients that cannot set headers' })),
  external_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: NON_BLANK, description: "the application's own id for the session's first speaker (e.g. the caller on a one-party line; not blank)" })),
  agent: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 2000, pattern: NON_BLANK }), {
    maxItems: 16,
    description: "a call centre's agent (participant id, external_id or name; repeatable or comma-separated), whose voice never takes `external_id`: it goes to the first speaker who is not an agent. Each must be known and have a voiceprint (an HTTP 400 naming it otherwise)",
  })),
  start_time: Type.Optional(Type.String({
    format: 'date-time',
    description: "ISO-8601 wall-clock time this connection's audio began (a replayed or simulated conversation; at most 24 h after the server's clock): a turn is stored at it plus how far into the connection's audio the turn starts; default now",
  })),
}, { additionalProperties: false });
