import { isMixedCase } from '../speaker/name-tokens.js';
import { isAlsoCommonWord, isFunctionWord } from '../speaker/name-words.js';

/** A participant as addressee inference sees it. */
export interface KnownParticipant {
  id: string;
  name: string | null;
  aliases: string[];
}

/** A previous utterance of the same session, oldest first. */
export interface PriorTurn {
  speakerId: string;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whether `name` appears in `text` as a whole word (not inside a longer word), ignoring case. */
export function mentionsName(text: string, name: string): boolean {
  return new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(name)}($|[^\\p{L}\\p{N}])`, 'iu').test(text);
}

/**
 * Whether `name` in `text` may stand for a person: never a function word ("on", an alias a misread "my name
 * is on the list" left behind); a name that is also a common word ("Frank", "Will") only written capitalised
 * when the text has case ("I will see you" names no Will); otherwise as `mentionsName`.
 */
export function mentionsAsName(text: string, name: string): boolean {
  const first = name.trim().split(/\s+/)[0] ?? '';
  if (isFunctionWord(first)) return false;
  if (!mentionsName(text, name)) return false;
  if (!isMixedCase(text) || !isAlsoCommonWord(first)) return true;
  const capitalised = name.trim().replace(/(^|\s)(\p{L})/gu, (_, s: string, c: string) => s + c.toUpperCase());
  return new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(capitalised)}($|[^\\p{L}\\p{N}])`, 'u').test(text);
}

/**
 * Ids of participants whose name or alias appears as a whole word in `text` (as `mentionsAsName`). With
 * `present` (ids), a participant not among them counts by their full display name only: aliases are learned
 * from speech and may be wrong, and a wrong one would address someone who is not in the session.
 * A plain substring test
 * screens names first: building the whole-word pattern costs ~0.4 ms, which over every caller of a
 * tenant of 10,000 was seconds per utterance (bench/ingest-participants.ts). The resolver now passes only
 * the participants the word index finds in the text (`GraphStore.findParticipantsInText`).
 */
export function mentionedParticipants(text: string, participants: KnownParticipant[], present?: ReadonlySet<string>): string[] {
  const lower = text.toLowerCase();
  const found: string[] = [];
  for (const p of participants) {
    const all = !present || present.has(p.id) ? [p.name, ...p.aliases] : [p.name];
    const names = all.filter((n): n is string => !!n && n.trim().length > 1);
    if (names.some((n) => lower.includes(n.toLowerCase()) && mentionsAsName(text, n))) found.push(p.id);
  }
  return found;
}
