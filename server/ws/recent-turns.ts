import { plainWords as words } from '../../pipelines/retrieval/turn-evidence.js';

/**
 * The last few turns stored in a live session (id and words), so a question asked over its socket right
 * after the turn that asked it (spoken, or sent as an `utterance`) does not answer with that very turn.
 */
export class RecentTurns {
  private readonly turns: { id: string; words: string }[] = [];

  constructor(private readonly max = 16) {}

  add(id: string, text: string): void {
    this.turns.push({ id, words: words(text) });
    if (this.turns.length > this.max) this.turns.shift();
  }

  /** Whether the turn `id` is one of the remembered ones. */
  has(id: string): boolean {
    return this.turns.some((t) => t.id === id);
  }

  /** The remembered turns that asked `question`: the same words, case and punctuation aside. */
  asking(question: string): string[] {
    const asked = words(question);
    return asked === '' ? [] : this.turns.filter((t) => t.words === asked).map((t) => t.id);
  }
}
