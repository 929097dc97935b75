import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A small WordNet database in the real files' format: `data.<pos>` lines start with their own
 * 8-digit byte offset, which `index.<pos>` lists per lemma, most frequent sense first.
 */
export function writeWordNet(dir: string, pos: string, synsets: { words: string[] }[], exceptions: string[] = []): void {
  mkdirSync(dir, { recursive: true });
  let data = '  1 This software and database is being provided to you, the LICENSEE, by\n';
  const senses = new Map<string, number[]>();
  for (const s of synsets) {
    const offset = Buffer.byteLength(data);
    const words = s.words.map((w) => `${w} 0`).join(' ');
    data += `${String(offset).padStart(8, '0')} 06 n ${s.words.length.toString(16).padStart(2, '0')} ${words} 000 | a gloss\n`;
    for (const w of s.words) senses.set(w.toLowerCase(), [...(senses.get(w.toLowerCase()) ?? []), offset]);
  }
  const index = ['  1 This software and database is being provided to you, the LICENSEE, by']
    .concat([...senses].sort(([a], [b]) => a.localeCompare(b)).map(([w, offs]) => `${w} n ${offs.length} 1 @ ${offs.length} 0 ${offs.map((o) => String(o).padStart(8, '0')).join(' ')}`));
  writeFileSync(path.join(dir, `data.${pos}`), data);
  writeFileSync(path.join(dir, `index.${pos}`), `${index.join('\n')}\n`);
  writeFileSync(path.join(dir, `${pos}.exc`), exceptions.map((e) => `${e}\n`).join(''));
}

/** A synset of `writeWordNetGraph`: its words and its pointers to other synsets by `id`. */
export interface GraphSynset {
  id: string;
  pos: 'noun' | 'verb' | 'adj';
  words: string[];
  /**
   * `@` hypernym, `+` derivational, `\\` pertainym (word numbers `source` / `target`, 1-based; 0 or absent: the whole
   * synset).
   */
  pointers?: { symbol: '@' | '+' | '\\'; to: string; source?: number; target?: number }[];
  /** The synset's gloss: its definition, then any examples in quotes; default "a gloss". */
  gloss?: string;
}

/**
 * A small noun, verb and adjective WordNet with pointers, in the real files' format: every offset is written
 * with 8 digits, so each line's length, and so every offset, is known before the pointers are filled in. `counted`:
 * how many of a lemma's senses (its first ones) WordNet ranks by frequency (`tagsense_cnt`), by lemma; default none.
 */
export function writeWordNetGraph(dir: string, synsets: GraphSynset[], counted: Readonly<Record<string, number>> = {}): void {
  mkdirSync(dir, { recursive: true });
  const header = '  1 This software and database is being provided to you, the LICENSEE, by\n';
  const byId = new Map(synsets.map((s) => [s.id, s]));
  const hex2 = (n: number): string => n.toString(16).padStart(2, '0');
  const line = (s: GraphSynset, offsetOf: (id: string) => number, own: number): string => {
    const pointers = (s.pointers ?? []).map((p) => {
      const to = byId.get(p.to);
      if (!to) throw new Error(`writeWordNetGraph: no synset ${p.to}`);
      return `${p.symbol} ${String(offsetOf(p.to)).padStart(8, '0')} ${to.pos[0]} ${hex2(p.source ?? 0)}${hex2(p.target ?? 0)}`;
    });
    const words = s.words.map((w) => `${w} 0`).join(' ');
    return `${String(own).padStart(8, '0')} 06 ${s.pos[0]} ${hex2(s.words.length)} ${words} ${String(pointers.length).padStart(3, '0')}`
      + `${pointers.length > 0 ? ' ' : ''}${pointers.join(' ')} | ${s.gloss ?? 'a gloss'}\n`;
  };
  const offsets = new Map<string, number>();
  for (const pos of ['noun', 'verb', 'adj'] as const) {
    let at = Buffer.byteLength(header);
    for (const s of synsets.filter((x) => x.pos === pos)) {
      offsets.set(s.id, at);
      at += Buffer.byteLength(line(s, () => 0, 0));
    }
  }
  for (const pos of ['noun', 'verb', 'adj'] as const) {
    const own = synsets.filter((x) => x.pos === pos);
    const data = header + own.map((s) => line(s, (id) => offsets.get(id)!, offsets.get(s.id)!)).join('');
    const senses = new Map<string, number[]>();
    for (const s of own) for (const w of s.words) senses.set(w.toLowerCase(), [...(senses.get(w.toLowerCase()) ?? []), offsets.get(s.id)!]);
    const index = [header.trimEnd()].concat([...senses].sort(([a], [b]) => a.localeCompare(b))
      .map(([w, offs]) => `${w} ${pos[0]} ${offs.length} 1 @ ${offs.length} ${counted[w] ?? 0} ${offs.map((o) => String(o).padStart(8, '0')).join(' ')}`));
    writeFileSync(path.join(dir, `data.${pos}`), data);
    writeFileSync(path.join(dir, `index.${pos}`), `${index.join('\n')}\n`);
    writeFileSync(path.join(dir, `${pos}.exc`), '');
  }
}

/**
 * The WordNet the plan-object tests read: a few derivational pairs (apply / application, renew /
 * renewal, donate / donation, book / booking) and a noun hierarchy deep enough for `sharedHypernym`'s
 * default depth limits: dog and cat under carnivore, hamster under rodent, table and curtain under
 * furnishing, ferry and train under conveyance; everything under entity.
 */
export function writePlanWordNet(dir: string): void {
  const chain = ['entity', 'physical_entity', 'object', 'whole', 'artifact', 'instrumentality'];
  const nouns: GraphSynset[] = chain.map((w, i) => ({ id: w, pos: 'noun', words: [w],
    pointers: i > 0 ? [{ symbol: '@', to: chain[i - 1]! }] : [] }));
  const under = (id: string, parent: string, words = [id]): GraphSynset => ({ id, pos: 'noun', words, pointers: [{ symbol: '@', to: parent }] });
  nouns.push(under('living_thing', 'whole'), under('organism', 'living_thing'), under('animal', 'organism'), under('chordate', 'animal'),
    under('mammal', 'chordate'), under('placental', 'mammal'), under('carnivore', 'placental'), under('rodent', 'placental'),
    under('canine', 'carnivore'), under('feline', 'carnivore'), under('dog', 'canine'), under('cat', 'feline'), under('hamster', 'rodent'),
    under('furnishing', 'instrumentality'), under('table', 'furnishing'), under('curtain', 'furnishing'),
    under('conveyance', 'instrumentality'), under('ferry', 'conveyance'), under('train', 'conveyance'),
    under('sofa', 'artifact'), under('school', 'artifact'), under('loan', 'entity'), under('passport', 'artifact'),
    under('membership', 'entity'), under('bank', 'artifact'));
  const pair = (verb: string, noun: string): GraphSynset[] => [
    { id: `v-${verb}`, pos: 'verb', words: [verb], pointers: [{ symbol: '+', to: `n-${noun}`, source: 1, target: 1 }] },
    { id: `n-${noun}`, pos: 'noun', words: [noun], pointers: [{ symbol: '+', to: `v-${verb}`, source: 1, target: 1 }] },
  ];
  writeWordNetGraph(dir, [...nouns, ...pair('apply', 'application'), ...pair('renew', 'renewal'), ...pair('donate', 'donation'),
    ...pair('book', 'booking'), { id: 'v-accept', pos: 'verb', words: ['accept'] }, { id: 'v-get', pos: 'verb', words: ['get'] }]);
}
