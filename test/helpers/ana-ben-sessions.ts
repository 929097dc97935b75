import { Retriever } from '../../pipelines/retrieval/retriever.js';
import { memoryFixture, type MemoryFixture } from './memory-fixture.js';

/** A session of Ana and Ben: its id, its day in 2023 ("06-01"), and its turns as [speaker, text], a minute apart. */
export type AnaBenSession = [session: string, day: string, lines: [string, string][]];

/** Ana and Ben's memory (`memoryFixture`, each turn addressed to the other) holding `sessions`, and a retriever over it. */
export async function anaBenMemory(tenant: string, sessions: AnaBenSession[]): Promise<{ f: MemoryFixture; retriever: Retriever }> {
  const f = await memoryFixture(tenant, ['Ana', 'Ben']);
  for (const [session, day, lines] of sessions) {
    await f.sayBatch(session, lines.map(([speaker, text], i) => ({
      speaker, addressees: [speaker === 'Ana' ? 'Ben' : 'Ana'], text, time: `2023-${day}T10:0${i}:00Z`,
    })));
  }
  return { f, retriever: new Retriever(f, f.entities, f.embedder, { minPool: 1 }) };
}
