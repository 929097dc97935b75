import { ParleyError } from '../../graph/core/errors.js';

/** The most a participant's attributes may take, as JSON: 64 KiB (as session metadata). */
export const MAX_PARTICIPANT_ATTRIBUTES_BYTES = 64 * 1024;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Apply a JSON merge patch (RFC 7386) to a participant's attributes: a key set to null is removed,
 * an object value is merged into the object it replaces, any other value replaces it; keys the patch
 * does not name are kept (derived ones such as `lives_in` survive a client's `tier`).
 * @throws ParleyError `PARLEY_ERR_BAD_REQUEST` when the result would exceed {@link MAX_PARTICIPANT_ATTRIBUTES_BYTES}.
 */
export function patchAttributes(current: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const next = mergePatch(current, patch);
  const bytes = Buffer.byteLength(JSON.stringify(next));
  if (bytes > MAX_PARTICIPANT_ATTRIBUTES_BYTES) {
    throw new ParleyError('PARLEY_ERR_BAD_REQUEST', `attributes would be ${bytes} bytes as JSON; at most ${MAX_PARTICIPANT_ATTRIBUTES_BYTES} are kept per participant`);
  }
  return next;
}

function mergePatch(target: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...target };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else if (isObject(value)) out[key] = mergePatch(isObject(out[key]) ? out[key] : {}, value);
    else out[key] = value;
  }
  return out;
}
