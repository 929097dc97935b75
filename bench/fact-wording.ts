/**
 * How facts read, on LoCoMo turns (issue #16 part 2): every turn of a split through the embedded extractor alone (this
 * build and, with `--baseline DIR`, another build's dist/, in the same process), counting two kinds of slip in the
 * facts a person would not write:
 * - a participant's name followed by a bare verb ("Melanie like it", "Caroline are", "John haven't"), a name after
 *   "and" left out (a plural subject such as "John and Maria have");
 * - both participants named together ("Melanie and Caroline went camping"): right only when the listener took part,
 *   which in LoCoMo's chats between friends who live apart is rare.
 * Also the number of facts given an end of their own (`validUntil`, "for a month"), the number of turns whose facts
 * differ between the builds and, with `--sample N [--seed S]`, N of those turns drawn at random (seeded), with what was
 * said and each build's facts, for labelling by hand; `--ends` prints every turn whose facts' ends differ.
 *
 * `--build DIR` measures another build's dist/ in place of this one (to compare two earlier commits).
 *
 *   npm run build && node dist/bench/fact-wording.js [--split dev|test] [--build DIR] [--baseline DIR] [--sample N] [--seed S] [--ends]
 */
import { EmbeddedExtractor } from '../pipelines/memory/embedded-extractor.js';
import { argNumber, argString } from './lib/cli.js';
import { loadLocomoTurns } from './lib/locomo.js';
import { extractLocomo, loadExtractor, type ExtractedTurn } from './lib/locomo-extract.js';
import { seededRandom } from './lib/seeded-random.js';

const split = argString('split', 'dev');
if (split !== 'dev' && split !== 'test') throw new Error('--split is dev (conversations 1–5) or test (6–10)');
const baselineDir = argString('baseline', '');
const buildDir = argString('build', '');
const sample = argNumber('sample', 0);

/** Verbs whose bare form after a single name is a slip ("Melanie like"). */
const BARE = "like|love|are|have|were|don't|haven't|want|need|know|think|aren't|weren't|make|feel|look|seem|mean|go|get|deserve|enjoy|hope|wish|remember|agree|rock|sound|inspire|keep|take|do";
const ADVERB = 'really|definitely|just|totally|also|always|never|still';

/** Counts of the two slips over every fact of `turns`, for a conversation's speakers `names`. */
function slips(turns: readonly ExtractedTurn[], names: readonly string[]): { bare: number; pair: number; facts: number; ended: number } {
  const who = names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  const bare = new RegExp(`(?<!\\band )\\b(?:${who})(?: (?:${ADVERB}))? (?:${BARE})\\b(?! (?:and|&) )`, 'g');
  const pair = new RegExp(`\\b(?:${who}) and (?:${who})\\b`, 'g');
  let b = 0;
  let p = 0;
  let facts = 0;
  let ended = 0;
  for (const { facts: fs } of turns) {
    for (const f of fs) {
      facts++;
      if (f.validUntil) ended++;
      b += f.content.match(bare)?.length ?? 0;
      p += f.content.match(pair)?.length ?? 0;
    }
  }
  return { bare: b, pair: p, facts, ended };
}

const byConv = loadLocomoTurns();
if (byConv) {
  const all = [...byConv.values()];
  const convs = split === 'dev' ? all.slice(0, 5) : all.slice(5, 10);
  const speakers = [...new Set(convs.flat().map((t) => t.speaker))];
  const mine = await extractLocomo(buildDir ? await loadExtractor(buildDir) : EmbeddedExtractor, convs);
  const base = baselineDir ? await extractLocomo(await loadExtractor(baselineDir), convs) : null;
  const show = (name: string, turns: readonly ExtractedTurn[]): void => {
    const s = slips(turns, speakers);
    console.log(`${name}: ${s.facts} facts; a name + bare verb ${s.bare}; both participants named together ${s.pair}; with an end of their own ${s.ended}`);
  };
  console.log(`LoCoMo ${split} split (conversations ${split === 'dev' ? '1–5' : '6–10'}, ${mine.length} turns)`);
  show(buildDir ? `build ${buildDir}` : 'this build', mine);
  if (base) {
    show('baseline', base);
    const text = (t: ExtractedTurn | undefined): string => (t?.facts ?? []).map((f) => f.content).join(' || ');
    const changed = mine.map((t, i) => [t, base[i]] as const).filter(([a, b]) => text(a) !== text(b));
    console.log(`turns whose facts differ: ${changed.length}`);
    const ends = (t: ExtractedTurn | undefined): string => (t?.facts ?? []).map((f) => f.validUntil ?? '-').join(' ');
    const endChanged = mine.map((t, i) => [t, base[i]] as const).filter(([a, b]) => ends(a) !== ends(b));
    console.log(`turns whose facts' ends differ: ${endChanged.length}`);
    if (process.argv.includes('--ends')) {
      for (const [a, b] of endChanged) console.log(`${a.turn.conv_id} ${a.turn.dia_id}: "${a.turn.text}"\n  baseline ends: ${ends(b)}\n  this build:    ${ends(a)}`);
    }
    if (sample > 0) {
      const next = seededRandom(argNumber('seed', 1));
      const pool = [...changed];
      for (let n = 0; n < sample && pool.length > 0; n++) {
        const [a, b] = pool.splice(Math.floor(next() * pool.length), 1)[0]!;
        console.log(`\n${a.turn.conv_id} ${a.turn.dia_id} ${a.turn.speaker}: "${a.turn.text}"\n  baseline:   ${text(b)}\n  this build: ${text(a)}`);
      }
    }
  }
}
