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

/** Ids of participants whose name or alias appears as a whole word in `text`. */
export function mentionedParticipants(text: string, participants: KnownParticipant[]): string[] {
  const found: string[] = [];
  for (const p of participants) {
    const names = [p.name, ...p.aliases].filter((n): n is string => !!n && n.trim().length > 1);
    if (names.some((n) => new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(n)}($|[^\\p{L}\\p{N}])`, 'iu').test(text))) {
      found.push(p.id);
    }
  }
  return found;
}
