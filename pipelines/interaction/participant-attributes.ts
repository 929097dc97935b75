import { ParleyError } from '../../graph/core/errors.js';

/** The most a participant's attributes may take, as JSON: 64 KiB (as session metadata). */
export const MAX_PARTICIPANT_ATTRIBUTES_BYTES = 64 * 1024;

/**
 * Where the stored attributes record which top-level keys the client set itself (PATCH), as a list of
 * keys. Kept beside them so the stores need no column of their own; never shown (see
 * {@link shownAttributes}) and never settable by a client. A key not listed is derived (from profile
 * memories, as `lives_in`): it follows the memories, where a client-set one is left as the client set it.
 * Attributes stored before this record existed list none: all their keys count as derived, as they did.
 */
export const CLIENT_KEYS = '$client_keys';

/**
 * Where naming keeps the address evidence it has gathered for a participant (pipelines/speaker/naming.ts):
 * bookkeeping like {@link CLIENT_KEYS}, never shown and never settable by a client (a client's value
 * would be read back as evidence).
 */
export const NAME_EVIDENCE = 'name_evidence';

/** Attribute keys that hold Parley's own bookkeeping: hidden from clients and refused in a PATCH. */
const BOOKKEEPING_KEYS: readonly string[] = [CLIENT_KEYS, NAME_EVIDENCE];

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The attributes as clients read them: without the bookkeeping of {@link CLIENT_KEYS} and {@link NAME_EVIDENCE}. */
export function shownAttributes(attributes: Record<string, unknown>): Record<string, unknown> {
  if (!BOOKKEEPING_KEYS.some((k) => k in attributes)) return attributes;
  const shown = { ...attributes };
  for (const k of BOOKKEEPING_KEYS) delete shown[k];
  return shown;
}

/** The top-level keys the client set itself by PATCH. */
export function clientKeys(attributes: Record<string, unknown>): Set<string> {
  const keys = attributes[CLIENT_KEYS];
  return new Set(Array.isArray(keys) ? keys.filter((k): k is string => typeof k === 'string') : []);
}

/**
 * Set (or, with null, remove) a derived attribute, unless the client set that key itself: the client's
 * value stands. Returns the attributes unchanged (the same object) when nothing changes.
 */
export function withDerived(attributes: Record<string, unknown>, key: string, value: string | null): Record<string, unknown> {
  if (BOOKKEEPING_KEYS.includes(key) || clientKeys(attributes).has(key)) return attributes;
  if (value === null) {
    if (!(key in attributes)) return attributes;
    const { [key]: _gone, ...rest } = attributes;
    return rest;
  }
  return attributes[key] === value ? attributes : { ...attributes, [key]: value };
}

/**
 * The client-set keys after `from` was merged into `into` (whose attributes become `{...from, ...into}`):
 * `into`'s, and `from`'s that `into` did not hold (their value is `from`'s, so still the client's).
 */
export function mergedClientKeys(from: Record<string, unknown>, into: Record<string, unknown>): Set<string> {
  const keys = clientKeys(into);
  for (const k of clientKeys(from)) if (!(k in into)) keys.add(k);
  return keys;
}

/** The attributes with `keys` recorded as the client-set ones. */
export function withClientKeys(attributes: Record<string, unknown>, keys: Set<string>): Record<string, unknown> {
  const { [CLIENT_KEYS]: _old, ...rest } = attributes;
  return keys.size > 0 ? { ...rest, [CLIENT_KEYS]: [...keys].sort() } : rest;
}

/** A client's patch applied: the attributes after it, and the top-level keys it cleared (set to null). */
export interface PatchedAttributes {
  attributes: Record<string, unknown>;
  cleared: string[];
}

/**
 * Apply a client's JSON merge patch (RFC 7386) to a participant's attributes: a key set to null is removed,
 * an object value is merged into the object it replaces, any other value replaces it; keys the patch
 * does not name are kept (derived ones such as `lives_in` survive a client's `tier`). Every top-level key
 * the patch sets becomes client-set (derived values no longer change it); one it sets to null is no longer
 * client-set, so the caller may show the derived value again (see `rederiveAttributes`).
 * @throws ParleyError `PARLEY_ERR_BAD_REQUEST` when the result would exceed {@link MAX_PARTICIPANT_ATTRIBUTES_BYTES},
 * or the patch names {@link CLIENT_KEYS}.
 */
export function patchAttributes(current: Record<string, unknown>, patch: Record<string, unknown>): PatchedAttributes {
  for (const k of BOOKKEEPING_KEYS) if (k in patch) throw new ParleyError('PARLEY_ERR_BAD_REQUEST', `attribute key ${k} is reserved`);
  const keys = clientKeys(current);
  const cleared: string[] = [];
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) {
      keys.delete(key);
      cleared.push(key);
    } else {
      keys.add(key);
    }
  }
  const next = withClientKeys(mergePatch(current, patch), keys);
  const bytes = Buffer.byteLength(JSON.stringify(next));
  if (bytes > MAX_PARTICIPANT_ATTRIBUTES_BYTES) {
    throw new ParleyError('PARLEY_ERR_BAD_REQUEST', `attributes would be ${bytes} bytes as JSON; at most ${MAX_PARTICIPANT_ATTRIBUTES_BYTES} are kept per participant`);
  }
  return { attributes: next, cleared };
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
