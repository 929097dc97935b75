/**
 * Does an item's `relevance` tell "memory knows" from "memory has nothing", across questions? LoCoMo DEV only
 * (conversations 1–5; 6–10 are never read). Positives: questions of categories 1–4 asked of their own conversation's
 * store whose top item is a gold turn or an item drawn from one. Negatives: the same questions asked of the NEXT
 * conversation's store (unanswerable by construction), and apart, category 5 (adversarial) asked of their own store.
 * Reports AUROC of the top item's `relevance` against the top item's `score` (the baseline: it orders one answer only),
 * each with a stratified bootstrap 95 % interval and the paired difference; the logistic weights (`--fit`) and the
 * threshold that best separates (balanced accuracy) are chosen on conversations 1–3, both kinds of negative pooled, and
 * reported on 4–5.
 * The topic gate of `answerable` (`topicMatched`: some item shares the question's topic words or comes close in meaning)
 * is reported at the shipped threshold, with and without it (paired), on 1–5; `--topic-grid` prints each pair of bars on
 * 1–5 (for choosing them). `--held-out` reads a test store (conversations 6–10, built once with `--split test
 * --ingest-only`) and reports only the shipped threshold and bars, with and without the gate: nothing is chosen there.
 * Run: node dist/bench/relevance.js --store DIR [--per-conv N] [--rows FILE] [--held-out] | --from FILE [--fit] [--topic-grid]
 * `--store DIR`: a dev store built once with `node dist/bench/retrieval-locomo.js --split dev --ingest-only --store DIR`
 * (asked in-process with the default options; nothing is written to it). `--rows FILE` keeps one JSON line per question
 * asked (signals, relevance, score, gold hit); `--from FILE` reads such a file instead of asking (relevance is recomputed
 * from the signals with the current weights). `--fit` fits the logistic weights on conversations 1–3 and prints them.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pino } from 'pino';
import { MemoryEventBus } from '../graph/memory-event-bus.js';
import { answerQuestion } from '../pipelines/retrieval/agentic-query.js';
import { ANSWERABLE_RELEVANCE, DEFAULT_TOPIC_BARS, relevance, topicMatched, type RelevanceSignals, type TopicBars } from '../pipelines/retrieval/relevance.js';
import { buildApp } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { auroc, bootstrapStat, fitLogistic, fmt } from './lib/auroc.js';
import { sharedDataDir } from './lib/locomo.js';
import type { LocomoQa } from './lib/locomo-systems.js';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

/** One question asked of one store: its top item's figures. */
interface Row {
  conv: number; category: number; asked: 'own' | 'other' | 'adversarial'; hit: boolean;
  score: number | null; relevance: number | null; signals: RelevanceSignals | null;
  /** Every item's topic signals (`topicLexical`, `topicDense`): the topic gate is recomputed from them. */
  topics?: Pick<RelevanceSignals, 'topicLexical' | 'topicDense'>[];
}

const from = arg('from');
const rows = from ? readFileSync(from, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Row) : await ask();
if (process.argv.includes('--held-out')) gateReport(rows, [1, 2, 3, 4, 5], 'held-out conversations 6–10');
else {
  analyse(rows);
  gateReport(rows, [1, 2, 3, 4, 5], 'dev conversations 1–5');
  if (process.argv.includes('--topic-grid')) topicGrid(rows);
}

/** The served decision: the top item reaches the threshold and (bars given) some item shares the question's topic. */
function decides(r: Row, bars: TopicBars | null): boolean {
  const rel = r.signals ? relevance(r.signals) : 0;
  if (rel < ANSWERABLE_RELEVANCE) return false;
  return bars === null || !r.topics || topicMatched(r.topics.map((t) => ({ lexical: 0, dense: null, named: 0, ...t })), bars);
}

