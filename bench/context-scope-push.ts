/**
 * What `context_scope: participants` costs the live push: the end-of-turn `memory.context` of a session scoped to
 * its people against the same session unscoped (`all`), on one tenant of many people (default 50 people, 5,000 turns,
 * bench/retrieval-synth.ts, embedded stores). The push is the server's own (`createTurnRetrieval`), driven the way the
 * audio pipeline drives it when no speculative result is ready: a partial, then the end-of-turn decision at once, so
 * the whole search runs after the decision (the worst case). Timed from the decision to the confirmed
 * `memory.context`. The scoped session holds `--session-people` of the tenant's people (its `memoryScope()` answers
 * at once, as a live session's does without a pending external id). Questions are the fixture speech's turns, embedded
 * once beforehand (both arms find the vector cached; the figures are the stores' and the retriever's own time). The
 * arms alternate question by question, their order swapped every repeat.
 * Run: node dist/bench/context-scope-push.js [--turns 5000] [--people 50] [--entities 500] [--session-people 3] [--repeats 20]
 */
import { pino } from 'pino';
import { buildApp } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { loadAudioFixtures } from '../pipelines/audio/fixtures.js';
import { createTurnRetrieval } from '../pipelines/retrieval/turn-retrieval.js';
import type { Retriever } from '../pipelines/retrieval/retriever.js';
import type { MemoryScope } from '../pipelines/retrieval/context-scope.js';
import { tempDir } from '../test/helpers/temp-dir.js';
import { argNumber } from './lib/cli.js';
import { f1, pct } from './lib/live-turns.js';
import { synthesiseMemories } from './retrieval-synth.js';

const turns = argNumber('turns', 5000);
const peopleCount = argNumber('people', 50);
const entities = argNumber('entities', 500);
const sessionPeople = argNumber('session-people', 3);
const repeats = argNumber('repeats', 20);
const tenant = 'default';

/** One end-of-turn push: ms from the decision to the confirmed context, and its item count. */
async function push(retriever: Retriever, text: string, askerId: string, scope: MemoryScope | null, n: number): Promise<{ ms: number; items: number }> {
  return new Promise((resolve, reject) => {
    let stoppedAt = 0;
    const listener = createTurnRetrieval(retriever, {
      tenant, id: 'bench-live', lastSpeakerId: () => askerId, memoryScope: () => scope,
      send(type, payload) {
        const p = payload as { speculative?: boolean; items?: unknown[] };
        if (type === 'memory.context' && p.speculative === false) resolve({ ms: performance.now() - stoppedAt, items: p.items?.length ?? 0 });
      },
    }, { onError: reject });
    const turnId = `turn_${n}`;
    listener.onSpeechStarted?.(turnId, 0);
    listener.onPartial?.(turnId, text);
    stoppedAt = performance.now();
    listener.onSpeechStopped?.(turnId);
  });
}

const tmp = tempDir('parley-bench-scope-');
const config = loadConfig({ DATA_DIR: tmp.dir, PORT: '0', LOG_LEVEL: 'silent', PARLEY_RUN_JOBS: 'false' });
const app = await buildApp(config, { logger: pino({ level: 'silent' }), eagerModels: true });
try {
  await app.ready();
  const synthMs = await synthesiseMemories(app, tenant, turns, entities, peopleCount);
  const people = (await app.stores.graph.listParticipants(tenant)).map((p) => p.id);
  const asker = people[0]!;
  const scope: MemoryScope = { people: new Set(people.slice(0, sessionPeople)), agents: new Set(), sessionId: 'bench-live' };
  const texts = loadAudioFixtures().flatMap((f) => f.utterances.map((u) => u.text));
  for (const t of texts) await app.retriever.embed(t);
  console.log(`synthesised ${turns} turns of ${people.length} people, ${entities} entities in ${(synthMs / 1000).toFixed(1)} s; ${texts.length} questions, ${repeats} repeats`);
  // One pass of each arm to warm caches (name tables, statement plans).
  let n = 0;
  for (const t of texts) {
    await push(app.retriever, t, asker, null, n++);
    await push(app.retriever, t, asker, scope, n++);
  }
  const arm = (): { p50: number[]; p95: number[]; items: number[]; pooled: number[] } => ({ p50: [], p95: [], items: [], pooled: [] });
  const arms = { all: arm(), participants: arm() };
  const diffs: number[] = [];
  for (let r = 0; r < repeats; r++) {
    const ms = { all: [] as number[], participants: [] as number[] };
    for (const t of texts) {
      const order = r % 2 === 0 ? (['all', 'participants'] as const) : (['participants', 'all'] as const);
      const got = { all: 0, participants: 0 };
      for (const arm of order) {
        const res = await push(app.retriever, t, asker, arm === 'all' ? null : scope, n++);
        ms[arm].push(res.ms);
        arms[arm].pooled.push(res.ms);
        arms[arm].items.push(res.items);
        got[arm] = res.ms;
      }
      diffs.push(got.participants - got.all);
    }
    for (const arm of ['all', 'participants'] as const) {
      arms[arm].p50.push(pct(ms[arm], 50));
      arms[arm].p95.push(pct(ms[arm], 95));
    }
  }
  const spread = (xs: number[]): string => `${f1(pct(xs, 50))} (${f1(Math.min(...xs))}–${f1(Math.max(...xs))})`;
  const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
  console.log(`\nend-of-turn memory.context, decision to confirmed push (ms): median over ${repeats} repeats (min–max of the repeats)`);
  console.log('| scope | p50 | p95 | pooled p50 | pooled p95 | items per push (mean) |\n|---|---|---|---|---|---|');
  for (const a of ['all', 'participants'] as const) {
    const { p50, p95, pooled, items } = arms[a];
    console.log(`| ${a} | ${spread(p50)} | ${spread(p95)} | ${f1(pct(pooled, 50))} | ${f1(pct(pooled, 95))} | ${mean(items).toFixed(2)} |`);
  }
  console.log(`paired difference participants − all, per question (ms): p50 ${f1(pct(diffs, 50))}, p95 ${f1(pct(diffs, 95))}, n ${diffs.length}`);
} finally {
  await app.close();
  tmp.remove();
}
