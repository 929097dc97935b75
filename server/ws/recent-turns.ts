import { ASKING_TURN_WINDOW, newestAsking } from '../../pipelines/retrieval/turn-evidence.js';

/**
 * The last few turns stored in a live session (id and text), so a question asked over its socket right
 * after the turn that asked it (spoken, or sent as an `utterance`) does not answer with that very turn.
 */
export class RecentTurns {
  private readonly turns: { id: string; text: string }[] = [];

  constructor(private readonly max = ASKING_TURN_WINDOW) {}

  add(id: string, text: string): void {
    this.turns.push({ id, text });
    if (this.turns.length > this.max) this.turns.shift();
  }

  /** Whether the turn `id` is one of the remembered ones. */
  has(id: string): boolean {
    return this.turns.some((t) => t.id === id);
  }

  /**
   * The remembered turn that asked `question` (none or one): the newest with the same words, case and punctuation
   * aside, by the rule a query over HTTP follows (`newestAsking`); an earlier turn saying it too stays evidence.
   */
  asking(question: string): string[] {
    return newestAsking(this.turns, question);
  }
}
