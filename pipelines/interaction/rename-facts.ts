import type { Fact, MemoryStore } from '../../graph/memory-store.js';
import type { TenantId } from '../../graph/types.js';
import { CALLER, UNNAMED } from '../memory/extractor.js';
import { labelIsAlsoWord } from '../speaker/name-words.js';

/**
 * "an unnamed speaker" or "the caller" (the unnamed remote party of a phone session), any case, with a possessive: how
 * a fact names a participant who had no name.
 */
export const UNNAMED_WORDS = new RegExp(`\\b(?:${UNNAMED}|${CALLER})(['’]s)?\\b`, 'gi');

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Whether a fact's words are about `participantId`: they are its subject, or its speaker when the subject is
 * no participant (an entity such as `entity:acme`). A fact where they only listen, or where they speak about
 * another person, names that other person, whose label is not theirs to rewrite.
 */
export function factIsAbout(f: Pick<Fact, 'speakerId' | 'subjectId'>, participantId: string): boolean {
  if (f.subjectId === participantId) return true;
  // A subject that is no participant is an entity key (the extractor gives the speaker otherwise).
  return f.speakerId === participantId && f.subjectId.startsWith('entity:');
}

/**
 * Whether a fact takes `participantId` part without being about them (`factIsAbout`): they are its listener ("Ben asked
 * Donna to remember…"), or its speaker talking about someone else ("Ben told Donna he is moving", Donna speaking). Its
 * words name them by their label where it reads so (trial 9, issue #16 F8: a rename left "Donna" there).
 */
export function factNamesToo(f: Pick<Fact, 'speakerId' | 'subjectId' | 'addresseeIds'>, participantId: string): boolean {
  return !factIsAbout(f, participantId) && (f.speakerId === participantId || f.addresseeIds.includes(participantId));
}

/**
 * `text` with `from` (a whole word, case-sensitive) replaced by `to`, or null when nothing changes. A match is
 * left as it is when it is part of a longer name (next to another capitalised word: "Ana Lopez", "Dora Silva"),
 * or lies inside a mention that already reads the new name. A label that is also a word (`labelIsAlsoWord`) is
 * replaced only as the first word of a sentence followed by a lower-case word ("May is moving…", not "in May").
 */
export function renameInText(text: string, from: string, to: string): string | null {
  const [out, count] = replaceLabel(text, from, to);
  return count > 0 ? out : null;
}

/** {@link renameInText}'s rewrite and how many mentions it replaced. */
function replaceLabel(text: string, from: string, to: string): [string, number] {
  const old = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(from)}(?![\\p{L}\\p{N}])`, 'gu');
  const inNew: [number, number][] = [];
  for (let at = text.indexOf(to); at >= 0; at = text.indexOf(to, at + 1)) inNew.push([at, at + to.length]);
  const wordLike = labelIsAlsoWord(from);
  let count = 0;
  const out = text.replace(old, (m: string, at: number) => {
    const before = text.slice(0, at);
    const after = text.slice(at + m.length);
    if (inNew.some(([s, e]) => at >= s && at + m.length <= e)) return m;
    if (/\p{Lu}[\p{L}'’-]*\s+$/u.test(before) || /^\s+\p{Lu}/u.test(after)) return m;
    if (wordLike && !(/^\s*$|[.!?]\s+$/u.test(before) && /^\s+\p{Ll}/u.test(after))) return m;
    count += 1;
    return to;
  });
  return [out, count];
}

/**
 * Rewrite the texts of a renamed participant's facts (history included) that name them by the old label:
 * `from` as written (see `renameInText`), or, when they had no name, "An unnamed speaker" in a fact that names
 * exactly one unnamed speaker. Facts about them (`factIsAbout`) are rewritten, and those they take part in as listener
 * or speaker (`factNamesToo`) where the old label is named once; none where another participant of the fact
 * (`holders`: the others who hold `from` as a name or alias) could be the one meant.
 * Facts store their text, so without this a rename left them saying the old label.
 * Returns the rewritten facts (the caller re-indexes the current ones).
 */
export async function renameInFacts(
  memory: MemoryStore, tenant: TenantId, participantId: string, from: string | null, to: string,
  holders: ReadonlySet<string> = new Set(), only?: ReadonlySet<string>,
): Promise<Fact[]> {
  if (from !== null && from === to) return [];
  const rewritten: Fact[] = [];
  for (const f of await factsOf(memory, tenant, participantId)) {
    if (only && !only.has(f.id)) continue;
    // A fact they only take part in is rewritten where it names them once by the old label: twice, one may be
    // someone else of that name ("Ben told Donna that Donna's aunt…" is not read), and an unnamed speaker there is
    // another person the fact tells of.
    const about = factIsAbout(f, participantId);
    if (!about && (from === null || !factNamesToo(f, participantId))) continue;
    if ([f.speakerId, f.subjectId, ...f.addresseeIds].some((id) => id !== participantId && holders.has(id))) continue;
    const [renamed, count]: [string | null, number] = from === null ? [nameUnnamed(f.content, to), 1] : replaceLabel(f.content, from, to);
    const content = count === 1 || (about && count > 0) ? renamed : null;
    if (content === null) continue;
    const patched = await memory.patchFact(tenant, f.id, { content });
    if (patched) rewritten.push(patched);
  }
  return rewritten;
}

/**
 * "An unnamed speaker" (or "the caller") → `to` when the text names exactly one unnamed participant and not `to`
 * already ("Xena lent an unnamed speaker a book" is about someone else); null otherwise.
 */
export function nameUnnamed(text: string, to: string): string | null {
  if ((text.match(UNNAMED_WORDS)?.length ?? 0) !== 1) return null;
  if (new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(to)}(?![\\p{L}\\p{N}])`, 'u').test(text)) return null;
  return text.replace(UNNAMED_WORDS, (_m, s: string | undefined) => `${to}${s ?? ''}`);
}

/** All facts that mention `participantId` in any role, history included. */
export async function factsOf(memory: MemoryStore, tenant: TenantId, participantId: string): Promise<Fact[]> {
  const facts: Fact[] = [];
  for (let offset = 0; ; offset += 1000) {
    const page = await memory.listFacts(tenant, { participantId, includeHistory: true, limit: 1000, offset });
    facts.push(...page);
    if (page.length < 1000) break;
  }
  return facts;
}
