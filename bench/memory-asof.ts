/**
 * Questions that name a time, answered as of that time: 10 people with dated changes of mind
 * (residence, employer, job, diet), 43 questions naming a time ("in 2024", "in March 2025", "last
 * year", "two years ago"), asking about now, about before, or with no cue (bench/data/asof.jsonl,
 * written for this bench before any run on it; held out: nothing was chosen on it). Each person's
 * lines (with a friend's replies) run through the real consolidation and left-brain handlers
 * (embedded extractor, USE-lite, SQLite), one tenant per person, at the times the set gives; each
 * question is asked through `answerQuestion` with its `now` (default 2026-05-20).
 *
 * An answer is right when the item's source turns include a line holding one of the question's
 * `answer` fragments. Reports top-1 and any@3 for validity as of now (`asOf: false`, as before) and
 * as of the named time (`asOf: true`, the default) in the same run, each with its 95 % bootstrap
 * interval and the paired difference, overall and per kind of question.
 *
 * `--file F --compare where` runs another set the same way, comparing each person's current values in the order the
 * question asks (`validityAsked`, the default: a temporary value that holds first for a present-tense question, the lasting
 * value first for a lasting one) against the order found (`validityAsked: false`): bench/data/whereabouts.jsonl (8 people
 * with a home and a stay beside it, 24 questions: "where is X now / staying?" during the stay, "where does X live?" during
 * it, "where is X now?" after its end), or bench/data/validity-slots-dev.jsonl / -test.jsonl (a lasting value and a
 * temporary one beside it for a job, employer, diet, relationship, plan or preference; present and lasting questions),
 * grouped by each question's `kind`. `--baseline DIR` (another build's dist/, e.g. main built in a scratch copy) compares
 * that build's answers (its `answerQuestion` and `Retriever`, its defaults) against this build's on the same stores.
 *
 *   npm run build && node dist/bench/memory-asof.js [--file F] [--compare asof|where] [--baseline DIR] [--show]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../pipelines/models/repo-root.js';
import { answerQuestion } from '../pipelines/retrieval/agentic-query.js';
import { Retriever } from '../pipelines/retrieval/retriever.js';
import { temporalIntent } from '../pipelines/retrieval/temporal-intent.js';
import { timeScope } from '../pipelines/retrieval/time-scope.js';
import { embeddedMemory } from '../test/helpers/memory-fixture.js';
import { argString } from './lib/cli.js';
import { addHits, goldHits, printPaired, type PairedRow } from './lib/gold-hits.js';

interface Person {
  id: number; person: string; friend: string;
  lines: { by: string; text: string; time: string }[];
  questions: { q: string; now?: string; answer: string[]; kind?: string }[];
}
type Kind = string;

const DEFAULT_NOW = '2026-05-20T12:00:00Z';
const COMPARED = {
  asof: [['as of now (before)', { asOf: false }], ['as of the named time', { asOf: true }]],
  where: [['values as found (before)', { validityAsked: false }], ['values in the order asked', { validityAsked: true }]],
} as const;
type Answer = typeof answerQuestion;
type RetrieverClass = typeof Retriever;
/** The two systems compared: two option sets of this build, or `--baseline DIR`'s build against this one (defaults). */
async function systems(): Promise<[string, Answer, RetrieverClass, Record<string, unknown>][]> {
  const dir = argString('baseline', '');
  if (dir) {
    const load = async (file: string): Promise<Record<string, unknown>> => (await import(pathToFileURL(path.resolve(dir, file)).href)) as Record<string, unknown>;
    const base = (await load('pipelines/retrieval/agentic-query.js')).answerQuestion as Answer;
    const BaseRetriever = (await load('pipelines/retrieval/retriever.js')).Retriever as RetrieverClass;
    return [[`baseline (${dir})`, base, BaseRetriever, {}], ['this build', answerQuestion, Retriever, {}]];
  }
  return COMPARED[argString('compare', 'asof') === 'where' ? 'where' : 'asof'].map(([name, o]) => [name, answerQuestion, Retriever, o]);
}

/** The kind of a question: it names a time, asks about now, about before, or has no cue. */
function kindOf(q: string, now: Date): Kind {
  if (timeScope(q, now) !== null) return 'time';
  const intent = temporalIntent(q);
  return intent === 'current' ? 'now' : intent === 'past' ? 'before' : 'no cue';
}

async function main(): Promise<void> {
  const people = readFileSync(argString('file', path.join(repoRoot(), 'bench', 'data', 'asof.jsonl')), 'utf8').split('\n').filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Person);
  const stores = embeddedMemory();
  const { graph, memory, vectors, lexical, entities, embedder } = stores;
  const SYSTEMS = await systems();
  const retrievers = SYSTEMS.map(([, , R]) => new R({ graph, memory, vectors, lexical }, entities, embedder, { minPool: 1 }));
  const rows: PairedRow[] = [];
  for (const p of people) {
    const tenant = `asof${p.id}`;
    const ids: Record<string, string> = {};
    for (const name of [p.person, p.friend]) ids[name] = (await graph.createParticipant(tenant, { name })).id;
    const lineIds: { id: string; text: string }[] = [];
    let session = '';
    for (const l of p.lines) {
      // A new session on each new day.
      const day = `s${l.time.slice(0, 10)}`;
      if (day !== session) await graph.openSession(tenant, (session = day), l.time);
      const to = l.by === p.person ? p.friend : p.person;
      const [u] = await graph.addUtterances(tenant, [{ sessionId: session, speakerId: ids[l.by] as string, addresseeIds: [ids[to] as string],
        text: l.text, startMs: null, endMs: null, time: l.time, confidence: null, audioRef: null }]);
      await stores.consolidate(tenant, session, u!.id);
      lineIds.push({ id: u!.id, text: l.text });
    }
    for (const q of p.questions) {
      const right = new Set(lineIds.filter((l) => q.answer.some((a) => l.text.includes(a))).map((l) => l.id));
      if (right.size === 0) throw new Error(`person ${p.id}: no line holds the answer of "${q.q}"`);
      const now = new Date(q.now ?? DEFAULT_NOW);
      const row: PairedRow = { kind: q.kind ?? kindOf(q.q, now), q: q.q, top1: [], any: [], got: [] };
      for (const [s, [, answer, , options]] of SYSTEMS.entries()) {
        addHits(row, goldHits((await answer(retrievers[s]!, tenant, { question: q.q, k: 3, now }, options)).evidence, right));
      }
      rows.push(row);
    }
  }
  console.log(`memory-asof: ${people.length} people, ${rows.length} questions`);
  printPaired([SYSTEMS[0]![0], SYSTEMS[1]![0]], rows, 'top-1', 'any@3', process.argv.includes('--show'));
  await stores.close();
}

await main();
