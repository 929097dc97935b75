/**
 * `npm run lint:api`: builds the app in-process (no listening, a throw-away data directory), writes
 * its /openapi.json to a temporary file and lints it with Redocly's recommended rules (redocly.yaml),
 * and validates its /asyncapi.json with @asyncapi/parser (errors fail; warnings are printed).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Parser } from '@asyncapi/parser';
import { pino } from 'pino';
import { buildApp } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { repoRoot } from '../pipelines/models/repo-root.js';

async function main(): Promise<number> {
  const dir = mkdtempSync(path.join(tmpdir(), 'parley-lint-api-'));
  try {
    const app = await buildApp(loadConfig({ DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'silent' }), { logger: pino({ level: 'silent' }) });
    const res = await app.inject({ url: '/openapi.json' });
    const asyncapi = await app.inject({ url: '/asyncapi.json' });
    await app.close();
    if (res.statusCode !== 200) throw new Error(`GET /openapi.json answered ${res.statusCode}`);
    const diagnostics = await new Parser().validate(asyncapi.body);
    for (const d of diagnostics) {
      process.stdout.write(`asyncapi ${d.severity === 0 ? 'error' : 'warning'} at ${d.path.join('.') || '(root)'}: ${d.message}\n`);
    }
    const asyncErrors = diagnostics.filter((d) => d.severity === 0).length;
    process.stdout.write(`/asyncapi.json: ${asyncErrors} error(s), ${diagnostics.length - asyncErrors} other finding(s)\n`);
    const file = path.join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(res.json(), null, 2));
    const cli = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');
    const run = spawnSync(process.execPath, [cli, 'lint', file, '--config', path.join(repoRoot(), 'redocly.yaml')], {
      stdio: 'inherit',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
    return asyncErrors > 0 ? 1 : run.status ?? 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

process.exitCode = await main();
