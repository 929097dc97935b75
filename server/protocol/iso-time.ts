import { ParleyError } from '../../graph/core/errors.js';

const LEAP_SECOND = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:)60(\.\d+)?/i;

/**
 * Normalise a schema-valid ISO-8601 date-time (`field` names it in errors) to UTC `…Z` form.
 * A leap second (`23:59:60`, valid ISO-8601 but not representable by JavaScript dates) is read as
 * the last millisecond of its minute; anything else `Date` cannot represent is a 400.
 */
export function isoTime(value: string, field: string): string {
  const ms = Date.parse(value.replace(LEAP_SECOND, '$159.999'));
  if (Number.isNaN(ms)) throw new ParleyError('PARLEY_ERR_BAD_REQUEST', `${field}: "${value.slice(0, 64)}" is not a representable date-time`);
  return new Date(ms).toISOString();
}
