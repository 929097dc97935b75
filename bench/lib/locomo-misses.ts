import { appendFileSync } from 'node:fs';
import type { Utterance } from '../../graph/types.js';
import { collectionFor } from '../../pipelines/memory/collections.js';
import { answerQuestion, type AgenticOptions } from '../../pipelines/retrieval/agentic-query.js';
import type { LocomoDeps, LocomoQa } from './locomo-systems.js';

/** Where one gold turn ranked: in Parley's answer asked for `DEEP` items, in flat BM25 and in flat dense (null: below `DEEP`). */
interface GoldRank { id: string; session: string; speaker: string; parley: number | null; bm25: number | null; dense: number | null }

/** Why a question's evidence is not all in the top 5. */
export type MissCategory =
  | 'hit' | 'near (all gold in Parley 6–15)' | 'deep (a gold in Parley 16–50)' | 'lost (in a flat list top 20, not in Parley 50)'
  | 'unfound (no list ranks it in 20)' | 'multi: part found, rest ranked 6–50' | 'multi: part found, rest lost or unfound';

const DEEP = 50;

/** The category of a question from its gold turns' ranks (1-based; null: not in the first `DEEP`). */
export function missCategory(ranks: readonly GoldRank[]): MissCategory {
  const inTop = (r: number | null, n: number): boolean => r !== null && r <= n;
  const found = ranks.filter((g) => inTop(g.parley, 5));
  if (found.length === ranks.length) return 'hit';
  const rest = ranks.filter((g) => !inTop(g.parley, 5));
  if (found.length > 0) return rest.every((g) => g.parley !== null) ? 'multi: part found, rest ranked 6–50' : 'multi: part found, rest lost or unfound';
  const best = Math.min(...ranks.map((g) => g.parley ?? Infinity));
  if (best <= 15) return 'near (all gold in Parley 6–15)';
  if (best <= DEEP) return 'deep (a gold in Parley 16–50)';
  return ranks.some((g) => inTop(g.bm25, 20) || inTop(g.dense, 20)) ? 'lost (in a flat list top 20, not in Parley 50)' : 'unfound (no list ranks it in 20)';
}

/**
 * Miss diagnosis (`--misses FILE`, dev only): for every question of categories 1–4, Parley's answer asked
 * for `DEEP` items with `options` (the first 5 are the answer at k = 5 up to ties in the memory layer's fusion),
 * each gold turn's rank there, in flat BM25 and in flat dense (top `DEEP`), its session and speaker, what
 * outranked it (the top 5 items' layer and speaker), and a category (`missCategory`). Writes one JSON line per
 * question to `file` and prints the table of categories, per LoCoMo category and all together.
 */
export async function runLocomoMisses(deps: LocomoDeps, qas: LocomoQa[], options: AgenticOptions, file: string): Promise<void> {
  const { app } = deps;
  const table = new Map<string, Map<MissCategory, number>>();
  const count = (cat: string, m: MissCategory): void => {
    const row = table.get(cat) ?? new Map<MissCategory, number>();
    row.set(m, (row.get(m) ?? 0) + 1);
    table.set(cat, row);
  };
  for (const q of qas.filter((x) => x.category >= 1 && x.category <= 4)) {
    const gold = q.evidence.map((d) => deps.diaToUtt.get(`${q.conv_id}|${d}`)).filter((x): x is string => x !== undefined);
    if (gold.length === 0) continue;
    const tenant = deps.tenantOf(q.conv_id);
    const a = await answerQuestion(app.retriever, tenant, { question: q.question, k: DEEP, ...(deps.nowOf ? { now: deps.nowOf(q.conv_id) } : {}) }, options);
    const bm25 = (await app.stores.lexical.search(tenant, q.question, DEEP, { layer: 'interaction' })).map((h) => h.id);
    const vector = (await app.retriever.embedder.embed([q.question]))[0] as Float32Array;
    const dense = (await app.stores.vectors.search(tenant, collectionFor('interaction'), vector, DEEP)).map((h) => h.id);
    const rankIn = (ids: readonly string[], id: string): number | null => (ids.indexOf(id) >= 0 ? ids.indexOf(id) + 1 : null);
    const parleyRank = (id: string): number | null => {
      const i = a.evidence.findIndex((e) => e.refer_ids.includes(id));
      return i >= 0 ? i + 1 : null;
    };
    const turns = new Map((await app.stores.graph.getUtterances(tenant, gold)).map((u: Utterance) => [u.id, u]));
    const ranks: GoldRank[] = gold.map((id) => ({
      id, session: turns.get(id)?.sessionId ?? '', speaker: turns.get(id)?.speakerId ?? '', parley: parleyRank(id), bm25: rankIn(bm25, id), dense: rankIn(dense, id),
    }));
    const category = missCategory(ranks);
    count(String(q.category), category);
    count('1–4', category);
    const top = a.evidence.slice(0, 5).map((e) => ({ layer: e.layer, speaker: e.speaker?.name ?? e.speaker?.id ?? null, text: e.text.slice(0, 120), refs: e.refer_ids }));
    appendFileSync(file, `${JSON.stringify({
      conv: q.conv_id, question: q.question, answer: q.answer, category: q.category, miss: category,
      sessions: new Set(ranks.map((r) => r.session)).size, ranks, top,
    })}\n`);
  }
  const kinds: MissCategory[] = ['hit', 'near (all gold in Parley 6–15)', 'deep (a gold in Parley 16–50)', 'lost (in a flat list top 20, not in Parley 50)',
    'unfound (no list ranks it in 20)', 'multi: part found, rest ranked 6–50', 'multi: part found, rest lost or unfound'];
  console.log(`\nMisses of Parley ${JSON.stringify(options)} (categories 1–4; counts of questions)\n| LoCoMo category | n | ${kinds.join(' | ')} |\n|---|---|${kinds.map(() => '---|').join('')}`);
  for (const cat of ['1', '2', '3', '4', '1–4']) {
    const row = table.get(cat);
    if (!row) continue;
    const n = [...row.values()].reduce((s, v) => s + v, 0);
    console.log(`| ${cat} | ${n} | ${kinds.map((k) => String(row.get(k) ?? 0)).join(' | ')} |`);
  }
}