/** Share of answerable questions kept, of each negative flagged, and balanced accuracy; the gate against none, paired. */
function gateReport(all: Row[], convs: number[], title: string): void {
  const pos = (r: Row): boolean => r.asked === 'own' && r.hit;
  console.log(`\n${title}: answerable at relevance >= ${ANSWERABLE_RELEVANCE}, topic gate ${JSON.stringify(DEFAULT_TOPIC_BARS)} against none (95 % stratified bootstrap, paired)`);
  console.log('| negatives | pos / neg | kept (no gate) | kept (gate) | flagged (no gate) | flagged (gate) | balanced (no gate) | balanced (gate) | gate − none |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const neg of ['adversarial', 'other'] as const) {
    const rs = all.filter((r) => convs.includes(r.conv) && (pos(r) || r.asked === neg));
    const on = rs.map((r) => (decides(r, DEFAULT_TOPIC_BARS) ? 1 : 0));
    const off = rs.map((r) => (decides(r, null) ? 1 : 0));
    const bal = (p: number[], n: number[]): number => (p.filter((v) => v === 1).length / p.length + n.filter((v) => v === 0).length / n.length) / 2;
    const ci = bootstrapStat([on, off], rs.map(pos), bal);
    const share = (xs: number[], sel: boolean, v: number): string => {
      const sub = xs.filter((_, i) => pos(rs[i]!) === sel);
      return `${(100 * sub.filter((x) => x === v).length / sub.length).toFixed(1)} %`;
    };
    console.log(`| ${neg === 'adversarial' ? 'category 5' : 'other conversation'} | ${rs.filter(pos).length} / ${rs.filter((r) => !pos(r)).length} | ${share(off, true, 1)} | ${share(on, true, 1)} | `
      + `${share(off, false, 0)} | ${share(on, false, 0)} | ${fmt(ci.each[1]!)} | ${fmt(ci.each[0]!)} | ${fmt(ci.delta, true)} |`);
  }
}

/** Every pair of bars on conversations 1–5: category-5 balanced accuracy and the answerable questions kept. */
function topicGrid(all: Row[]): void {
  const pos = (r: Row): boolean => r.asked === 'own' && r.hit;
  const rs = all.filter((r) => pos(r) || r.asked === 'adversarial');
  const others = all.filter((r) => pos(r) || r.asked === 'other');
  const bal = (xs: Row[], bars: TopicBars | null): { kept: number; flagged: number; b: number } => {
    const p = xs.filter(pos);
    const n = xs.filter((r) => !pos(r));
    const kept = p.filter((r) => decides(r, bars)).length / p.length;
    const flagged = n.filter((r) => !decides(r, bars)).length / n.length;
    return { kept, flagged, b: (kept + flagged) / 2 };
  };
  const none = bal(rs, null);
  console.log(`\ntopic grid, conversations 1–5, category 5: no gate kept ${(100 * none.kept).toFixed(1)} %, flagged ${(100 * none.flagged).toFixed(1)} %, balanced ${none.b.toFixed(3)}`);
  console.log('| lexical bar | dense bar | kept | cat-5 flagged | cat-5 balanced | other-conv balanced |');
  console.log('|---|---|---|---|---|---|');
  for (const lexical of [0.01, 0.34, 0.5, 0.67, 1, 2]) {
    for (const dense of [0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 2]) {
      const g = bal(rs, { lexical, dense });
      const o = bal(others, { lexical, dense });
      console.log(`| ${lexical} | ${dense} | ${(100 * g.kept).toFixed(1)} % | ${(100 * g.flagged).toFixed(1)} % | ${g.b.toFixed(3)} | ${o.b.toFixed(3)} |`);
    }
  }
}

