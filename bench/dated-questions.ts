/**
 * Questions that name a period (#16): "what did the caller ask for last week?" must put last week's request first, above
 * this week's. bench/data/dated-questions.jsonl: 8 scripted conversations (5 call-centre, 3 household), each of three
 * sessions spread over four weeks, with 37 questions naming a week, a day or a date ("last week", "three weeks ago",
 * "yesterday", "on November 17") and the ids of the lines that answer them (gold). Written for this bench with the change
 * it measures, so it shows the behaviour, not a held-out gain (LoCoMo's held-out split is for that). Each line runs
 * through the real consolidation and left-brain handlers (embedded extractor, USE-lite, SQLite), one tenant per
 * conversation, one session per day; each question is asked through `answerQuestion` at its `now` (default
 * 2026-11-25T15:00Z, a Wednesday).
 *
 * Reports hit@1 (the first item's source turns hold a gold line) and any@5, side by side for the old behaviour (`--old`
 * options: rolling weeks, speech acts read as events told later, no period boost) and this build's defaults (or
 * `--options JSON` on top of them), each with its 95 % bootstrap interval and the paired difference, overall and per kind.
 *
 *   npm run bench:dated    (or: node dist/bench/dated-questions.js [--file F] [--options JSON] [--show])
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../pipelines/models/repo-root.js';
import { answerQuestion, type AgenticOptions } from '../pipelines/retrieval/agentic-query.js';
import { Retriever } from '../pipelines/retrieval/retriever.js';
import { embeddedMemory } from '../test/helpers/memory-fixture.js';
import { argString } from './lib/cli.js';
import { addHits, goldHits, printPaired, type PairedRow } from './lib/gold-hits.js';

interface Conversation {
  id: number; kind: string; people: [string, string];
  lines: { id: string; by: string; text: string; time: string }[];
  questions: { q: string; gold: string[]; now?: string }[];
}

const DEFAULT_NOW = '2026-11-25T15:00:00Z';
/** The behaviour before #16: a week runs seven days from the day chrono names, asking is an event told later, no period boost. */
const OLD_DATED: AgenticOptions = { periodBoost: 0, timeScope: { speechActs: false, calendarWeeks: false } };

async function main(): Promise<void> {
  const conversations = readFileSync(argString('file', path.join(repoRoot(), 'bench', 'data', 'dated-questions.jsonl')), 'utf8')
    .split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Conversation);
  const systems: [string, AgenticOptions][] = [['old behaviour', OLD_DATED], ['this build', JSON.parse(argString('options', '{}')) as AgenticOptions]];
  const stores = embeddedMemory();
  const retriever = new Retriever(stores, stores.entities, stores.embedder, { minPool: 1 });
  const rows: PairedRow[] = [];
  for (const c of conversations) {
    const tenant = `dated${c.id}`;
    const ids: Record<string, string> = {};
    for (const name of c.people) ids[name] = (await stores.graph.createParticipant(tenant, { name })).id;
    const utteranceOf = new Map<string, string>();
    let session = '';
    for (const l of c.lines) {
      const day = `s${l.time.slice(0, 10)}`;
      if (day !== session) await stores.graph.openSession(tenant, (session = day), l.time);
      const to = c.people.find((p) => p !== l.by) as string;
      const [u] = await stores.graph.addUtterances(tenant, [{ sessionId: session, speakerId: ids[l.by] as string, addresseeIds: [ids[to] as string],
        text: l.text, startMs: null, endMs: null, time: l.time, confidence: null, audioRef: null }]);
      await stores.consolidate(tenant, session, u!.id);
      utteranceOf.set(l.id, u!.id);
    }
    for (const q of c.questions) {
      const gold = new Set(q.gold.map((g) => {
        const id = utteranceOf.get(g);
        if (!id) throw new Error(`conversation ${c.id}: no line ${g} for "${q.q}"`);
        return id;
      }));
      const row: PairedRow = { kind: c.kind, q: q.q, top1: [], any: [], got: [] };
      for (const [, options] of systems) {
        addHits(row, goldHits((await answerQuestion(retriever, tenant, { question: q.q, k: 5, now: new Date(q.now ?? DEFAULT_NOW) }, options)).evidence, gold));
      }
      rows.push(row);
    }
  }
  console.log(`dated-questions: ${conversations.length} conversations, ${rows.length} questions`);
  printPaired([systems[0]![0], systems[1]![0]], rows, 'hit@1', 'any@5', process.argv.includes('--show'));
  await stores.close();
}

await main();
