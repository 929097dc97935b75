/**
 * `npm run lint:api`: builds the app in-process (no listening, a throw-away data directory), writes
 * its /openapi.json to a temporary file and lints it with Redocly's recommended rules (redocly.yaml).
 * The AsyncAPI document is validated by test/server/api-documents.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { buildApp } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { repoRoot } from '../pipelines/models/repo-root.js';

async function main(): Promise<number> {
  const dir = mkdtempSync(path.join(tmpdir(), 'parley-lint-api-'));
  try {
    const app = await buildApp(loadConfig({ DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'silent' }), { logger: pino({ level: 'silent' }) });
    const res = await app.inject({ url: '/openapi.json' });
    await app.close();
    if (res.statusCode !== 200) throw new Error(`GET /openapi.json answered ${res.statusCode}`);
    const file = path.join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(res.json(), null, 2));
    const cli = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');
    const run = spawnSync(process.execPath, [cli, 'lint', file, '--config', path.join(repoRoot(), 'redocly.yaml')], {
      stdio: 'inherit',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
    return run.status ?? 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

process.exitCode = await main();
