/**
 * Which facts an erasure takes with a person, and what it leaves of the others: shared by the memory stores
 * (`MemoryStore.deleteParticipant`) and the erasure pipeline, so SQLite and Neo4j select the same facts.
 */
import type { Fact } from './memory-store.js';

/** The names an erased person goes by in fact texts: their name and aliases, blanks and one-letter names left out. */
export function erasableNames(names: readonly string[]): string[] {
  return [...new Set(names.map((n) => n.trim()).filter((n) => n.length >= 2))];
}

/**
 * Whether `text` names one of `names` as a whole word, case as written ("Will" is not "will"): facts are written
 * with names resolved ("Cara will send Dan the report").
 */
export function textNames(text: string, names: readonly string[]): boolean {
  return erasableNames(names).some((n) => {
    const escaped = n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return new RegExp(`(?<![\\p{L}\\p{N}_])${escaped}(?![\\p{L}\\p{N}_])`, 'u').test(text);
  });
}

/**
 * Whether erasing participant `id` (who goes by `names`) erases fact `f`: it is theirs (they said it or it is about
 * them) or its text names them. A fact of someone else on which they were only an addressee stays, without them.
 */
export function erasesFact(f: Pick<Fact, 'speakerId' | 'subjectId' | 'content'>, id: string, names: readonly string[]): boolean {
  return f.speakerId === id || f.subjectId === id || textNames(f.content, names);
}

/**
 * Whether erasing participant `id` (who goes by `names`) erases persona node `n`: it is theirs, or its target names them
 * as a whole word ("daughter maya" of Sarah names Maya). Targets are stored lower-case, so the names are compared
 * lower-case too: the rule of `textNames` otherwise, erring towards erasing (a name that is also a word, "Will", takes
 * a target "will power" too).
 */
export function erasesPersona(n: { participantId: string; target: string }, id: string, names: readonly string[]): boolean {
  return n.participantId === id || textNames(n.target, personaTargetNames(names));
}

/** The erasable `names` as persona targets hold them (lower-case). */
export function personaTargetNames(names: readonly string[]): string[] {
  return erasableNames(names.map((n) => n.toLowerCase()));
}

/** A kept fact's addressees without the erased participant. */
export function addresseesWithout(addresseeIds: readonly string[], id: string): string[] {
  return addresseeIds.filter((a) => a !== id);
}