async function ask(): Promise<Row[]> {
  const store = arg('store');
  if (!store || !existsSync(path.join(store, 'locomo-ids.json'))) throw new Error('--store DIR: a dev store built by retrieval-locomo.js --split dev --ingest-only');
  const stored = JSON.parse(readFileSync(path.join(store, 'locomo-ids.json'), 'utf8')) as { conversations: string[]; ids: Record<string, string> };
  const convs = stored.conversations.slice(0, 5);
  // Dev unless `--held-out`: LoCoMo's first five conversations (in the QA file's order) are dev, the next five held out.
  const order = [...new Set(readFileSync(path.join(sharedDataDir(), 'locomo', 'locomo_qa.jsonl'), 'utf8').split('\n').filter(Boolean)
    .map((l) => (JSON.parse(l) as LocomoQa).conv_id))];
  const heldOut = convs.some((c) => !order.slice(0, 5).includes(c));
  if (heldOut !== process.argv.includes('--held-out')) {
    throw new Error(heldOut ? `${store} holds held-out conversations: pass --held-out (reports only, chooses nothing)` : '--held-out needs a test store (conversations 6–10)');
  }
  if (convs.length < 2) throw new Error(`${store} holds ${convs.length} conversation(s): negatives need another`);
  const tenantOf = (conv: string): string => conv.replace(/[^A-Za-z0-9_-]/g, '_');
  const perConv = Number(arg('per-conv') ?? Infinity);
  const qas = readFileSync(path.join(sharedDataDir(), 'locomo', 'locomo_qa.jsonl'), 'utf8').split('\n').filter(Boolean)
    .map((l) => JSON.parse(l) as LocomoQa).filter((q) => convs.includes(q.conv_id));
  const config = loadConfig({ DATA_DIR: path.resolve(store), PORT: '0', LOG_LEVEL: 'silent', PARLEY_RUN_JOBS: 'false' });
  const app = await buildApp(config, { logger: pino({ level: 'silent' }), events: new MemoryEventBus() });
  const out: Row[] = [];
  const file = arg('rows');
  if (file) writeFileSync(file, '');
  const t0 = performance.now();
  try {
    for (const [ci, conv] of convs.entries()) {
      const other = convs[(ci + 1) % convs.length]!;
      const mine = qas.filter((q) => q.conv_id === conv);
      const questions = [...mine.filter((q) => q.category <= 4).slice(0, perConv), ...mine.filter((q) => q.category === 5).slice(0, perConv)];
      for (const q of questions) {
        const gold = new Set(q.evidence.map((d) => stored.ids[`${conv}|${d}`]).filter((x): x is string => x !== undefined));
        const top = async (tenant: string): Promise<Omit<Row, 'conv' | 'category' | 'asked' | 'hit'> & { refs: string[] }> => {
          let signals: RelevanceSignals | null = null;
          let topics: Row['topics'] = [];
          const a = await answerQuestion(app.retriever, tenant, { question: q.question, k: 5 }, {
            onRelevanceSignals: (s) => { signals = s[0] ?? null; topics = s.map((x) => ({ topicLexical: x.topicLexical ?? null, topicDense: x.topicDense ?? null })); },
          });
          const item = a.evidence[0];
          return { score: item?.score ?? null, relevance: item?.relevance ?? null, signals, topics, refs: item?.refer_ids ?? [] };
        };
        const asked: [Row['asked'], string][] = q.category === 5 ? [['adversarial', conv]] : [['own', conv], ['other', other]];
        for (const [kind, c] of asked) {
          const { refs, ...t } = await top(tenantOf(c));
          const row: Row = { conv: ci + 1, category: q.category, asked: kind, hit: kind === 'own' && refs.some((r) => gold.has(r)), ...t };
          out.push(row);
          if (file) writeFileSync(file, `${JSON.stringify(row)}\n`, { flag: 'a' });
        }
      }
      console.log(`conversation ${ci + 1} (${conv}) asked, ${out.length} rows, ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    }
  } finally {
    await app.close();
  }
  return out;
}

function analyse(all: Row[]): void {
  // Relevance from the signals with the current weights (what the server serves now); no item: nothing known.
  const rel = (r: Row): number => (r.signals ? relevance(r.signals) : 0);
  const score = (r: Row): number => r.score ?? 0;
  const pos = (r: Row): boolean => r.asked === 'own' && r.hit;
  const own = (r: Row): boolean => r.asked === 'own' && r.hit;
  const missed = all.filter((r) => r.asked === 'own' && !r.hit).length;
  console.log(`rows: ${all.length}; positives (top item gold) ${all.filter(pos).length}; own questions whose top item missed gold (left out) ${missed}; `
    + `negatives asked of another conversation ${all.filter((r) => r.asked === 'other').length}; adversarial (category 5) ${all.filter((r) => r.asked === 'adversarial').length}`);
  const table = (title: string, rs: Row[]): void => {
    const s = bootstrapStat([rs.map(rel), rs.map(score)], rs.map(pos), auroc);
    const lex = auroc(rs.filter(pos).map((r) => r.signals?.lexical ?? 0), rs.filter((r) => !pos(r)).map((r) => r.signals?.lexical ?? 0));
    const den = auroc(rs.filter(pos).map((r) => r.signals?.dense ?? 0), rs.filter((r) => !pos(r)).map((r) => r.signals?.dense ?? 0));
    console.log(`| ${title} | ${rs.filter(pos).length} / ${rs.filter((r) => !pos(r)).length} | ${fmt(s.each[0]!)} | ${fmt(s.each[1]!)} | ${fmt(s.delta, true)} | ${lex.toFixed(3)} | ${den.toFixed(3)} |`);
  };
  const among = (convs: number[], neg: Row['asked']): Row[] => all.filter((r) => convs.includes(r.conv) && (own(r) || r.asked === neg));
  console.log('\nAUROC of the top item (95 % stratified bootstrap intervals; relevance − score paired)');
  console.log('| set | pos / neg | relevance | score (baseline) | relevance − score | lexical alone | dense alone |');
  console.log('|---|---|---|---|---|---|---|');
  table('conv 1–3, other conversation', among([1, 2, 3], 'other'));
  table('conv 4–5, other conversation', among([4, 5], 'other'));
  table('conv 1–5, other conversation', among([1, 2, 3, 4, 5], 'other'));
  table('conv 1–5, category 5 (adversarial)', among([1, 2, 3, 4, 5], 'adversarial'));
  table('conv 1–3, category 5 (adversarial)', among([1, 2, 3], 'adversarial'));
  table('conv 4–5, category 5 (adversarial)', among([4, 5], 'adversarial'));
  // Weights and threshold are chosen on conversations 1–3, both kinds of negative pooled (asked of another
  // conversation, which never names a known participant, and category 5, which does), and reported on 4–5.
  const choose = all.filter((r) => [1, 2, 3].includes(r.conv) && (own(r) || r.asked === 'other' || r.asked === 'adversarial'));
  const cuts = [...new Set(choose.map(rel))].sort((a, b) => a - b);
  const balanced = (rs: Row[], t: number): { tpr: number; tnr: number } => {
    const p = rs.filter(pos);
    const n = rs.filter((r) => !pos(r));
    return { tpr: p.filter((r) => rel(r) >= t).length / p.length, tnr: n.filter((r) => rel(r) < t).length / n.length };
  };
  let best = { t: 0.5, b: -1 };
  for (const t of cuts) {
    const { tpr, tnr } = balanced(choose, t);
    if ((tpr + tnr) / 2 > best.b) best = { t, b: (tpr + tnr) / 2 };
  }
  console.log(`\nthreshold chosen on conversations 1–3 (best balanced accuracy ${best.b.toFixed(3)}): relevance >= ${best.t}`);
  const pooled = all.filter((r) => [4, 5].includes(r.conv) && (own(r) || r.asked !== 'own'));
  for (const [title, rs] of [['conv 4–5, other conversation', among([4, 5], 'other')], ['conv 4–5, category 5', among([4, 5], 'adversarial')], ['conv 4–5, both negatives', pooled]] as const) {
    const ci = bootstrapStat([rs.map(rel)], rs.map(pos), (p, n) => (p.filter((v) => v >= best.t).length / p.length + n.filter((v) => v < best.t).length / n.length) / 2);
    const { tpr, tnr } = balanced(rs, best.t);
    console.log(`${title}: answerable kept ${(100 * tpr).toFixed(1)} %, unanswerable flagged ${(100 * tnr).toFixed(1)} %, balanced accuracy ${fmt(ci.each[0]!)}`);
  }
  if (process.argv.includes('--fit')) {
    const x = choose.filter((r) => r.signals).map((r) => [r.signals!.lexical, r.signals!.dense ?? 0.5, r.signals!.named]);
    const y = choose.filter((r) => r.signals).map((r) => (pos(r) ? 1 : 0));
    const [bias, lexical, dense, named] = fitLogistic(x, y).map((v) => Math.round(v * 100) / 100);
    console.log(`\nlogistic weights fitted on conversations 1–3 (both negatives): ${JSON.stringify({ bias, lexical, dense, named })}`);
  }
}
