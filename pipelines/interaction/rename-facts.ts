import type { Fact, MemoryStore } from '../../graph/memory-store.js';
import type { TenantId } from '../../graph/types.js';
import { UNNAMED } from '../memory/extractor.js';

/** "an unnamed speaker" (any case), with a possessive: how a fact names a participant who had no name. */
export const UNNAMED_WORDS = new RegExp(`\\b${UNNAMED}(['’]s)?\\b`, 'gi');

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Rewrite the texts of a renamed participant's facts (as speaker, subject or addressee, history included) that
 * name them by the old label: `from` as written (case-sensitive, a whole word: "On will send…" → "Ana will
 * send…", never the "on" of "on Friday"), or, when they had no name, "An unnamed speaker" in a fact that
 * names exactly one unnamed speaker and whose speaker or subject they are (another unnamed person's words are
 * not theirs to take). A mention that already reads the new name ("Ana Silva" when "Ana" becomes "Ana Silva") stays.
 * Facts store their text, so without this a rename left them saying the old label.
 * Returns the rewritten facts (the caller re-indexes the current ones).
 */
export async function renameInFacts(memory: MemoryStore, tenant: TenantId, participantId: string, from: string | null, to: string): Promise<Fact[]> {
  if (from !== null && from === to) return [];
  const old = from === null ? UNNAMED_WORDS : new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(from)}(?![\\p{L}\\p{N}])`, 'gu');
  const facts: Fact[] = [];
  for (let offset = 0; ; offset += 1000) {
    const page = await memory.listFacts(tenant, { participantId, includeHistory: true, limit: 1000, offset });
    facts.push(...page);
    if (page.length < 1000) break;
  }
  const rewritten: Fact[] = [];
  for (const f of facts) {
    const count = f.content.match(old)?.length ?? 0;
    if (count === 0 || (from === null && (count !== 1 || (f.speakerId !== participantId && f.subjectId !== participantId)))) continue;
    const content = from === null ? f.content.replace(old, (_m, s: string | undefined) => `${to}${s ?? ''}`) : f.content.replace(old, (m: string, at: number, text: string) => (text.startsWith(to, at) ? m : to));
    const patched = await memory.patchFact(tenant, f.id, { content });
    if (patched) rewritten.push(patched);
  }
  return rewritten;
}
