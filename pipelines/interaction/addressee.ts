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

/**
 * Who an utterance is addressed to, when the client did not say: a participant named in it; else, in
 * a two-party exchange, the other party (the previous different speaker). Otherwise nobody.
 */
export function inferAddressees(
  speakerId: string,
  text: string,
  prior: PriorTurn[],
  participants: KnownParticipant[],
): string[] {
  const named = mentionedParticipants(text, participants.filter((p) => p.id !== speakerId));
  if (named.length > 0) return named;
  const speakers = new Set(prior.map((t) => t.speakerId));
  speakers.add(speakerId);
  const previous = [...prior].reverse().find((t) => t.speakerId !== speakerId);
  if (previous && speakers.size === 2) return [previous.speakerId];
  return [];
}
