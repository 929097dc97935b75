import type { Logger } from 'pino';
import { ConfigError, loadConfigWithWarnings, type LoadedConfig } from './config.js';

/**
 * Read the config, or print every problem and exit with status 2 (bad configuration). Its warnings
 * (settings valid but doubtful) are for `logConfigWarnings` once a logger exists.
 */
export function loadConfigOrExit(program: string): LoadedConfig {
  try {
    return loadConfigWithWarnings();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${program}: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
}

/** Log each configuration warning at start-up. */
export function logConfigWarnings(logger: Logger, warnings: string[]): void {
  for (const warning of warnings) logger.warn({ warning }, 'doubtful configuration');
}

/**
 * Run `stop` once on SIGINT or SIGTERM, then exit 0 (1 if it fails); exit 1 anyway if it has not
 * finished `graceMs` after the signal.
 */
export function onShutdownSignal(graceMs: number, stop: (signal: string) => Promise<void>, onError: (err: unknown) => void): void {
  let closing = false;
  const shutdown = (signal: string): void => {
    if (closing) return;
    closing = true;
    setTimeout(() => process.exit(1), graceMs).unref();
    stop(signal).then(
      () => process.exit(0),
      (err: unknown) => {
        onError(err);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

/** Report a failed start and exit 1, or 2 when the configuration is at fault (`ConfigError`). */
export function exitOnStartFailure(program: string): (err: unknown) => void {
  return (err) => {
    if (err instanceof ConfigError) {
      process.stderr.write(`${program}: ${err.message}\n`);
      process.exit(2);
    }
    process.stderr.write(`${program}: failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  };
}
