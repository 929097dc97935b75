/**
 * `npm run gen:client`: (re)writes clients/typescript/src/generated/api.ts from the /openapi.json and
 * /asyncapi.json of an in-process app (no listening, a throw-away data directory).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { buildApp } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { repoRoot } from '../pipelines/models/repo-root.js';
import { generateClientTypes } from './lib/client-types.js';

/** Where the generated module lives. */
export const GENERATED_CLIENT_TYPES = path.join('clients', 'typescript', 'src', 'generated', 'api.ts');

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'parley-gen-client-'));
  try {
    const app = await buildApp(loadConfig({ DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'silent' }), { logger: pino({ level: 'silent' }) });
    const openapi = (await app.inject({ url: '/openapi.json' })).json();
    const asyncapi = (await app.inject({ url: '/asyncapi.json' })).json();
    await app.close();
    const file = path.join(repoRoot(), GENERATED_CLIENT_TYPES);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, generateClientTypes(openapi, asyncapi));
    process.stdout.write(`wrote ${GENERATED_CLIENT_TYPES}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
