/**
 * Attribute the difference between two variants of one LoCoMo `--variants` dump (dev only: a dump of variants
 * exists only for conversations 1–5 or a development set) to the stages the other variants turn off:
 *
 *   node dist/bench/locomo-attribute.js --dump F.jsonl --a NAME_A --b NAME_B [--metric any|all|ans1|ans3] [--categories 1,2,3,4] [--show N]
 *
 * Prints how many questions B wins over A and A over B on the metric, then per other variant (an ablation of A:
 * one stage off) how many of B's wins it recovers, how many of A's wins it gives away, and how many other questions
 * it changes; then up to `--show` (default 10) of B's wins with the items A served in place of the gold (layer and
 * text), for reading.
 */
import { readFileSync } from 'node:fs';
import { argNumber, argString } from './lib/cli.js';
import { attribute, displacers, splitDifferences, type DumpLine } from './lib/locomo-attribution.js';

const file = argString('dump', '');
const a = argString('a', '');
const b = argString('b', '');
if (!file || !a || !b) throw new Error('--dump FILE, --a VARIANT and --b VARIANT are required');
const metric = argString('metric', 'any');
const categories = argString('categories', '1,2,3,4').split(',').map(Number);
const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as DumpLine);
for (const v of [a, b]) if (!lines[0]?.scores[v]) throw new Error(`no variant ${JSON.stringify(v)} in ${file}: ${Object.keys(lines[0]?.scores ?? {}).join(', ')}`);

const { bWins, aWins } = splitDifferences(lines, a, b, metric, categories);
console.log(`${metric}, categories ${categories.join(',')}: B (${b}) wins ${bWins.length}, A (${a}) wins ${aWins.length}`);
console.log('| variant | recovers of B\'s wins | gives of A\'s wins | changes elsewhere |\n|---|---|---|---|');
for (const r of attribute(lines, a, b, metric, categories)) {
  console.log(`| ${r.variant} | ${r.recovers} / ${bWins.length} | ${r.gives} / ${aWins.length} | ${r.elsewhere} |`);
}
const cut = (s: string): string => (s.length > 110 ? `${s.slice(0, 107)}…` : s);
for (const [title, wins, winner, loser] of [[`B's wins`, bWins, b, a], [`A's wins`, aWins, a, b]] as const) {
  console.log(`\n${title} (first ${Math.min(argNumber('show', 10), wins.length)}): what ${loser} served that ${winner} did not`);
  for (const l of wins.slice(0, argNumber('show', 10))) {
    console.log(`- [${l.conv} cat ${l.category}] ${l.question} (gold ${l.gold.join(', ')})`);
    for (const d of displacers(l, winner, loser)) console.log(`    ${d.layer}: ${cut(d.text.replace(/\s+/g, ' '))}`);
  }
}
