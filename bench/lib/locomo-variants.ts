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
 * reference. Only Parley variants are asked (no baselines): for choosing options on conversations 1–5.
 */
export async function runLocomoVariants(deps: LocomoDeps, qas: LocomoQa[], variants: Record<string, AgenticOptions>, title: string): Promise<void> {
  const names = Object.keys(variants);
  const rows: { category: number; scores: Record<string, Scores> }[] = [];
  for (const q of qas) {
    const gold = q.evidence.map((d) => deps.diaToUtt.get(`${q.conv_id}|${d}`)).filter((x): x is string => x !== undefined);
    if (gold.length === 0) continue;
    const answer = q.category === 5 ? (q.adversarial_answer ?? q.answer ?? '') : (q.answer ?? '');
    const scores: Record<string, Scores> = {};
    const shown: Record<string, { refs: string[]; text: string; layer: string }[]> = {};
    for (const name of names) {
      const a = await answerQuestion(deps.app.retriever, deps.tenantOf(q.conv_id), { question: q.question, k: 5 }, variants[name]);
      const items = a.evidence.map((i: MemoryItem) => ({ refs: i.refer_ids, text: i.source_text ? `${i.text} ${i.source_text}` : i.text, layer: i.layer }));
      shown[name] = items;
      const found = new Set(items.flatMap((i) => i.refs));
      const states = items.map((i) => statesAnswer(i.text, answer));
      scores[name] = {
        any: gold.some((g) => found.has(g)) ? 1 : 0, all: gold.every((g) => found.has(g)) ? 1 : 0,
        ans1: states[0] ? 1 : 0, ans3: states.slice(0, 3).some(Boolean) ? 1 : 0,
      };
    }
    if (deps.dump) appendFileSync(deps.dump, `${JSON.stringify({ conv: q.conv_id, question: q.question, answer, category: q.category, gold, scores, items: shown })}\n`);
    rows.push({ category: q.category, scores });
  }
  const of = (cats: number[], v: string, m: keyof Scores): number[] => rows.filter((r) => cats.includes(r.category)).map((r) => r.scores[v]![m]);
  const ref = names[0] as string;
  console.log(`\nLoCoMo ${title}: variants asked in-process (reference: ${ref}); categories 1–4 n ${of([1, 2, 3, 4], ref, 'any').length}, category 5 n ${of([5], ref, 'any').length}`);
  console.log('| variant | any@5 | all@5 | ans@1 | ans@3 | cat 5 any@5 |\n|---|---|---|---|---|---|');
  for (const v of names) {
    const cells = (['any', 'all', 'ans1', 'ans3'] as const).map((m) => {
      const d = v === ref ? '' : ` (${pct(bootstrapDelta(of([1, 2, 3, 4], v, m), of([1, 2, 3, 4], ref, m)), true)})`;
      return `${pct(bootstrapMean(of([1, 2, 3, 4], v, m)))}${d}`;
    });
    const c5 = `${pct(bootstrapMean(of([5], v, 'any')))}${v === ref ? '' : ` (${pct(bootstrapDelta(of([5], v, 'any'), of([5], ref, 'any')), true)})`}`;
    console.log(`| ${v} \`${JSON.stringify(variants[v])}\` | ${cells.join(' | ')} | ${c5} |`);
  }
}
