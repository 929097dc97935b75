/**
 * People a question names together as the ones it asks about ("What do **Jon and Gina** both have in common?", "What
 * movies have both **Joanna and Nate** seen?", "Who is **Tim and John's** favourite player?"): each of them tells their
 * own part of the answer, often in another session, so an answer told by one of them only is half an answer
 * (`MemoryLayerOptions.eachJointSubject`).
 */
import type { Participant } from '../../graph/types.js';
import { isContentWord, tokens } from './question-rewrite.js';

/**
 * Participants named next to each other, joined by "and" or "&" ("Jon and Gina", "Tim and John's"), in the order
 * named; none when fewer than two such people, or when one of a pair is named as an addressee (`addresseeIds`: "What did
 * Ana promise Ben and Caroline?" asks about Ana). A name shared by several participants counts for none of them.
 */
export function jointSubjects(question: string, participants: readonly Participant[], addresseeIds: readonly string[] = []): string[] {
  const byWord = new Map<string, Set<string>>();
  for (const p of participants) {
    for (const name of [p.name, ...p.aliases]) {
      for (const w of name ? tokens(name) : []) {
        if (isContentWord(w)) byWord.set(w, (byWord.get(w) ?? new Set<string>()).add(p.id));
      }
    }
  }
  const words = tokens(question.replace(/&/g, ' and '));
  const owner = (w: string | undefined): string | null => {
    const ids = w === undefined ? undefined : byWord.get(w);
    return ids?.size === 1 ? [...ids][0] as string : null;
  };
  const joint: string[] = [];
  words.forEach((w, i) => {
    if (w !== 'and') return;
    // A multi-word name ("Ana Silva and Ben") is joined by its last word before "and" and its first after it.
    const left = owner(words[i - 1]);
    const right = owner(words[i + 1]);
    if (left === null || right === null || left === right) return;
    for (const id of [left, right]) if (!joint.includes(id)) joint.push(id);
  });
  return joint.length >= 2 && !joint.some((id) => addresseeIds.includes(id)) ? joint : [];
}

/** What `eachJointSubject` needs of an answer's item: who it is by (a turn's speaker; a fact's subject and speaker). */
export interface PlacedItem {
  by: readonly string[];
}

/**
 * Each joint subject in the answer (`eachJointSubject`): for every subject in `subjects` none of the `kept` items is by,
 * the best of `rest` (in rank order, `usable`) that is by them takes the lowest place whose item is neither the first nor
 * the only one by another joint subject. Returns the new answer (the places given up are dropped); unchanged when fewer
 * than two subjects, or when the answer is not full (`k`: a short answer already holds everything usable).
 */
export function eachSubjectPlaced<T extends PlacedItem>(
  kept: readonly T[], rest: readonly T[], subjects: readonly string[], k: number, usable: (c: T) => boolean = () => true,
): T[] {
  const out = [...kept];
  if (subjects.length < 2 || out.length < k) return out;
  for (const s of subjects) {
    if (out.some((c) => c.by.includes(s))) continue;
    const alt = rest.find((c) => c.by.includes(s) && !out.includes(c) && usable(c));
    if (alt === undefined) continue;
    const sole = (c: T): boolean => subjects.some((x) => c.by.includes(x) && out.filter((y) => y.by.includes(x)).length === 1);
    let at = -1;
    for (let i = out.length - 1; i >= 1; i--) {
      if (!sole(out[i] as T)) {
        at = i;
        break;
      }
    }
    if (at < 0) continue;
    out.splice(at, 1);
    out.push(alt);
  }
  return out;
}

/**
 * A second session in a list's answer (`MemoryLayerOptions.listSecondSession`): when every item of a full answer (`k`)
 * comes from one session (`session`; null: none), the best of `rest` (rank order, `usable`) from another session takes
 * the last place. A list told across sessions ("What activities does Melanie do?") is then not answered from one
 * exchange only. Otherwise unchanged.
 */
export function secondSessionPlaced<T>(
  kept: readonly T[], rest: readonly T[], k: number, session: (c: T) => string | null, usable: (c: T) => boolean = () => true,
): T[] {
  const out = [...kept];
  const first = out[0] === undefined ? null : session(out[0]);
  if (out.length < k || k < 2 || first === null || !out.every((c) => session(c) === first)) return out;
  const alt = rest.find((c) => !out.includes(c) && session(c) !== null && session(c) !== first && usable(c));
  if (alt !== undefined) out.splice(out.length - 1, 1, alt);
  return out;
}
