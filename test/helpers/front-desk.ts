import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import type { MemoryItem, ParleyClient } from '../../clients/typescript/src/index.js';
import type { TestApp } from './app.js';

/** The receptionist who answers every call of a simulated front-desk week (trial12 F11). */
export const JO = 'Receptionist Jo';
/** Monday of last week, 00:00 UTC: the simulated week (the server refuses turns said in the future). */
const WEEK = ((now: Date) => Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - ((now.getUTCDay() + 6) % 7) - 7))(new Date());
/** The time `hour` hours into day `day` (0: Monday) of that week. */
export const at = (day: number, hour: number): string => new Date(WEEK + (day * 24 + hour) * 3_600_000).toISOString();
/** One call: its session, when it began, its turns (speaker, text); the caller speaks first. */
export type Call = [session: string, day: string, turns: Array<[string, string]>];

/** Posts each call (every turn addressed to the other side, 30 s apart), ends its session, and waits for consolidation. */
export async function postCalls(t: TestApp, api: ParleyClient, calls: readonly Call[]): Promise<void> {
  for (const [session, day, turns] of calls) {
    await api.postUtterances(session, turns.map(([speaker, text], i) => ({
      speaker, text, addressees: [speaker === JO ? turns[0]![0] : JO], time: new Date(Date.parse(day) + i * 30_000).toISOString(),
    })));
    await api.endSession(session);
  }
  await drainConsolidation(t.app.stores.queue, 120_000);
}

/** An answer's items on one line, for assertion messages. */
export const show = (items: MemoryItem[]): string => items.map((i) => `${i.layer} ${i.speaker?.name}: ${i.text}`).join(' | ');
