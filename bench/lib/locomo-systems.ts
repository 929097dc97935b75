import type { ParleyClient } from '../../clients/typescript/src/index.js';
import { appendFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { MemoryItem } from '../../graph/core/events.js';
import { collectionFor } from '../../pipelines/memory/collections.js';
import { answerQuestion, type AgenticOptions } from '../../pipelines/retrieval/agentic-query.js';
import { reciprocalRankFusion } from '../../pipelines/retrieval/rrf.js';
import { statesAnswer } from './answer-match.js';
import { bootstrapDelta, bootstrapMean, pct } from './bootstrap.js';
import { percentile, type LocomoTurn } from './locomo.js';
import { NAMED_LAYER, NAMED_PREFIX } from './locomo-named.js';

/** What the question runner needs from the bench's set-up. */
export interface LocomoDeps {
  app: FastifyInstance;
  /** The SDK client of a conversation's tenant. */
  client: (conv: string) => ParleyClient;
  tenantOf: (conv: string) => string;
  byConv: Map<string, LocomoTurn[]>;
  convs: string[];
  /** `conv|dia_id` → utterance id. */
  diaToUtt: Map<string, string>;
  /** Ask Parley in-process with these options instead of over HTTP. */
  options: AgenticOptions | null;
  /** Write one JSON line per question (gold ids, each system's items and scores) to this file (diagnosis on dev). */
  dump?: string;
  /** The options of the "previous defaults" system (`--previous JSON`: a same-run baseline of a change); default `PREVIOUS`. */
  previous?: AgenticOptions;
  /**
   * When a conversation's questions are asked (`--now last-turn`): Parley is then asked in-process with
   * this `now` (POST /v1/query has no such field: it asks as of the server's clock). Unset: the clock.
   */
  nowOf?: (conv: string) => Date;
}

/** An item as judged: the turns it refers to, the words it states and, where it has one, its date (`event_time`). */
export interface Shown { refs: string[]; text: string; eventTime?: string }

/** Answer-level scores of a ranked list: the top item (ans@1), one of the top 3 (ans@3), the top item with its date (ans@1 with date). */
export function answerScores(items: Shown[], answer: string | number): { ans1: number; ans3: number; ans1d: number } {
  const states = items.slice(0, 3).map((i) => statesAnswer(i.text, answer));
  const top = items[0];
  return {
    ans1: states[0] ? 1 : 0, ans3: states.some(Boolean) ? 1 : 0,
    ans1d: top && statesAnswer(top.eventTime ? `${top.text} ${top.eventTime}` : top.text, answer) ? 1 : 0,
  };
}

/** A LoCoMo question as `locomo_qa.jsonl` has it. */
export interface LocomoQa {
  conv_id: string; question: string; answer?: string | number; adversarial_answer?: string; category: number; evidence: string[];
  /** Optional question kind of another set ("who-said", …): reported in a table of its own. */
  kind?: string;
}

/** Parley's answer before the answer layer: turns only, every named participant boosted, validity ignored, no diversity. */
export const BEFORE: AgenticOptions = { factItemWeight: 0, personaItemWeight: 0, validity: false, subjectOnlyBoost: false, stretchCap: 0, addresseeRoles: false, sourceOnce: false };

/**
 * The defaults before the fusion change (docs/BENCHMARKS.md): a question with no parsed subject boosted no named
 * speaker (`subjectFallback` false), and an item told after the time a question names ranked as not holding then
 * (`toldLaterHolds` false).
 */
export const PREVIOUS: AgenticOptions = { subjectFallback: false, toldLaterHolds: false };

const K = 5;
const SYSTEMS = ['parley', 'previous', 'before', 'bm25', 'bm25names', 'hybrid', 'dense'] as const;
type System = (typeof SYSTEMS)[number];
const LABEL: Record<System, string> = {
  parley: 'Parley POST /v1/query (defaults)', previous: 'Parley previous defaults (no subject fallback, items told later not holding then; in-process, same run)', before: 'Parley before (turns only, same run)', bm25: 'baseline: flat BM25 (turns)',
  bm25names: 'baseline: BM25, speaker name + turn', hybrid: 'baseline: BM25 + dense (the text embedder), RRF', dense: 'baseline: flat dense (the text embedder)',
};
/**
 * `ans1d`: ans@1 judged on the top item's text with its `event_time` (the date its words name, resolved against when it
 * was said: "I went yesterday" said on 8 May 2023 carries 2023-05-07), which an agent reading the item sees too; the
 * flat baselines' turns carry no date, so for them it equals ans@1.
 */
const METRICS = ['any', 'all', 'ans1', 'ans3', 'ans1d'] as const;
type Metric = (typeof METRICS)[number];
interface Row { group: '1-4' | '5'; category: number; kind?: string; scores: Record<System, Record<Metric, number>> }

/** Ask every question of every system; print the tables (95 % bootstrap intervals, paired differences). */
export async function runLocomoQuestions(deps: LocomoDeps, qas: LocomoQa[], title: string): Promise<void> {
  const { app, diaToUtt } = deps;
  const textOf = new Map<string, string>();
  for (const conv of deps.convs) {
    for (const t of deps.byConv.get(conv) ?? []) {
      const id = diaToUtt.get(`${conv}|${t.dia_id}`);
      if (id) textOf.set(id, t.text);
    }
  }
  const rows: Row[] = [];
  const latency = new Map<System, number[]>(SYSTEMS.map((s) => [s, []]));
  const rounds: number[] = [];
  const t0 = performance.now();
  for (const q of qas) {
    const gold = q.evidence.map((d) => diaToUtt.get(`${q.conv_id}|${d}`)).filter((x): x is string => x !== undefined);
    if (gold.length === 0) continue;
    const tenant = deps.tenantOf(q.conv_id);
    const answer = q.category === 5 ? (q.adversarial_answer ?? q.answer ?? '') : (q.answer ?? '');
    const vector = (await app.retriever.embedder.embed([q.question]))[0] as Float32Array;
    const turnItems = (ids: string[]): Shown[] => ids.map((id) => ({ refs: [id], text: textOf.get(id) ?? '' }));
    // What an item states: its text and, for a fact, the words of its source turns it carries; its date apart (`ans1d`).
    const fromItems = (items: MemoryItem[]): Shown[] => items.map((i) => ({ refs: i.refer_ids, text: i.source_text ? `${i.text} ${i.source_text}` : i.text,
      ...(i.event_time ? { eventTime: i.event_time } : {}) }));
    const bm25 = async (n: number): Promise<string[]> => (await app.stores.lexical.search(tenant, q.question, n, { layer: 'interaction' })).map((h) => h.id);
    const dense = async (n: number): Promise<string[]> => (await app.stores.vectors.search(tenant, collectionFor('interaction'), vector, n)).map((h) => h.id);
    const input = { question: q.question, k: K, ...(deps.nowOf ? { now: deps.nowOf(q.conv_id) } : {}) };
    const run: Record<System, () => Promise<Shown[]>> = {
      parley: async () => {
        const a = deps.options || deps.nowOf
          ? await answerQuestion(app.retriever, tenant, input, deps.options ?? {})
          : (await deps.client(q.conv_id).query({ question: q.question, k: K })) as { evidence: MemoryItem[]; rounds: number };
        rounds.push(a.rounds);
        return fromItems(a.evidence);
      },
      previous: async () => fromItems((await answerQuestion(app.retriever, tenant, input, deps.previous ?? PREVIOUS)).evidence),
      before: async () => fromItems((await answerQuestion(app.retriever, tenant, input, BEFORE)).evidence),
      bm25: async () => turnItems(await bm25(K)),
      bm25names: async () => turnItems((await app.stores.lexical.search(tenant, q.question, K, { layer: NAMED_LAYER })).map((h) => h.id.slice(NAMED_PREFIX.length))),
      hybrid: async () => turnItems(reciprocalRankFusion([{ ids: await bm25(50) }, { ids: await dense(50) }]).slice(0, K).map((r) => r.id)),
      dense: async () => turnItems(await dense(K)),
    };
    const scores = {} as Row['scores'];
    const shown: Record<string, Shown[]> = {};
    for (const s of SYSTEMS) {
      const started = performance.now();
      const items = await run[s]();
      shown[s] = items;
      latency.get(s)?.push(performance.now() - started);
      const found = new Set(items.flatMap((i) => i.refs));
      scores[s] = { any: gold.some((g) => found.has(g)) ? 1 : 0, all: gold.every((g) => found.has(g)) ? 1 : 0, ...answerScores(items, answer) };
    }
    if (deps.dump) appendFileSync(deps.dump, `${JSON.stringify({ conv: q.conv_id, question: q.question, answer, category: q.category, kind: q.kind, gold, scores, items: shown })}\n`);
    rows.push({ group: q.category === 5 ? '5' : '1-4', category: q.category, ...(q.kind ? { kind: q.kind } : {}), scores });
  }
  report(rows, latency, rounds, title, (performance.now() - t0) / 1000, deps.options, deps.nowOf !== undefined);
}

function report(rows: Row[], latency: Map<System, number[]>, rounds: number[], title: string, seconds: number, options: AgenticOptions | null, lastTurnNow: boolean): void {
  const of = (group: string, s: System, m: Metric): number[] => rows.filter((r) => r.group === group).map((r) => r.scores[s][m]);
  for (const group of ['1-4', '5'] as const) {
    const n = rows.filter((r) => r.group === group).length;
    if (n === 0) continue;
    console.log(`\nLoCoMo ${title}, categories ${group}: ${n} questions (all asked in ${seconds.toFixed(0)} s); mean [95 % bootstrap interval over questions]`);
    if (options) console.log(`Parley asked in-process through answerQuestion with options ${JSON.stringify(options)}`);
    if (lastTurnNow) console.log('--now last-turn: every Parley system asked in-process as of the day after its conversation\'s last turn');
    console.log(`| system | any@${K} | all@${K} | ans@1 | ans@3 | ans@1 with date | query p50 / p95 ms |\n|---|---|---|---|---|---|---|`);
    for (const s of SYSTEMS) {
      const ms = latency.get(s) ?? [];
      const label = s === 'parley' && (options || lastTurnNow) ? `Parley answerQuestion${options ? ' with --options' : ''} (in-process)` : LABEL[s];
      console.log(`| ${label} | ${METRICS.map((m) => pct(bootstrapMean(of(group, s, m)))).join(' | ')} | ${percentile(ms, 50).toFixed(1)} / ${percentile(ms, 95).toFixed(1)} |`);
    }
    console.log(`\nParley − system, paired over the same questions (categories ${group})\n| baseline | any@${K} | all@${K} | ans@1 | ans@3 | ans@1 with date |\n|---|---|---|---|---|---|`);
    for (const s of SYSTEMS.filter((x) => x !== 'parley')) {
      console.log(`| ${LABEL[s]} | ${METRICS.map((m) => pct(bootstrapDelta(of(group, 'parley', m), of(group, s, m)), true)).join(' | ')} |`);
    }
  }
  const CATEGORIES = ['1 multi-hop', '2 temporal', '3 open-domain', '4 single-hop', '5 adversarial'];
  console.log(`\nany@${K} per category\n| system | ${CATEGORIES.join(' | ')} |\n|---|${CATEGORIES.map(() => '---|').join('')}`);
  for (const s of SYSTEMS) {
    console.log(`| ${s} | ${CATEGORIES.map((_, c) => {
      const xs = rows.filter((r) => r.category === c + 1).map((r) => r.scores[s].any);
      return xs.length ? `${((100 * xs.reduce((a, b) => a + b, 0)) / xs.length).toFixed(1)} % (n ${xs.length})` : 'n/a';
    }).join(' | ')} |`);
  }
  const kinds = [...new Set(rows.flatMap((r) => (r.kind ? [r.kind] : [])))].sort();
  if (kinds.length > 0) {
    console.log(`\nany@${K} / all@${K} per question kind\n| system | ${kinds.map((k) => `${k} (n ${rows.filter((r) => r.kind === k).length})`).join(' | ')} |\n|---|${kinds.map(() => '---|').join('')}`);
    for (const s of SYSTEMS) {
      console.log(`| ${s} | ${kinds.map((k) => {
        const of = rows.filter((r) => r.kind === k);
        const mean = (m: Metric): string => ((100 * of.reduce((a, r) => a + r.scores[s][m], 0)) / of.length).toFixed(1);
        return `${mean('any')} / ${mean('all')} %`;
      }).join(' | ')} |`);
    }
  }
  const mean = rounds.reduce((a, b) => a + b, 0) / Math.max(1, rounds.length);
  console.log(`\nParley agentic rounds per question: mean ${mean.toFixed(2)}; latency: Parley = POST /v1/query round trip (or the in-process call with --options), before = in-process call, baselines = bare store calls`);
}
