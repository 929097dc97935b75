import { ParleyError } from '../../graph/core/errors.js';
import { PENDING_RENAME } from './pending-rename.js';

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

/**
 * Where a derived attribute filled by a temporary state ("staying in Madrid for two weeks": `staying_in`, "working at
 * Hooli until Friday": `works_at`, or a `lives_in` for a month) records what follows its end, and one said ahead ("next
 * month I'm in Tokyo for two weeks") its start too, as a list per key of {@link DerivedStep}: from each `from` on, the
 * attribute reads `value` (null: none), step after step (a step may begin a value or end one). The one way an attribute
 * follows time: every reader evaluates it with {@link shownAttributes}, so an attribute is never served after its state
 * has ended, and nothing has to run when it ends. Bookkeeping like {@link CLIENT_KEYS}: never shown, never settable by a
 * client. Attributes stored before this key hold the same record under {@link OLD_DERIVED_STEPS}.
 */
export const DERIVED_STEPS = '$derived_steps';

/**
 * Where stores written before {@link DERIVED_STEPS} hold the same record (lists stored by rules 28, at most four
 * steps, read the same way): read when there is no record under the new key, never written; the next change of a
 * derived attribute moves the record to the new key. Bookkeeping too: never shown, never settable.
 */
export const OLD_DERIVED_STEPS = '$derived_ends';

/** From `from` (an ISO instant) on, a derived attribute reads `value` (null: none): a temporary state began or ended then. */
export interface DerivedStep {
  from: string;
  value: string | null;
}

/**
 * Where the profile updates record the names they taught a participant ("Hi, I'm Ana" set as the display name or an
 * alias), as a list of lower-case words: a speaker revision takes back only those (`unlearnName`), never a name the
 * client set (at creation, by PATCH) or naming gave. A PATCH that sets the name or the aliases drops its words from
 * the list. Bookkeeping like {@link CLIENT_KEYS}: never shown, never settable by a client.
 */
export const TAUGHT_NAMES = '$taught_names';

const BOOKKEEPING_KEYS: readonly string[] = [CLIENT_KEYS, NAME_EVIDENCE, DERIVED_STEPS, OLD_DERIVED_STEPS, TAUGHT_NAMES, PENDING_RENAME];

/** The names (lower-case) the profile updates taught ({@link TAUGHT_NAMES}). */
export function taughtNames(attributes: Record<string, unknown>): Set<string> {
  const words = attributes[TAUGHT_NAMES];
  return new Set(Array.isArray(words) ? words.filter((w): w is string => typeof w === 'string') : []);
}

