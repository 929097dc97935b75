/**
 * Issue #16 item 5: what differs between two LoCoMo stores built by `node dist/bench/retrieval-locomo.js --split dev
 * --ingest-only --store DIR` (two builds from the same code should be the same). Embedded (SQLite) stores only;
 * read-only. See `bench/lib/store-diff.ts` for how rows are matched.
 *
 * Run: node dist/bench/locomo-store-diff.js STORE_A STORE_B
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { diffStores, openStoreReadOnly } from './lib/store-diff.js';

const [dirA, dirB] = process.argv.slice(2);
if (!dirA || !dirB) {
  process.stderr.write('usage: node dist/bench/locomo-store-diff.js STORE_A STORE_B (folders holding parley.db)\n');
  process.exit(2);
}
for (const dir of [dirA, dirB]) {
  if (!existsSync(path.join(dir, 'parley.db'))) {
    process.stderr.write(`locomo-store-diff: ${path.join(dir, 'parley.db')} not found\n`);
    process.exit(2);
  }
}
const a = openStoreReadOnly(dirA), b = openStoreReadOnly(dirB);
try {
  for (const line of diffStores(a, b)) process.stdout.write(`${line}\n`);
} finally {
  a.close();
  b.close();
}
