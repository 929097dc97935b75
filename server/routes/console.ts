import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { ParleyError } from '../../graph/core/errors.js';

/** Where `npm run build` writes the bundled console (dist/console, next to dist/server). */
export const CONSOLE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../console');

/**
 * The page's Content-Security-Policy: everything from Parley itself, nothing from outside the machine.
 * `connect-src 'self'` covers fetch and the same-origin WebSocket; `blob:` media plays audio spans fetched
 * with the API key; the AudioWorklet module is a same-origin script.
 */
export const CONSOLE_CSP = [
  "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data: blob:",
  "media-src 'self' blob:", "connect-src 'self'", "worker-src 'self'", "object-src 'none'",
  "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
].join('; ');

/** The console's own file saying whether the API needs a key: `{"key_required": boolean}`. */
export const CONSOLE_AUTH_PATH = '/console/auth.json';

/**
 * `GET /console/…`: the browser console's static files (built by `npm run build` into dist/console). They hold
 * no tenant data, so they are served without an API key (see plugins/auth.ts); the page asks for the key and
 * sends it with every API call.
 */
export async function consoleRoutes(app: FastifyInstance, opts: { dir?: string } = {}): Promise<void> {
  const dir = opts.dir ?? CONSOLE_DIR;
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('content-security-policy', CONSOLE_CSP);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    return payload;
  });
  app.get('/console', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/console/', 302));
  // Whether the API wants a key, so that the page asks for one before its first API call instead of meeting a 401.
  // Open like the page itself (a 401 from any API route says as much); no tenant data.
  const keyRequired = app.hasDecorator('tenantForKey') && app.tenantForKey(undefined) === null;
  app.get(CONSOLE_AUTH_PATH, { schema: { hide: true } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { key_required: keyRequired };
  });
  // Whether the page is built is asked at request time, until it is: a console built after start-up is served
  // without a restart. One stat per console request while unbuilt, none after.
  const index = path.join(dir, 'index.html');
  let built = existsSync(index);
  await app.register(async (files) => {
    files.addHook('onRequest', async () => {
      if (built || (built = existsSync(index))) return;
      throw new ParleyError('PARLEY_ERR_NOT_FOUND', 'the console is not built: run `npm run build` (it bundles console/ into dist/console); no restart is needed');
    });
    await files.register(fastifyStatic, {
      root: dir, prefix: '/console/', decorateReply: false, index: 'index.html', schemaHide: true,
      cacheControl: true, maxAge: 0, suppressWarning: true,
    });
  });
}
