import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DAY_MS } from '../../../graph/core/time.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** Every .ts file under `dir` (relative to the repository root), node_modules and build output left out. */
function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)))
    .filter((f) => !f.split(path.sep).includes('node_modules'));
}

test('DAY_MS is one UTC day', () => {
  assert.equal(DAY_MS, 24 * 60 * 60 * 1000);
  assert.equal(new Date(Date.parse('2026-03-28T00:00:00.000Z') + DAY_MS).toISOString(), '2026-03-29T00:00:00.000Z');
});

test('the project code declares a day in milliseconds once, in graph/core/time.ts, and imports it elsewhere', () => {
  const declares = /\bconst\s+\w+\s*=\s*86_?400_?000\s*;|\bconst\s+DAY_MS\b/;
  const found = ['server', 'pipelines', 'graph', 'bench', 'scripts'].flatMap(sources)
    .filter((f) => declares.test(readFileSync(path.join(ROOT, f), 'utf8')));
  assert.deepEqual(found, [path.join('graph', 'core', 'time.ts')]);
});
