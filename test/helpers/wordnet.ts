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
