/**
 * Origin validation for `POST /mcp`, as the MCP transport specification asks of servers: a browser
 * page may reach a local server by DNS rebinding (its own hostname resolving to 127.0.0.1), and then
 * its requests carry the page's Origin. Loopback origins are pages served from this machine; any
 * other origin must be listed in `PARLEY_MCP_ALLOWED_ORIGINS`. Requests without an Origin header come
 * from non-browser clients (agents, the SDK) and are not affected.
 */
import { isLoopbackHostname } from '../loopback.js';

/** Whether a request with this `Origin` header may use `/mcp`; `allowed` holds normalised origins or `*`. */
export function mcpOriginAllowed(origin: string | undefined, allowed: readonly string[]): boolean {
  if (origin === undefined) return true;
  if (allowed.includes('*')) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // "null" (sandboxed frames, file:) and garbage
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (isLoopbackHostname(url.hostname)) return true;
  return allowed.includes(url.origin);
}
