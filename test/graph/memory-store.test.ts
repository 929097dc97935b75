import { memoryStoreContract } from './contracts/memory-store.contract.js';
import { openDatabase } from '../../graph/sqlite/database.js';
import { SqliteMemoryStore } from '../../graph/sqlite/sqlite-memory-store.js';

memoryStoreContract('SQLite', async () => {
  const db = openDatabase(':memory:');
  return { store: new SqliteMemoryStore(db), dispose: async () => void db.close() };
});
