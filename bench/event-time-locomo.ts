/**
 * Turn dates on LoCoMo's temporal questions (category 2): does a gold evidence turn's `event_time` (`namedDate`: the
 * date its words name, resolved against when it was said) state the gold answer? Retrieval plays no part: every gold
 * turn of every category-2 question is dated on its own, and judged by the same script as the LoCoMo bench's answers
 * (`bench/lib/answer-match.ts`: the turn's words with its date against the gold answer; "the week before 9 June 2023"
 * is stated by a date in June 2023, as the script is lenient). Reported: share of gold turns whose words alone state
 * the answer, share with a date, share whose words and date state it, each with a 95 % bootstrap interval over gold
 * turns; with `--baseline DIR` (another build's dist/) the same for that build and the paired difference, and how
 * many turns each gains or loses. `--split dev` (conversations 1–5) for choosing, `--split test` (6–10, default) for
 * reporting. `--show` prints the turns the build's date does not state the answer for (dev only).
 * `--facts` also runs every turn of the split's conversations through the embedded extractor (this build's, and the
 * baseline's) and judges the facts of each gold turn: does one of them, its text with its `eventTime`, state the answer
 * (the item an answer shows in place of the turn when it ranks the fact first)?
 *
 *   npm run build && node dist/bench/event-time-locomo.js [--split dev|test] [--baseline DIR] [--facts] [--show]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { namedDate } from '../pipelines/retrieval/memory-items.js';
import { statesAnswer } from './lib/answer-match.js';
import { bootstrapDelta, bootstrapMean, pct } from './lib/bootstrap.js';
import { argString } from './lib/cli.js';
import { loadLocomoTurns, locomoTime, sharedDataDir } from './lib/locomo.js';
import { EmbeddedExtractor } from '../pipelines/memory/embedded-extractor.js';
import { extractLocomo, loadExtractor, type ExtractorClass } from './lib/locomo-extract.js';

type NamedDate = typeof namedDate;

const split = argString('split', 'test');
if (split !== 'dev' && split !== 'test') throw new Error(`--split is dev (conversations 1–5) or test (6–10), got ${JSON.stringify(split)}`);
const show = process.argv.includes('--show');
if (show && split !== 'dev') throw new Error('--show is for the dev split only: test conversations are for reporting');
const baselineDir = argString('baseline', '');

const byConv = loadLocomoTurns();
if (!byConv) process.exit(0);
const convs = new Set([...byConv.keys()].slice(split === 'dev' ? 0 : 5, split === 'dev' ? 5 : 10));
const qas = readFileSync(path.join(sharedDataDir(), 'locomo', 'locomo_qa.jsonl'), 'utf8').split('\n').filter(Boolean)
  .map((l) => JSON.parse(l) as { conv_id: string; question: string; answer?: string | number; category: number; evidence: string[] })
  .filter((q) => convs.has(q.conv_id) && q.category === 2);

interface Case { question: string; answer: string; text: string; said: string; key: string }
const cases: Case[] = qas.flatMap((q) => q.evidence.flatMap((d) => {
  const t = byConv.get(q.conv_id)?.find((x) => x.dia_id === d);
  return t ? [{ question: q.question, answer: String(q.answer ?? ''), text: t.text, said: locomoTime(t.session_date_time, t.turn_idx * 30), key: `${t.conv_id}|${t.dia_id}` }] : [];
}));

interface Scored { dated: number[]; states: number[]; dates: (string | null)[] }
function score(dateOf: NamedDate): Scored {
  const dates = cases.map((c) => dateOf(c.text, c.said));
  return {
    dates,
    dated: dates.map((d) => (d ? 1 : 0)),
    states: cases.map((c, i) => (statesAnswer(dates[i] ? `${c.text} ${dates[i]}` : c.text, c.answer) ? 1 : 0)),
  };
}

const words = cases.map((c) => (statesAnswer(c.text, c.answer) ? 1 : 0));
const mine = score(namedDate);
console.log(`LoCoMo ${split} (conversations ${split === 'dev' ? '1–5' : '6–10'}), category 2: ${qas.length} questions, ${cases.length} gold turns; mean [95 % bootstrap over turns]`);
console.log('| build | words alone state the answer | turn has a date | words + date state the answer |\n|---|---|---|---|');
const row = (label: string, s: Scored): void => console.log(`| ${label} | ${pct(bootstrapMean(words))} | ${pct(bootstrapMean(s.dated))} | ${pct(bootstrapMean(s.states))} |`);
row('this build', mine);
if (baselineDir) {
  const mod = (await import(pathToFileURL(path.resolve(baselineDir, 'pipelines/retrieval/memory-items.js')).href)) as { namedDate: NamedDate };
  const base = score(mod.namedDate);
  row(`baseline (${baselineDir})`, base);
  const gained = mine.states.filter((x, i) => x > base.states[i]!).length;
  const lost = mine.states.filter((x, i) => x < base.states[i]!).length;
  console.log(`this build − baseline: words + date ${pct(bootstrapDelta(mine.states, base.states), true)}, ${gained} turns gained, ${lost} lost; dated ${pct(bootstrapDelta(mine.dated, base.dated), true)}`);
}
if (process.argv.includes('--facts')) {
  const turnsOf = [...byConv.entries()].filter(([c]) => convs.has(c)).map(([, ts]) => ts);
  /** Per gold turn: 1 when one of its facts, with its date, states the answer; and whether one has a date. */
  const judgeFacts = async (Extractor: ExtractorClass): Promise<{ states: number[]; dated: number[] }> => {
    const byKey = new Map((await extractLocomo(Extractor, turnsOf)).map((e) => [`${e.turn.conv_id}|${e.turn.dia_id}`, e.facts]));
    const facts = cases.map((c) => byKey.get(c.key) ?? []);
    return {
      states: cases.map((c, i) => (facts[i]!.some((f) => statesAnswer(f.eventTime ? `${f.content} ${f.eventTime}` : f.content, c.answer)) ? 1 : 0)),
      dated: facts.map((fs) => (fs.some((f) => f.eventTime) ? 1 : 0)),
    };
  };
  const mineFacts = await judgeFacts(EmbeddedExtractor);
  console.log('\nFacts of the gold turns (embedded extractor)\n| build | a fact has a date | a fact with its date states the answer |\n|---|---|---|');
  console.log(`| this build | ${pct(bootstrapMean(mineFacts.dated))} | ${pct(bootstrapMean(mineFacts.states))} |`);
  if (baselineDir) {
    const baseFacts = await judgeFacts(await loadExtractor(baselineDir));
    console.log(`| baseline | ${pct(bootstrapMean(baseFacts.dated))} | ${pct(bootstrapMean(baseFacts.states))} |`);
    const gained = mineFacts.states.filter((x, i) => x > baseFacts.states[i]!).length;
    const lost = mineFacts.states.filter((x, i) => x < baseFacts.states[i]!).length;
    console.log(`this build − baseline (facts): ${pct(bootstrapDelta(mineFacts.states, baseFacts.states), true)}, ${gained} turns gained, ${lost} lost`);
  }
}
if (show) {
  for (const [i, c] of cases.entries()) {
    if (!mine.states[i]) console.log(JSON.stringify({ question: c.question, answer: c.answer, said: c.said.slice(0, 10), event_time: mine.dates[i], text: c.text.slice(0, 200) }));
  }
}
