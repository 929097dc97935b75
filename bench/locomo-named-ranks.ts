/**
 * Diagnosis of questions that name a person (LoCoMo dev split only: conversations 1–5): where each
 * question's gold turn ranks at each stage of the agentic loop's round 1 (BM25 over all turns, BM25
 * filtered to the named subject, BM25 over facts, dense; then their RRF fusion, the subject's searches weighted as
 * the loop weights them), in Parley's final
 * evidence, and in flat BM25, and who holds the top evidence item when the gold is not first.
 * Questions whose gold turns are all spoken by someone other than the named subject (LoCoMo
 * category 5 mostly) are counted apart from those where the subject spoke a gold turn.
 * Reads a store built by `node dist/bench/retrieval-locomo.js --split dev --ingest-only --store DIR`.
 *
 *   npm run bench:locomo-named-ranks -- --store DIR [--categories 5] [--options JSON] [--examples N]
 *
 * Every question is asked as of the day after its conversation's last turn (as `--now last-turn`).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pino } from 'pino';
import type { Utterance } from '../graph/types.js';
import { answerQuestion, subjectSearchFactors, type AgenticOptions } from '../pipelines/retrieval/agentic-query.js';
import { roundActions } from '../pipelines/retrieval/question-policy.js';
import { rewriteQuestion, tokens } from '../pipelines/retrieval/question-rewrite.js';
import { runAction, type ActionContext } from '../pipelines/retrieval/question-tools.js';
import { reciprocalRankFusion } from '../pipelines/retrieval/rrf.js';
import { timeScope } from '../pipelines/retrieval/time-scope.js';
import { buildApp } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { statesAnswer } from './lib/answer-match.js';
import { loadLocomoTurns, locomoTime, sharedDataDir } from './lib/locomo.js';
import type { LocomoQa } from './lib/locomo-systems.js';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const store = arg('store');
if (!store || !existsSync(path.join(store, 'locomo-ids.json'))) throw new Error('--store DIR is required: a dev store built with retrieval-locomo --ingest-only');
const stored = JSON.parse(readFileSync(path.join(store, 'locomo-ids.json'), 'utf8')) as { conversations: string[]; ids: Record<string, string> };
const byConv = loadLocomoTurns();
if (!byConv) process.exit(0);
const dev = [...byConv.keys()].slice(0, 5);
if (!stored.conversations.every((c) => dev.includes(c))) throw new Error(`${store} holds ${stored.conversations.join(', ')}: this diagnosis reads the dev split (conversations 1–5) only`);
const categories = (arg('categories') ?? '5').split(',').map(Number);
const options = JSON.parse(arg('options') ?? '{}') as AgenticOptions;
const examples = Number(arg('examples') ?? 0);
const tenantOf = (conv: string): string => conv.replace(/[^A-Za-z0-9_-]/g, '_');
const qas = readFileSync(path.join(sharedDataDir(), 'locomo', 'locomo_qa.jsonl'), 'utf8').split('\n').filter(Boolean)
  .map((l) => JSON.parse(l) as LocomoQa).filter((q) => stored.conversations.includes(q.conv_id) && categories.includes(q.category));
const config = loadConfig({
  DATA_DIR: path.resolve(store), PORT: '0', LOG_LEVEL: 'silent',
  PARLEY_API_KEYS: stored.conversations.map((c) => `benchkey_${tenantOf(c)}:${tenantOf(c)}`).join(','),
});
const app = await buildApp(config, { logger: pino({ level: 'silent' }) });
const { graph } = app.stores;

/** 1-based rank of the first gold id in `ids`, or 0 when absent. */
const rankOf = (ids: readonly string[], gold: ReadonlySet<string>): number => ids.findIndex((id) => gold.has(id)) + 1;
const bucket = (r: number): string => (r === 0 ? 'absent' : r === 1 ? '1' : r <= 5 ? '2–5' : r <= 20 ? '6–20' : '>20');
const BUCKETS = ['1', '2–5', '6–20', '>20', 'absent'];
const tally = new Map<string, Map<string, number>>();
const count = (group: string, stage: string, r: number): void => {
  const key = `${group}\u0000${stage}`;
  const m = tally.get(key) ?? new Map<string, number>();
  m.set(bucket(r), (m.get(bucket(r)) ?? 0) + 1);
  tally.set(key, m);
};
const top1 = new Map<string, number>();
const groups = new Map<string, number>();
let shown = 0;

