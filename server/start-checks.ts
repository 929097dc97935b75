import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { ConfigError } from './config/env-reader.js';

/**
 * Checks that run before the app is built, so that a taken port or an unusable data directory stops the
 * server at once (exit 2, naming the variable) rather than after the models have loaded.
 */

/**
 * Make `dataDir` (as the stores would) and check that it is a writable directory.
 * @throws ConfigError naming `DATA_DIR` and the system's reason.
 */
export function checkDataDir(dataDir: string): void {
  try {
    mkdirSync(dataDir, { recursive: true });
    if (!statSync(dataDir).isDirectory()) throw new Error(`ENOTDIR: not a directory, ${dataDir}`);
    accessSync(dataDir, constants.W_OK | constants.X_OK);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new ConfigError([`DATA_DIR=${JSON.stringify(dataDir)} cannot be used as a directory (${reason})`]);
  }
}

/**
 * Listen on `host`:`port` for a moment and let go, to learn whether the server could listen there.
 * Port 0 (any free port) is not checked. Something may still take the port before the server listens;
 * that later failure is reported as it was before.
 * @throws ConfigError naming `HOST` and `PORT` and the system's reason (`EADDRINUSE`, `EACCES`…).
 */
export async function checkListenable(host: string, port: number): Promise<void> {
  if (port === 0) return;
  const probe = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen({ host, port, exclusive: true }, resolve);
    });
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new ConfigError([`HOST=${JSON.stringify(host)}, PORT=${port}: the server cannot listen there (${reason})`]);
  }
  await new Promise<void>((resolve) => probe.close(() => resolve()));
}
