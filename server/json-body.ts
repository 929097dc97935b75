import type { FastifyBaseLogger, FastifyInstance, FastifyRequest, RawServerDefault } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Structured-syntax JSON media types (RFC 6839): `application/merge-patch+json`, `application/vnd.x+json`. */
const JSON_SUFFIX_TYPE = /^application\/[a-z0-9!#$&^_.-]+\+json\s*(;|$)/i;

/**
 * Parse request bodies as JSON only: `text/plain` (which Fastify parses by default, to a string the schema then
 * refused with a 400 "body must be object") is a 415 like any other media type, and `+json` types are parsed
 * as strictly as `application/json`. An empty body is accepted (as no body) only on a route that declares no
 * body schema, such as `POST /v1/sessions/{id}/end`: a client that always sends `content-type: application/json`
 * is not refused there, while a route whose body is required still answers an empty one with a 400.
 */
export function installJsonBodyParsers<L extends FastifyBaseLogger>(app: FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, L>): void {
  const strict = app.getDefaultJsonParser('error', 'error');
  const parse = (request: FastifyRequest, body: string, done: (err: Error | null, body?: unknown) => void): void => {
    if (body.length === 0 && request.routeOptions.schema?.body === undefined) {
      done(null, undefined);
      return;
    }
    strict(request, body, done);
  };
  app.removeContentTypeParser(['text/plain', 'application/json']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parse);
  app.addContentTypeParser(JSON_SUFFIX_TYPE, { parseAs: 'string' }, parse);
}
