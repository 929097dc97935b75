/**
 * Word pairs alike by their letters, scored with `stemMatches` either way round (issue #16 item 6): how many related
 * pairs match (recall) and how many look-alikes match too (false matches), on three lists: the related and unrelated
 * pairs of the stem-matching test plus the 6 pairs it leaves out (94 related, 68 unrelated), the look-alikes of the
 * review of `WordNet.related` (6), and 30 look-alikes written for this bench (`test/helpers/lookalike-pairs.ts`). Needs WordNet 3.0 (wordnet-base).
 *
 * `--commoner` also scores every pair of WordNet's commoner words (single-word lemmas with over 2 counted senses in some
 * part of speech, sharing their first 3 letters) alike by their letters (`stemMatches` without WordNet either way round):
 * how many match, and with `--list` which.
 *
 *   node dist/bench/wordnet-lookalikes.js [--policy PATH] [--commoner [--list]]
 *
 * `--policy` reads `stemMatches` from another build's `question-policy.js` (a baseline; its `wordnet.js` beside it for
 * `--commoner`), default this build's.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { FRESH_LOOKALIKES, RELATED_ALIKE, RELATED_UNTOLD, REVIEW_LOOKALIKES, UNRELATED_ALIKE, UNRELATED_JOINED } from '../test/helpers/lookalike-pairs.js';

const RELATED = [...RELATED_ALIKE, ...RELATED_UNTOLD];
const UNRELATED = [...UNRELATED_ALIKE, ...UNRELATED_JOINED];


const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

const file = path.resolve(arg('policy') ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '../pipelines/retrieval/question-policy.js'));
type Matches = (word: string, term: string, wordnet?: unknown) => boolean;
const { stemMatches } = (await import(pathToFileURL(file).href)) as { stemMatches: Matches };
const matched = ([a, b]: readonly [string, string]): boolean => stemMatches(a, b) || stemMatches(b, a);

const related = RELATED.filter(matched);
console.log(`related ${related.length}/${RELATED.length} (recall ${(100 * related.length / RELATED.length).toFixed(1)} %); missed:`,
  RELATED.filter((p) => !matched(p)).map((p) => p.join('/')).join(', ') || 'none');
for (const [name, list] of [['unrelated (test)', UNRELATED], ['review', REVIEW_LOOKALIKES], ['fresh', FRESH_LOOKALIKES]] as const) {
  const wrong = list.filter(matched);
  console.log(`${name}: ${wrong.length}/${list.length} matched:`, wrong.map((p) => p.join('/')).join(', ') || 'none');
}

if (process.argv.includes('--commoner')) {
  const { WordNet, DEFAULT_WORDNET_DIR } = (await import(pathToFileURL(path.join(path.dirname(file), 'wordnet.js')).href)) as {
    WordNet: new (dir: string) => unknown; DEFAULT_WORDNET_DIR: string };
  const none = new WordNet('/nonexistent-wordnet');
  const words = new Set<string>();
  for (const pos of ['noun', 'verb', 'adj', 'adv']) {
    for (const line of readFileSync(path.join(DEFAULT_WORDNET_DIR, `index.${pos}`), 'utf8').split('\n')) {
      const f = line.split(' ');
      const pointers = Number(f[3]);
      if (/^[a-z]{3,}$/.test(f[0] ?? '') && Number(f[4 + pointers + 1]) > 2) words.add(f[0]!);
    }
  }
  const byPrefix = new Map<string, string[]>();
  for (const w of [...words].sort()) byPrefix.set(w.slice(0, 3), [...byPrefix.get(w.slice(0, 3)) ?? [], w]);
  let alike = 0;
  const joined: string[] = [];
  for (const group of byPrefix.values()) {
    for (const [i, a] of group.entries()) {
      for (const b of group.slice(i + 1)) {
        if (!stemMatches(a, b, none) && !stemMatches(b, a, none)) continue;
        alike++;
        if (matched([a, b])) joined.push(`${a}/${b}`);
      }
    }
  }
  console.log(`commoner words ${words.size}: ${alike} pairs alike by their letters, ${joined.length} matched`);
  if (process.argv.includes('--list')) console.log(joined.join('\n'));
}
