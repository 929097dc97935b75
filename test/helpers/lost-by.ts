/** What a sentence takes from what a speaker holds, through consolidation (real USE-lite, real SQLite): the rules tests. */
import { memoryFixture } from './memory-fixture.js';

/**
 * What Ana holds after `before`, and what `then` takes from it (facts as "slot=value", or their text), each said a minute
 * after the one before from 10:01 on `day` (ISO date).
 */
export async function lostBy(tenant: string, before: string[], then: string, day = '2026-12-04'): Promise<{ lost: string[]; now: string[] }> {
  const f = await memoryFixture(tenant, ['Ana', 'Ben']);
  try {
    let minute = 0;
    const say = (text: string): Promise<unknown> => {
      minute += 1;
      return f.say('s1', 'Ana', ['Ben'], text, `${day}T10:${String(minute).padStart(2, '0')}:00Z`);
    };
    const current = async (): Promise<string[]> => (await f.memory.listFacts(tenant, { subjectId: f.people.Ana, limit: 200 }))
      .map((x) => (x.slot ? `${x.slot}=${x.value}` : x.content));
    for (const s of before) await say(s);
    const held = await current();
    await say(then);
    const now = await current();
    return { lost: held.filter((x) => !now.includes(x)).sort(), now };
  } finally {
    await f.close();
  }
}
