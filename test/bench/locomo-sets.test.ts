import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { declaredForDevelopment } from '../../bench/lib/locomo.js';
import { repoRoot } from '../../pipelines/models/repo-root.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('bench sets: which --data set may be used for choosing options (--variants --dev-data)', () => {
  const tmp = tempDir('parley-sets-');
  after(() => tmp.remove());
  const set = (name: string, readme: string | null): string => {
    const dir = path.join(tmp.dir, name);
    mkdirSync(dir, { recursive: true });
    if (readme !== null) writeFileSync(path.join(dir, 'README.md'), readme);
    return dir;
  };

  test('a set titled held out, or marked never used for tuning, is refused; a development set is accepted', () => {
    assert.throws(() => declaredForDevelopment(set('a', '# Some QA (synthetic, held out)\n\ntext')), /held out/);
    assert.throws(() => declaredForDevelopment(set('b', '# Some QA\n\n- **Never used for tuning**: report only.')), /held out/);
    assert.equal(declaredForDevelopment(set('c', '# Some QA (development set)\n\nUnlike the held-out set, this one IS for tuning.')), true);
    assert.equal(declaredForDevelopment(set('d', null)), true, 'no README: the caller\'s --dev-data declaration stands');
  });

  test('the repository\'s own sets: multiparty is held out, multiparty-dev is for development', () => {
    assert.throws(() => declaredForDevelopment(path.join(repoRoot(), 'bench', 'data', 'multiparty')), /held out/);
    assert.equal(declaredForDevelopment(path.join(repoRoot(), 'bench', 'data', 'multiparty-dev')), true);
  });
});
