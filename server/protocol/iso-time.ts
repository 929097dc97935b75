import { FormatRegistry } from '@sinclair/typebox';
import { ParleyError, type ErrorCode } from '../../graph/core/errors.js';

// The schemas use `format: date-time` (fastify's Ajv knows it; TypeBox, for WebSocket messages and MCP tools, needs it registered).
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})$/;
if (!FormatRegistry.Has('date-time')) {
  FormatRegistry.Set('date-time', (v) => isDateTime(v));
}

/** Whether `value` is an ISO-8601 date-time as the schemas' `format: date-time` takes it (for a value no schema checks). */
export function isDateTime(value: string): boolean {
  return ISO_DATE_TIME.test(value) && !Number.isNaN(Date.parse(value));
}

const LEAP_SECOND = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:)60(\.\d+)?/i;

/**
 * Normalise a schema-valid ISO-8601 date-time (`field` names it in errors) to UTC `…Z` form.
 * A leap second (`23:59:60`, valid ISO-8601 but not representable by JavaScript dates) is read as
 * the last millisecond of its minute; anything else `Date` cannot represent is a 400 (or `code`).
 */
export function isoTime(value: string, field: string, code: ErrorCode = 'PARLEY_ERR_BAD_REQUEST'): string {
  const ms = Date.parse(value.replace(LEAP_SECOND, '$159.999'));
  if (Number.isNaN(ms)) throw new ParleyError(code, `${field}: "${value.slice(0, 64)}" is not a representable date-time`);
  return new Date(ms).toISOString();
}

/**
 * How far in the future a client's wall-clock time (an utterance's `time`, a stream's `start_time`) may be, ms: a
 * day, room for clock skew and a time zone mislabelled (local time sent as UTC); beyond it the time is refused, not
 * stored (a fact valid from 9999).
 */
export const MAX_FUTURE_TIME_MS = 24 * 60 * 60 * 1000;

/**
 * A client's wall-clock time normalised ({@link isoTime}), unless it is more than {@link MAX_FUTURE_TIME_MS} after
 * `now`: then a 400 (or `code`) naming `field`, and nothing is stored.
 */
export function clientTime(value: string, field: string, now: number, code: ErrorCode = 'PARLEY_ERR_BAD_REQUEST'): string {
  const iso = isoTime(value, field, code);
  if (Date.parse(iso) > now + MAX_FUTURE_TIME_MS) {
    throw new ParleyError(code, `${field}: ${iso} is in the future (more than 24 h after the server's clock, ${new Date(now).toISOString()}); nothing was stored`);
  }
  return iso;
}
