import { ParleyError } from '../../graph/core/errors.js';
import type { StreamFormat } from '../../pipelines/audio/audio-format.js';
import { CONTEXT_SCOPES, isContextScope } from '../../pipelines/retrieval/context-scope.js';
import { isServerMetadataKey, SESSION_AGENTS_KEY } from '../../pipelines/interaction/session-metadata.js';

/**
 * Settings fixed when the socket connects (`/v1/stream` query parameters): the decoder is built for
 * them, so a change mid-stream would be echoed without ever being in force.
 */
const FORMAT_FIELDS = ['sample_rate', 'encoding', 'channels'] as const;

/**
 * Names clients bring from other realtime APIs for what is a server setting here: accepting them
 * as metadata would read as if the session's behaviour changed.
 */
const SERVER_SETTINGS: Record<string, string> = {
  end_of_turn_ms: 'PARLEY_END_OF_TURN_MS',
  vad_threshold: 'PARLEY_VAD_THRESHOLD',
};

/**
 * A language tag in BCP 47's shape: a 2–3 letter language, then subtags (`en`, `pt-BR`, `zh-Hant-TW`); a POSIX
 * locale's `_` is accepted too (`en_US`).
 */
const LANGUAGE_TAG = /^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*$/;

/**
 * Check the `session` object of a `session.update` before anything of it is stored, so that
 * `session.updated` only ever echoes settings the session really holds. A format field equal to the
 * connection's (a client resending its whole session object) is accepted and not stored; `language: null`
 * clears the language, `context_scope: null` the session's own context scope (the server's default holds again).
 * @returns the settings to merge into the session's metadata (null values remove their key)
 * @throws ParleyError `PARLEY_ERR_BAD_FRAME` naming every field that is wrong (nothing is changed).
 */
export function validateSessionSettings(settings: Record<string, unknown>, format: StreamFormat): Record<string, unknown> {
  const problems: string[] = [];
  const kept = { ...settings };
  const current: Record<(typeof FORMAT_FIELDS)[number], unknown> = {
    sample_rate: format.sampleRate, encoding: format.encoding, channels: format.channels,
  };
  for (const field of FORMAT_FIELDS) {
    if (!Object.hasOwn(settings, field)) continue;
    delete kept[field];
    if (settings[field] !== current[field]) {
      problems.push(`${field} cannot change mid-stream: the audio format is fixed when the socket connects (reconnect with ?${field}=…)`);
    }
  }
  for (const [field, env] of Object.entries(SERVER_SETTINGS)) {
    if (Object.hasOwn(settings, field)) problems.push(`${field} is not a session setting: the server's ${env} decides it`);
  }
  // `agents`: what clients named the agents before the server kept them (under its own `$agents`).
  for (const key of ['agents', SESSION_AGENTS_KEY]) {
    if (Object.hasOwn(settings, key)) problems.push(`${key} is not a session setting: the stream names the agents when it connects (?agent=)`);
  }
  for (const key of Object.keys(settings)) {
    if (isServerMetadataKey(key) && key !== SESSION_AGENTS_KEY) problems.push(`${key} is not a session setting: keys beginning with "$" are the server's`);
  }
  if (Object.hasOwn(settings, 'language')) {
    const language = settings.language;
    if (language !== null && (typeof language !== 'string' || !LANGUAGE_TAG.test(language))) {
      problems.push(`language must be a language tag such as "en" or "pt-BR" (or null to clear it), not ${JSON.stringify(language) ?? String(language)}`);
    }
  }
  if (Object.hasOwn(settings, 'context_scope')) {
    const scope = settings.context_scope;
    if (scope !== null && !isContextScope(scope)) {
      problems.push(`context_scope must be one of ${CONTEXT_SCOPES.map((c) => JSON.stringify(c)).join(', ')} (or null for the server's default), not ${JSON.stringify(scope) ?? String(scope)}`);
    }
  }
  if (Object.hasOwn(settings, 'metadata')) {
    const metadata = settings.metadata;
    if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) {
      problems.push('metadata must be a JSON object');
    }
  }
  if (problems.length > 0) {
    throw new ParleyError('PARLEY_ERR_BAD_FRAME', `session.update: ${problems.join('; ')}; nothing was changed`);
  }
  return kept;
}
