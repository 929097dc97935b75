import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../models/repo-root.js';

let names: Map<string, number> | null = null;

/** Where the shipped list lives; `scripts/given-names.sh` derives it (1990 US Census first names ∩ cmudict). */
export function givenNamesPath(): string {
  return path.join(repoRoot(), 'pipelines', 'speaker', 'params', 'given-names.json');
}

/**
 * How common `word` is as a first name, in percent of people (1990 US Census, e.g. "robert" 1.58,
 * "grace" 0.09); 0 when it is not in the list. Lower-case lookup; the list is read once.
 */
export function givenNamePrevalence(word: string): number {
  if (!names) {
    const file = JSON.parse(readFileSync(givenNamesPath(), 'utf8')) as { names: Record<string, number> };
    names = new Map(Object.entries(file.names));
  }
  return names.get(word.toLowerCase()) ?? 0;
}
