/**
 * The methods each route path answers, so a request for a known path with another method gets a 405 that
 * says which methods it allows (`Allow`) instead of a 404 that suggests the path does not exist.
 */
export class RouteMethods {
  private readonly routes: { pattern: RegExp; methods: Set<string> }[] = [];
  private readonly byUrl = new Map<string, Set<string>>();

  /** Record a route as Fastify's `onRoute` hook sees it: its path (`/v1/memories/:id`) and method(s). */
  add(url: string, method: string | string[]): void {
    let methods = this.byUrl.get(url);
    if (!methods) {
      methods = new Set();
      this.byUrl.set(url, methods);
      this.routes.push({ pattern: pathPattern(url), methods });
    }
    for (const m of Array.isArray(method) ? method : [method]) methods.add(m.toUpperCase());
  }

  /** The methods some route answers for `path` (no query string), sorted; empty when no route has that path. */
  allowed(path: string): string[] {
    const methods = new Set<string>();
    for (const route of this.routes) {
      if (route.pattern.test(path)) for (const m of route.methods) methods.add(m);
    }
    return [...methods].sort();
  }
}

/** A route path as a pattern of request paths: `:param` is one segment, `*` the rest. */
function pathPattern(url: string): RegExp {
  const source = url.split('/').map((segment) => {
    if (segment === '*') return '.*';
    if (segment.startsWith(':')) return '[^/]+';
    return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\\*$/, '.*');
  }).join('/');
  return new RegExp(`^${source}$`);
}
