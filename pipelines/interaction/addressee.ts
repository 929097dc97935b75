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
 * Ids of participants whose name or alias appears as a whole word in `text`. A plain substring test
 * screens names first: building the whole-word pattern costs ~0.4 ms, which over every caller of a
 * tenant of 10,000 was seconds per utterance (bench/ingest-participants.ts). The resolver now passes only
 * the participants the word index finds in the text (`GraphStore.findParticipantsInText`).
 */
export function mentionedParticipants(text: string, participants: KnownParticipant[]): string[] {
  const lower = text.toLowerCase();
  const found: string[] = [];
  for (const p of participants) {
    const names = [p.name, ...p.aliases].filter((n): n is string => !!n && n.trim().length > 1);
    if (names.some((n) => lower.includes(n.toLowerCase()) && mentionsName(text, n))) found.push(p.id);
  }
  return found;
}
