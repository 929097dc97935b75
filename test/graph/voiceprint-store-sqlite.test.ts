import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../graph/sqlite/database.js';
import { SqliteVoiceprintStore } from '../../graph/sqlite/sqlite-voiceprint-store.js';
import { voiceprintStoreContract } from './contracts/voiceprint-store.contract.js';

voiceprintStoreContract('sqlite (file)', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-vp-'));
  const db = openDatabase(path.join(dir, 'parley.db'));
  return {
    store: new SqliteVoiceprintStore(db),
    cleanup: async () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
