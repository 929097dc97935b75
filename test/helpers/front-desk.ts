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

/** The routine calls of that week (a booking, questions, news) that the cancellation tests share; each adds its own calls after them. */
export const ROUTINE_CALLS: readonly Call[] = [
  ['mon-sam', at(0, 9), [['Sam Lee', "Hi, I'd like to book a cleaning for Thursday at 10."], [JO, "You're booked for Thursday at 10am."]]],
  ['mon-omar', at(0, 11), [['Omar Haddad', 'My kids loved the new toothbrushes.'], [JO, 'Glad to hear it, see you next month.']]],
  ['tue-lena', at(1, 10), [['Lena Park', 'Is the clinic open on Saturday this week?'], [JO, "Yes, we're open Saturday morning."]]],
  ['tue-ravi', at(1, 15), [['Ravi Shah', "I'll come in this week to pick up my retainer."], [JO, 'It will be ready on Friday.']]],
  ['tue-ben', at(1, 9), [['Ben Ortiz', 'My insurance changed this week, it is Aetna now.'], [JO, "Thanks, I've updated it."]]],
  ['tue-kim', at(1, 12), [['Kim Sato', 'I want to book a checkup for my son this week.'], [JO, 'Friday at 9am is free.']]],
  ['thu-lena', at(3, 12), [['Lena Park', 'My filling on Friday is still on, right?'], [JO, 'Yes, Friday at 2pm.']]],
];

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
