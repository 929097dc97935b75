/**
 * Does an explicit question cost more in a long session? `spreadToNeighbours` (each round of the
 * agentic query, pipelines/retrieval/agentic-query.ts) gives the turns around the best candidates a
 * share of their score. This bench times one call, and counts the turns it reads from the graph, on
 * an embedded SQLite graph holding the same kind of tenant three ways: 75 sessions of 20 turns, one
 * session of 1,500 turns, and one of 10,000 (a robot's day-long dialogue loop). Each call scores 60
 * random turns (the query's fused list), spreads from the best 30 with the query's window of 2.
 * `--calls N` calls per shape and repeat (default 30), `--repeats N` (default 5); reports the median
 * call per repeat, as median and min–max over the repeats.
 *
 *   npm run build && node dist/bench/neighbour-reads.js [--calls N] [--repeats N]
 */
import os from 'node:os';
import { openDatabase } from '../graph/sqlite/database.js';
import { SqliteGraphStore } from '../graph/sqlite/sqlite-graph-store.js';
import type { GraphStore } from '../graph/graph-store.js';
import type { Utterance } from '../graph/types.js';
import { spreadToNeighbours } from '../pipelines/retrieval/session-context.js';
import { argNumber } from './lib/cli.js';
import { percentile } from './lib/locomo.js';

const T = 'bench';

async function tenant(sessions: number, turns: number): Promise<{ graph: SqliteGraphStore; all: Utterance[] }> {
  const graph = new SqliteGraphStore(openDatabase(':memory:'));
  const ana = (await graph.createParticipant(T, { name: 'Ana' })).id;
  const ben = (await graph.createParticipant(T, { name: 'Ben' })).id;
  const all: Utterance[] = [];
  for (let s = 0; s < sessions; s++) {
    await graph.openSession(T, `s${s}`, '2026-01-01T10:00:00Z');
    for (let from = 0; from < turns; from += 500) {
      all.push(...await graph.addUtterances(T, Array.from({ length: Math.min(500, turns - from) }, (_, i) => ({
        sessionId: `s${s}`, speakerId: (from + i) % 2 ? ben : ana, addresseeIds: [(from + i) % 2 ? ana : ben],
        text: `turn ${from + i} of session ${s}: a sentence about as long as a spoken turn, with a few more words`,
        startMs: null, endMs: null, time: '2026-01-01T10:00:00Z', confidence: null, audioRef: null,
      }))));
    }
  }
  return { graph, all };
}

async function main(): Promise<void> {
  const calls = argNumber('calls', 30);
  const repeats = argNumber('repeats', 5);
  const shapes = [[75, 20], [1, 1500], [1, 10_000]] as const;
  const built = await Promise.all(shapes.map(([s, n]) => tenant(s, n)));
  let seed = 1;
  const random = (): number => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const medians = shapes.map(() => [] as number[]);
  const reads = shapes.map(() => [] as number[]);
  for (let r = 0; r < repeats; r++) {
    for (const [i, { graph, all }] of built.entries()) {
      let rows = 0;
      const counted: Pick<GraphStore, 'getUtterances' | 'recentUtterances'> & Partial<Pick<GraphStore, 'getTranscript'>> = {
        getUtterances: async (t, ids) => { const u = await graph.getUtterances(t, ids); rows += u.length; return u; },
        recentUtterances: async (t, s, n, before) => { const u = await graph.recentUtterances(t, s, n, before); rows += u.length; return u; },
        getTranscript: async (t, s) => { const u = await graph.getTranscript(t, s); rows += u.length; return u; },
      };
      const times: number[] = [];
      for (let c = 0; c < calls; c++) {
        const scored = Array.from({ length: 60 }, () => ({ id: all[Math.floor(random() * all.length)]!.id, score: random() }))
          .sort((a, b) => b.score - a.score);
        rows = 0;
        const t0 = performance.now();
        await spreadToNeighbours(counted as Parameters<typeof spreadToNeighbours>[0], T, scored, new Map(), { weight: 0.3, backWeight: 0.2, top: 30, window: 2 });
        times.push(performance.now() - t0);
        reads[i]!.push(rows);
      }
      medians[i]!.push(percentile(times, 50));
    }
  }
  console.log(`neighbour-reads: ${calls} calls × ${repeats} repeats per shape; ${os.cpus().length} cores, `
    + `load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}, Node ${process.version}`);
  console.log('| tenant | ms per call, median of repeats (min–max) | turns read per call, median (max) |');
  console.log('|---|---|---|');
  for (const [i, [s, n]] of shapes.entries()) {
    const m = medians[i]!;
    console.log(`| ${s} session${s > 1 ? 's' : ''} × ${n.toLocaleString('en')} turns | ${percentile(m, 50).toFixed(2)} (${Math.min(...m).toFixed(2)}–${Math.max(...m).toFixed(2)}) | `
      + `${percentile(reads[i]!, 50).toFixed(0)} (${Math.max(...reads[i]!)}) |`);
  }
}

await main();
