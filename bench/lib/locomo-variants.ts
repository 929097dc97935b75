import { appendFileSync } from 'node:fs';
import type { MemoryItem } from '../../graph/core/events.js';
import { answerQuestion, type AgenticOptions } from '../../pipelines/retrieval/agentic-query.js';
import { statesAnswer } from './answer-match.js';
import { bootstrapDelta, bootstrapMean, pct } from './bootstrap.js';
import type { LocomoDeps, LocomoQa } from './locomo-systems.js';

/** Scores of one question under one variant. */
interface Scores { any: number; all: number; ans1: number; ans3: number }

/**
 * Dev-split tuning (`--variants FILE`): ask every question in-process through `answerQuestion` with
 * each named set of options (the first is the reference) and print, per variant, any@5 / all@5 /
 * ans@1 / ans@3 on categories 1–4 and any@5 on category 5, each with its paired difference from the
 * reference, then the same-run flat BM25 over turns (the margin), and any@5 / all@5 per question
 * `kind` where the set has kinds. For choosing options on conversations 1–5 or a development set.
 */
export async function runLocomoVariants(deps: LocomoDeps, qas: LocomoQa[], variants: Record<string, AgenticOptions>, title: string): Promise<void> {
  const names = Object.keys(variants);
  const rows: { category: number; kind?: string; scores: Record<string, Scores> }[] = [];
  const BM25 = 'baseline: flat BM25 (turns)';
  for (const q of qas) {
    const gold = q.evidence.map((d) => deps.diaToUtt.get(`${q.conv_id}|${d}`)).filter((x): x is string => x !== undefined);
    if (gold.length === 0) continue;
    const answer = q.category === 5 ? (q.adversarial_answer ?? q.answer ?? '') : (q.answer ?? '');
    const scores: Record<string, Scores> = {};
    const shown: Record<string, { refs: string[]; text: string; layer: string }[]> = {};
    for (const name of names) {
      const a = await answerQuestion(deps.app.retriever, deps.tenantOf(q.conv_id), { question: q.question, k: 5, ...(deps.nowOf ? { now: deps.nowOf(q.conv_id) } : {}) }, variants[name]);
      const items = a.evidence.map((i: MemoryItem) => ({ refs: i.refer_ids, text: i.source_text ? `${i.text} ${i.source_text}` : i.text, layer: i.layer }));
      shown[name] = items;
      const found = new Set(items.flatMap((i) => i.refs));
      const states = items.map((i) => statesAnswer(i.text, answer));
      scores[name] = {
        any: gold.some((g) => found.has(g)) ? 1 : 0, all: gold.every((g) => found.has(g)) ? 1 : 0,
        ans1: states[0] ? 1 : 0, ans3: states.slice(0, 3).some(Boolean) ? 1 : 0,
      };
    }
    // The same-run flat BM25 over turns, for the margin (not a variant: no options).
    const hits = await deps.app.stores.lexical.search(deps.tenantOf(q.conv_id), q.question, 5, { layer: 'interaction' });
    const bm25 = await deps.app.stores.graph.getUtterances(deps.tenantOf(q.conv_id), hits.map((h) => h.id));
    const bm25Text = new Map(bm25.map((u) => [u.id, u.text]));
    const bm25States = hits.map((h) => statesAnswer(bm25Text.get(h.id) ?? '', answer));
    scores[BM25] = {
      any: gold.some((g) => hits.some((h) => h.id === g)) ? 1 : 0, all: gold.every((g) => hits.some((h) => h.id === g)) ? 1 : 0,
      ans1: bm25States[0] ? 1 : 0, ans3: bm25States.slice(0, 3).some(Boolean) ? 1 : 0,
    };
    shown[BM25] = hits.map((h) => ({ refs: [h.id], text: bm25Text.get(h.id) ?? '', layer: 'interaction' }));
    if (deps.dump) appendFileSync(deps.dump, `${JSON.stringify({ conv: q.conv_id, question: q.question, answer, category: q.category, kind: q.kind, gold, scores, items: shown })}\n`);
    rows.push({ category: q.category, ...(q.kind ? { kind: q.kind } : {}), scores });
  }
  const of = (cats: number[], v: string, m: keyof Scores): number[] => rows.filter((r) => cats.includes(r.category)).map((r) => r.scores[v]![m]);
  const ref = names[0] as string;
  console.log(`\nLoCoMo ${title}: variants asked in-process (reference: ${ref}); categories 1–4 n ${of([1, 2, 3, 4], ref, 'any').length}, category 5 n ${of([5], ref, 'any').length}`);
  console.log('| variant | any@5 | all@5 | ans@1 | ans@3 | cat 5 any@5 |\n|---|---|---|---|---|---|');
  for (const v of [...names, BM25]) {
    const cells = (['any', 'all', 'ans1', 'ans3'] as const).map((m) => {
      const d = v === ref ? '' : ` (${pct(bootstrapDelta(of([1, 2, 3, 4], v, m), of([1, 2, 3, 4], ref, m)), true)})`;
      return `${pct(bootstrapMean(of([1, 2, 3, 4], v, m)))}${d}`;
    });
    const c5 = of([5], v, 'any').length === 0 ? '–'
      : `${pct(bootstrapMean(of([5], v, 'any')))}${v === ref ? '' : ` (${pct(bootstrapDelta(of([5], v, 'any'), of([5], ref, 'any')), true)})`}`;
    console.log(`| ${v}${v === BM25 ? '' : ` \`${JSON.stringify(variants[v])}\``} | ${cells.join(' | ')} | ${c5} |`);
  }
  const kinds = [...new Set(rows.flatMap((r) => (r.kind ? [r.kind] : [])))].sort();
  if (kinds.length > 0) {
    const count = (k: string): number => rows.filter((r) => r.kind === k).length;
    console.log(`\nany@5 / all@5 per question kind\n| variant | ${kinds.map((k) => `${k} (n ${count(k)})`).join(' | ')} |\n|---|${kinds.map(() => '---|').join('')}`);
    for (const v of [...names, BM25]) {
      const mean = (k: string, m: keyof Scores): string => ((100 * rows.filter((r) => r.kind === k).reduce((a, r) => a + r.scores[v]![m], 0)) / count(k)).toFixed(1);
      console.log(`| ${v} | ${kinds.map((k) => `${mean(k, 'any')} / ${mean(k, 'all')} %`).join(' | ')} |`);
    }
  }
}