for (const q of qas) {
  const gold = new Set(q.evidence.map((d) => stored.ids[`${q.conv_id}|${d}`]).filter((x): x is string => x !== undefined));
  if (gold.size === 0) continue;
  const tenant = tenantOf(q.conv_id);
  const last = Math.max(...(byConv.get(q.conv_id) ?? []).map((t) => Date.parse(locomoTime(t.session_date_time))));
  const now = new Date(last + 24 * 3600 * 1000);
  const asked = timeScope(q.question, now)?.rest ?? q.question;
  const rewritten = rewriteQuestion(asked, await graph.findParticipantsByWords(tenant, tokens(asked)));
  if (rewritten.subjectIds.length === 0) continue;
  const goldTurns = await graph.getUtterances(tenant, [...gold]);
  const group = goldTurns.some((u) => rewritten.subjectIds.includes(u.speakerId)) ? 'subject spoke a gold turn' : 'gold by another speaker';
  groups.set(group, (groups.get(group) ?? 0) + 1);
  const ctx: ActionContext = { retriever: app.retriever, tenant, filters: {}, question: q.question, askerId: null, depth: 40, poolSize: 0, timePool: [] };
  const actions = roundActions(1, rewritten, [], [], {}, options, false, []);
  const lists = await Promise.all(actions.map((a) => runAction(ctx, a)));
  actions.forEach((a, i) => count(group, `round 1 ${a.tool}${a.layer === 'fact' ? ' facts' : ''}${a.speakerId ? ' (subject)' : a.addresseeId ? ' (addressee)' : ''}`, rankOf(lists[i]?.ids ?? [], gold)));
  // The subject's searches weighted as the loop weights them (`namedSearchMatch`, `namedMatchPower`).
  const read = await graph.getUtterances(tenant, [...new Set(lists.flatMap((l) => l.ids.slice(0, options.namedSearchDepth ?? 20)))]);
  const factors = rewritten.terms.length === 0 ? new Map<string, number>()
    : subjectSearchFactors(read, rewritten.subjectIds, rewritten.terms, options.namedSearchMatch ?? 1, options.namedMatchPower ?? 3);
  const weighted = lists.map((l, i) => ({ ...l, weight: (l.weight ?? 1) * (factors.get(actions[i]?.speakerId ?? '') ?? 1) }));
  count(group, 'round 1 fused (RRF)', rankOf(reciprocalRankFusion(weighted, options.rrfK ?? 5).map((r) => r.id), gold));
  const answer = await answerQuestion(app.retriever, tenant, { question: q.question, k: 10, now }, options);
  const evidence = answer.evidence.map((e) => e.refer_ids);
  const finalRank = evidence.findIndex((refs) => refs.some((id) => gold.has(id))) + 1;
  count(group, 'final evidence (k 10)', finalRank);
  const bm25 = (await app.stores.lexical.search(tenant, q.question, 40, { layer: 'interaction' })).map((h) => h.id);
  count(group, 'flat BM25', rankOf(bm25, gold));
  if (finalRank !== 1 && answer.evidence[0]) {
    const head = answer.evidence[0];
    const [turn] = head.layer === 'interaction' ? await graph.getUtterances(tenant, [head.id]) : [];
    const by = turn ? (rewritten.subjectIds.includes(turn.speakerId) ? 'turn by the named subject' : 'turn by another speaker') : `${head.layer} item`;
    const asks = turn && turn.text.trim().endsWith('?') ? ', a question' : '';
    top1.set(`${group}: ${by}${asks}`, (top1.get(`${group}: ${by}${asks}`) ?? 0) + 1);
    if (shown < examples && group === 'gold by another speaker') {
      shown++;
      const name = async (u: Utterance | undefined): Promise<string> => (u ? (await graph.getParticipant(tenant, u.speakerId))?.name ?? u.speakerId : '?');
      console.log(`\n${q.question} [gold rank ${finalRank || '-'}; flat BM25 ${rankOf(bm25, gold) || '-'}; answer ${String(q.adversarial_answer ?? q.answer)}]`);
      console.log(`  top 1 (${head.layer}${turn ? `, ${await name(turn)}` : ''}): ${head.text.slice(0, 160)} ${statesAnswer(head.text, q.adversarial_answer ?? q.answer ?? '') ? '[states answer]' : ''}`);
      for (const g of goldTurns) console.log(`  gold (${await name(g)}): ${g.text.slice(0, 160)}`);
    }
  }
}

console.log(`\nLoCoMo dev, categories ${categories.join(', ')}, questions naming a subject: ${[...groups].map(([g, n]) => `${g} n ${n}`).join('; ')}; options ${JSON.stringify(options)}`);
console.log(`| group | stage | ${BUCKETS.join(' | ')} |\n|---|---|${BUCKETS.map(() => '---|').join('')}`);
for (const [key, m] of tally) {
  const [group, stage] = key.split('\u0000');
  console.log(`| ${group} | ${stage} | ${BUCKETS.map((b) => m.get(b) ?? 0).join(' | ')} |`);
}
console.log('\nTop evidence item when the gold is not first\n| holder | questions |\n|---|---|');
for (const [k, n] of [...top1].sort()) console.log(`| ${k} | ${n} |`);
await app.close();
