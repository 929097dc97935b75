import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../server/config.js';
import type { JobQueue } from './job-queue.js';
import { BullmqJobQueue } from './redis/bullmq-job-queue.js';
import { openDatabase } from './sqlite/database.js';
import { SqliteGraphStore } from './sqlite/sqlite-graph-store.js';
import { SqliteJobQueue } from './sqlite/sqlite-job-queue.js';
import { SqliteLexicalIndex } from './sqlite/sqlite-lexical-index.js';
import { SqliteMemoryStore } from './sqlite/sqlite-memory-store.js';
import { SqliteVectorStore } from './sqlite/sqlite-vector-store.js';
import { SqliteVoiceprintStore } from './sqlite/sqlite-voiceprint-store.js';
import type { Stores } from './stores.js';

/** Open the stores the config asks for. The embedded SQLite file is `DATA_DIR/parley.db`. */
export function openStores(config: Config, logger: Logger): Stores {
  const sqlite = openDatabase(path.join(config.dataDir, 'parley.db'));
  const queue: JobQueue =
    config.queue === 'redis'
      ? new BullmqJobQueue({ url: config.redisUrl, prefix: config.redisPrefix, logger: logger.child({ component: 'queue' }) })
      : new SqliteJobQueue(sqlite, { logger: logger.child({ component: 'queue' }) });
  const stores: Stores = {
    sqlite,
    graph: new SqliteGraphStore(sqlite),
    memory: new SqliteMemoryStore(sqlite),
    voiceprints: new SqliteVoiceprintStore(sqlite),
    vectors: new SqliteVectorStore(sqlite),
    lexical: new SqliteLexicalIndex(sqlite),
    queue,
    async close(timeoutMs = 10_000) {
      await queue.close(timeoutMs);
      await Promise.all([
        stores.graph.close(), stores.memory.close(), stores.voiceprints.close(), stores.vectors.close(), stores.lexical.close(),
      ]);
      if (sqlite.open) sqlite.close();
    },
  };
  return stores;
}
