import path from 'node:path';
import { openDatabase } from '../../graph/sqlite/database.js';
import { SqliteEntityIndex } from '../../graph/sqlite/sqlite-entity-index.js';
import { tempDir } from '../helpers/temp-dir.js';
import { entityIndexContract } from './contracts/entity-index.contract.js';

entityIndexContract('sqlite', async () => {
  const tmp = tempDir();
  const db = openDatabase(path.join(tmp.dir, 'parley.db'));
  return { index: new SqliteEntityIndex(db), cleanup: async () => { db.close(); tmp.remove(); } };
});
