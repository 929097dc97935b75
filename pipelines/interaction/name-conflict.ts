import type { ParticipantNames } from '../../graph/graph-store.js';
import { givenNamePrevalence } from '../speaker/given-names.js';
import { pronunciations } from '../speaker/phonetic.js';
import { taughtNames } from './participant-attributes.js';

/**
 * A participant who introduced themself by one name ("My name is Priya") and later by another ("I'm Bob") is, far more
 * often than a person with two names, two people posted under one speaker label (an agent that calls everyone "user").
 * Taking the second name as an alias would let the second person's facts replace the first's under one participant, so
 * the first name is kept and the second refused (the caller logs it). Not refused: a variant or nickname of a name held
 * ("Rob" for Robert, "Kate" for Katherine, "Pria" for Priya), "call me …" (a name asked for), and "it's Bob from …" /
 * "Bob here" / "Bob speaking" (a greeting on someone's behalf, as before).
 */

/**
 * The warning logged when a name is refused so, with `{ participantId, name: { kept, refused } }` (the names under the
 * redacted key `name`).
 */
export const NAME_REFUSED = 'a participant who introduced themself by one name now introduces themself by another: ' +
  'the first is kept and the second not learned (different people posted under one speaker label?)';

/** Classic English nicknames that share no prefix with their full name (lower-case, both ways). */
const NICKNAMES: Readonly<Record<string, readonly string[]>> = {
  robert: ['bob', 'bobby', 'bert'], william: ['bill', 'billy', 'liam'], elizabeth: ['liz', 'beth', 'betty', 'lizzie', 'eliza', 'bess'],
  margaret: ['maggie', 'meg', 'peggy', 'greta'], richard: ['dick', 'rick', 'ricky'], edward: ['ted', 'ned', 'teddy'],
  james: ['jim', 'jimmy'], john: ['jack', 'johnny'], katherine: ['kate', 'kathy', 'kitty'], catherine: ['kate', 'cathy', 'kitty'],
  charles: ['chuck'], henry: ['harry', 'hank'], anthony: ['tony'], christopher: ['kit'], patricia: ['trish', 'tricia'],
  rebecca: ['becky'], alexander: ['sasha'], alexandra: ['sasha'], ann: ['nancy'], anne: ['nancy'], mary: ['molly', 'polly'],
  sarah: ['sally'], helen: ['nell'], eleanor: ['nell', 'ellie'], francis: ['frank'], lawrence: ['larry'], matthew: ['matt'],
};

/** One edit (insert, delete or substitute) at most apart. */
function withinOneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i += 1;
  const [ra, rb] = [a.slice(i), b.slice(i)];
  return ra.slice(1) === rb.slice(1) || ra.slice(1) === rb || ra === rb.slice(1);
}

/**
 * Two different first names, both in the census list of given names and of about one length ("Mark" and "Mary", "Dan"
 * and "Don", "Mario" and "Marion"), that do not sound the same: two people, however few letters part them (rules 50: one
 * edit or a shared first three letters made them one). A spelling of one name ("Jon" and "John", "Marc" and "Mark",
 * "Sara" and "Sarah") sounds the same and stays a variant; a short form ("Nick", "Nicholas") is longer apart; "Eric"
 * and "Erica", "Paul" and "Paula" are two people too. With no
 * pronunciation dictionary installed, nothing is ruled out here.
 */
function differentCommonNames(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  if (givenNamePrevalence(a) === 0 || givenNamePrevalence(b) === 0) return false;
  const [pa, pb] = [pronunciations(a), pronunciations(b)];
  if (pa.length === 0 || pb.length === 0) return false;
  return !pa.some((x) => pb.some((y) => x.join(' ') === y.join(' ')));
}

/** Whether two names could be one person's: equal, one a word or prefix of the other, a spelling one edit off, a nickname. */
export function isNameVariant(a: string, b: string): boolean {
  const [x, y] = [a.trim().toLowerCase(), b.trim().toLowerCase()];
  if (x === y) return true;
  const wx = x.split(/[\s-]+/);
  const wy = y.split(/[\s-]+/);
  if (wx.some((w) => wy.includes(w))) return true;
  const [fx, fy] = [wx[0] ?? '', wy[0] ?? ''];
  if (differentCommonNames(fx, fy)) return isNickname(fx, fy);
  if (fx.length >= 3 && fy.length >= 3 && fx.slice(0, 3) === fy.slice(0, 3)) return true;
  if (Math.min(fx.length, fy.length) >= 3 && withinOneEdit(fx, fy)) return true;
  return isNickname(fx, fy);
}

/** One lower-case first name a classic nickname of the other (`NICKNAMES`), either way. */
function isNickname(x: string, y: string): boolean {
  return (NICKNAMES[x]?.includes(y) ?? false) || (NICKNAMES[y]?.includes(x) ?? false);
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** "call me Bob", "it's Bob from …", "this is Bob with …", "Bob here", "Bob speaking": not a claim to be someone else. */
function askedOrOnBehalf(text: string, name: string): boolean {
  const n = escapeRe(name);
  return new RegExp(`\\bcall me\\s+${n}\\b`, 'iu').test(text) ||
    new RegExp(`\\b(?:it'?s|it is|this is)\\s+${n}\\s+(?:from|with|at|of|calling|speaking|here)\\b`, 'iu').test(text) ||
    new RegExp(`\\b${n}\\s+(?:here|speaking)\\b`, 'iu').test(text);
}

/**
 * The self-introduced name `stored` already holds that `name`, said in `text`, would contradict: a name taught by
 * their own introduction (`TAUGHT_NAMES`) and still held, of which `name` is no variant, when `text` is not "call me …"
 * or a greeting on someone's behalf. Null when `name` may be learned (as an alias, or as the display name).
 */
export function contradictedSelfName(stored: ParticipantNames, name: string, text?: string): string | null {
  const taught = taughtNames(stored.attributes);
  if (taught.size === 0) return null;
  const held = [stored.name, ...stored.aliases].filter((n): n is string => n !== null);
  if (held.some((h) => isNameVariant(h, name))) return null;
  if (text !== undefined && askedOrOnBehalf(text, name)) return null;
  return held.find((h) => taught.has(h.toLowerCase())) ?? null;
}