/** The attributes with `words` (lower-cased) recorded as the taught names ({@link TAUGHT_NAMES}); none: the key removed. */
export function withTaughtNames(attributes: Record<string, unknown>, words: Iterable<string>): Record<string, unknown> {
  const { [TAUGHT_NAMES]: _old, ...rest } = attributes;
  const list = [...new Set([...words].map((w) => w.toLowerCase()))].sort();
  return list.length > 0 ? { ...rest, [TAUGHT_NAMES]: list } : rest;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The attributes as clients read them at `now` (the one accessor: REST and MCP participant views, the console through
 * REST): without the bookkeeping of {@link CLIENT_KEYS}, {@link NAME_EVIDENCE} and {@link DERIVED_STEPS}, and with each
 * derived attribute whose temporary state has begun or ended by `now` read as the step it is at (the home a stay
 * interrupted, the employer a job "until Friday" interrupted, or none). Attributes stored with no recorded steps are read as stored.
 */
export function shownAttributes(attributes: Record<string, unknown>, now: string = new Date().toISOString()): Record<string, unknown> {
  if (!BOOKKEEPING_KEYS.some((k) => k in attributes)) return attributes;
  const shown = { ...attributes };
  for (const k of BOOKKEEPING_KEYS) delete shown[k];
  const client = clientKeys(attributes);
  const at = Date.parse(now);
  for (const [key, steps] of Object.entries(derivedSteps(attributes))) {
    if (client.has(key)) continue;
    const step = steps.filter((e) => Date.parse(e.from) <= at).at(-1);
    if (!step) continue;
    if (step.value === null) delete shown[key];
    else shown[key] = step.value;
  }
  return shown;
}

/** The record of steps as stored: under {@link DERIVED_STEPS}, else under {@link OLD_DERIVED_STEPS} (stores written before it), else none. */
function storedSteps(attributes: Record<string, unknown>): Record<string, unknown> {
  const record = attributes[DERIVED_STEPS] ?? attributes[OLD_DERIVED_STEPS];
  return isObject(record) ? record : {};
}

/** The recorded steps of derived attributes ({@link DERIVED_STEPS}), well-formed steps only, in the order stored. */
function derivedSteps(attributes: Record<string, unknown>): Record<string, DerivedStep[]> {
  const out: Record<string, DerivedStep[]> = {};
  for (const [key, steps] of Object.entries(storedSteps(attributes))) {
    if (!Array.isArray(steps)) continue;
    out[key] = steps.filter((e): e is DerivedStep => isObject(e) && typeof e.from === 'string' && !Number.isNaN(Date.parse(e.from))
      && (e.value === null || typeof e.value === 'string'));
  }
  return out;
}

/**
 * The attributes after `from` was merged into `into` (`{...from, ...into}`), with each key's recorded steps
 * ({@link DERIVED_STEPS}) taken from the person whose value of that key survived: `into`'s when it held the key, else `from`'s.
 */
export function withMergedSteps(merged: Record<string, unknown>, from: Record<string, unknown>, into: Record<string, unknown>): Record<string, unknown> {
  const theirs = derivedSteps(from);
  const ours = derivedSteps(into);
  // Written afresh under the new key: a record the merge copied under the old key goes.
  const { [DERIVED_STEPS]: _record, [OLD_DERIVED_STEPS]: _oldRecord, ...rest } = merged;
  let out: Record<string, unknown> = rest;
  for (const key of new Set([...Object.keys(theirs), ...Object.keys(ours)])) out = withSteps(out, key, (key in into ? ours[key] : theirs[key]) ?? []);
  return out;
}

/**
 * The attributes with `key`'s recorded steps set to `steps` (none: the record of `key` removed), written under
 * {@link DERIVED_STEPS} (a record under {@link OLD_DERIVED_STEPS} moves there); the same object when unchanged.
 */
function withSteps(attributes: Record<string, unknown>, key: string, steps: readonly DerivedStep[]): Record<string, unknown> {
  const record = storedSteps(attributes);
  if (JSON.stringify(record[key] ?? []) === JSON.stringify(steps)) return attributes;
  const { [key]: _old, ...others } = record;
  const next = steps.length > 0 ? { ...others, [key]: steps.map((e) => ({ from: e.from, value: e.value })) } : others;
  const { [DERIVED_STEPS]: _record, [OLD_DERIVED_STEPS]: _oldRecord, ...rest } = attributes;
  return Object.keys(next).length > 0 ? { ...rest, [DERIVED_STEPS]: next } : rest;
}

/** The top-level keys the client set itself by PATCH. */
export function clientKeys(attributes: Record<string, unknown>): Set<string> {
  const keys = attributes[CLIENT_KEYS];
  return new Set(Array.isArray(keys) ? keys.filter((k): k is string => typeof k === 'string') : []);
}

/**
 * Set (or, with null, remove) a derived attribute, unless the client set that key itself: the client's
 * value stands. `steps`: the value from each time a temporary state of `key` begins or ends on ({@link DERIVED_STEPS});
 * none for a lasting value. Returns the attributes unchanged (the same object) when nothing changes.
 */
export function withDerived(attributes: Record<string, unknown>, key: string, value: string | null, steps: readonly DerivedStep[] = []): Record<string, unknown> {
  if (BOOKKEEPING_KEYS.includes(key) || clientKeys(attributes).has(key)) return attributes;
  // A value none holds now may hold later (a stay said ahead, rules 30): its steps are kept.
  const recorded = withSteps(attributes, key, steps);
  if (value === null) {
    if (!(key in recorded)) return recorded;
    const { [key]: _gone, ...rest } = recorded;
    return rest;
  }
  return recorded[key] === value ? recorded : { ...recorded, [key]: value };
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
