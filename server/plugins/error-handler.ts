import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ParleyError, toClientError, type ErrorCode } from '../../graph/core/errors.js';
import { patternMessage } from '../protocol/ws-messages.js';
import { likelyMeant } from '../protocol/closest-name.js';
import { RouteMethods } from './route-methods.js';

/**
 * An unknown field in words: its name, and the known field it was probably meant to be (Ajv's `verbose` errors
 * carry the schema whose `properties` are known), or the fields known when few.
 */
function unknownFieldText(e: NonNullable<FastifyError['validation']>[number]): string {
  const name = String((e.params as { additionalProperty?: unknown }).additionalProperty);
  const known = Object.keys((e as { parentSchema?: { properties?: object } }).parentSchema?.properties ?? {});
  const meant = likelyMeant(name, known);
  const hint = meant !== undefined ? `; did you mean "${meant}"?`
    : known.length > 0 && known.length <= 8 ? `; known fields: ${known.join(', ')}` : '';
  return `has unknown field "${name}"${hint}`;
}

type ValidationError = NonNullable<FastifyError['validation']>[number];

/**
 * A missing required field that an unknown field of the same object was probably meant to be (`questoin` for
 * `question`): that unknown field named, with the missing one it was probably meant to be; else undefined. Ajv stops
 * at the missing field before it looks for unknown ones, so the object (`data` of a `verbose` error) is read here.
 */
function misspeltRequiredText(e: ValidationError): string | undefined {
  if (e.keyword !== 'required') return undefined;
  const missing = String((e.params as { missingProperty?: unknown }).missingProperty);
  const schema = (e as { parentSchema?: { properties?: object; additionalProperties?: unknown } }).parentSchema;
  const data = (e as { data?: unknown }).data;
  if (schema?.additionalProperties !== false || typeof data !== 'object' || data === null) return undefined;
  const known = Object.keys(schema.properties ?? {});
  const name = Object.keys(data).find((k) => !known.includes(k) && likelyMeant(k, known) === missing);
  return name === undefined ? undefined : `has unknown field "${name}"; did you mean "${missing}"?`;
}

/** A JSON value's type in words ("a number", "an array", null). */
function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'an integer' : 'a number';
  if (typeof v === 'object') return 'an object';
  return `a ${typeof v}`;
}
const TYPE_WORDS: Record<string, string> = { string: 'a string', number: 'a number', integer: 'an integer', boolean: 'a boolean', object: 'an object', array: 'an array', null: 'null' };

/**
 * The fields a union (`anyOf`) refused. A value of none of the types it allows ({"name": 5} where a string or null
 * is): path → "must be a string or null, not a number", instead of Ajv's "must be string, must be null, must match a
 * schema in anyOf". A value of one of the types: path → null, its branch's own errors say what is wrong (a string
 * too long), without the other branches' types.
 */
function wrongTypes(errors: readonly ValidationError[]): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (const union of errors.filter((e) => e.keyword === 'anyOf')) {
    const at = union.instancePath;
    const types = errors.filter((e) => e.keyword === 'type' && e.instancePath === at).map((e) => String((e.params as { type?: unknown }).type));
    // A branch that failed on something else (a length, a pattern) took the value's type: its own errors say what is wrong.
    if (types.length === 0) continue;
    if (errors.some((e) => e.instancePath.startsWith(at) && !['type', 'anyOf'].includes(e.keyword))) {
      out.set(at, null);
      continue;
    }
    const words = [...new Set(types)].map((t) => TYPE_WORDS[t] ?? t);
    const given = 'data' in union ? `, not ${jsonType((union as { data?: unknown }).data)}` : '';
    out.set(at, `must be ${words.length > 1 ? `${words.slice(0, -1).join(', ')} or ${words.at(-1)}` : words[0]}${given}`);
  }
  return out;
}

/**
 * A schema validation error in words: a value of none of the types a union allows names them and the type given
 * (`wrongTypes`); an unknown field is named (with the known one it was probably meant to
 * be); a value outside a fixed set (an enum, or a union of constants such as `layer`) names the values allowed
 * instead of Ajv's "must be equal to constant, … must match a schema in anyOf"; a blank value says so instead
 * of "must match pattern \"\\S\""; other errors keep Ajv's wording.
 */
function validationMessage(err: FastifyError): string {
  const errors = err.validation ?? [];
  const allowed = new Map<string, unknown[]>();
  for (const e of errors) {
    const params = e.params as { allowedValue?: unknown; allowedValues?: unknown[] };
    if (e.keyword === 'const') allowed.set(e.instancePath, [...(allowed.get(e.instancePath) ?? []), params.allowedValue]);
    if (e.keyword === 'enum') allowed.set(e.instancePath, [...(allowed.get(e.instancePath) ?? []), ...(params.allowedValues ?? [])]);
  }
  const ours = (e: (typeof errors)[number]): string | undefined => (e.keyword === 'pattern' ? patternMessage((e.params as { pattern?: unknown }).pattern, (e as { data?: unknown }).data) : undefined);
  const blank = (e: (typeof errors)[number]): boolean => ours(e) !== undefined;
  const unknown = (e: (typeof errors)[number]): boolean => e.keyword === 'additionalProperties';
  const typed = wrongTypes(errors);
  const misspelt = (e: ValidationError): boolean => misspeltRequiredText(e) !== undefined;
  if (allowed.size === 0 && typed.size === 0 && !errors.some(blank) && !errors.some(unknown) && !errors.some(misspelt)) return err.message;
  const where = err.validationContext ?? 'body';
  const otherBranch = (e: ValidationError): boolean => typed.has(e.instancePath) && (typed.get(e.instancePath) !== null || e.keyword === 'type' || e.keyword === 'anyOf');
  const others = errors.filter((e) => !allowed.has(e.instancePath) && !otherBranch(e))
    .map((e) => `${where}${e.instancePath} ${ours(e) ?? misspeltRequiredText(e) ?? (unknown(e) ? unknownFieldText(e) : e.message ?? 'is invalid')}`);
  const sets = [...allowed].map(([path, values]) => `${where}${path} must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}`);
  const types = [...typed].flatMap(([path, text]) => (text === null ? [] : [`${where}${path} ${text}`]));
  return [...sets, ...types, ...others].join(', ');
}

/** The largest HTTP request body read (fastify's `bodyLimit`); a larger one is a 413 naming this limit. */
export const HTTP_BODY_LIMIT_BYTES = 16 * 1024 * 1024;

/** Status codes fastify itself raises, mapped to Parley's codes. */
function fromFastify(err: FastifyError): { code: ErrorCode; message: string; status: number } | null {
  if (err.validation) return { code: 'PARLEY_ERR_BAD_REQUEST', message: validationMessage(err), status: 400 };
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return { code: 'PARLEY_ERR_BAD_REQUEST', message: 'a path parameter is too long (a session id is at most 128 characters, a participant reference 200)', status: 414 };
  }
  if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return {
      code: 'PARLEY_ERR_FRAME_TOO_LARGE', status: 413,
      message: `request body is over the limit of 16 MiB (${HTTP_BODY_LIMIT_BYTES} bytes); nothing was stored: send a large import as several batches`,
    };
  }
  // Before the other FST_ERR_CTP_ codes: an unsupported Content-Type is FST_ERR_CTP_INVALID_MEDIA_TYPE.
  if (err.statusCode === 415) {
    return { code: 'PARLEY_ERR_BAD_REQUEST', message: `${err.message}: send the body as application/json`, status: 415 };
  }
  if (err.code?.startsWith('FST_ERR_CTP_') || (err.statusCode === 400 && err.code !== undefined)) {
    return { code: 'PARLEY_ERR_BAD_REQUEST', message: err.message, status: 400 };
  }
  return fromPlugin(err);
}

/** Client errors of a plugin's own (`@fastify/static`: 403 for a path outside its root, 416 for a range past the end). */
const PLUGIN_CLIENT_ERRORS: Record<number, { code: ErrorCode; message: string }> = {
  403: { code: 'PARLEY_ERR_FORBIDDEN', message: 'this path is not served' },
  404: { code: 'PARLEY_ERR_NOT_FOUND', message: 'not found' },
  416: { code: 'PARLEY_ERR_BAD_REQUEST', message: 'the requested range is not satisfiable: the Content-Range header gives the size' },
};

/**
 * A 4xx a plugin raised (an http-errors error with `status`/`statusCode`) keeps its status instead of becoming
 * a 500; its code follows the status, and its message is Parley's own (the plugin's may name server paths).
 */
function fromPlugin(err: FastifyError): { code: ErrorCode; message: string; status: number } | null {
  if (err instanceof ParleyError) return null;
  const status = err.statusCode ?? (err as { status?: unknown }).status;
  if (typeof status !== 'number' || status < 400 || status > 499) return null;
  const known = PLUGIN_CLIENT_ERRORS[status];
  return { ...(known ?? { code: 'PARLEY_ERR_BAD_REQUEST', message: STATUS_CODES[status] ?? 'bad request' }), status };
}

/**
 * Fastify's `frameworkErrors`: errors it meets while routing, before any route or error handler runs
 * (a path parameter over `maxParamLength`: 414; a URL that does not decode: 400), in the Parley envelope
 * instead of Fastify's own `{"error":"Bad Request","code":"FST_ERR_…"}`.
 */
export function frameworkErrors(err: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const mapped = fromFastify(err) ?? toClientError(err);
  void reply.status(mapped.status).send({ error: { code: mapped.code, message: mapped.message } });
}

/**
 * Fastify's `clientErrorHandler`: a request node's HTTP parser refused (headers too large: 431, a
 * timeout: 408, malformed: 400) gets the Parley envelope too, written to the socket as Fastify's default does.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? [408, 'the request took too long to arrive']
    : err.code === 'HPE_HEADER_OVERFLOW' ? [431, 'request headers too large'] : [400, 'malformed HTTP request'];
  const body = JSON.stringify({ error: { code: 'PARLEY_ERR_BAD_REQUEST', message } });
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy(err);
}

/** Every error reaches clients as `{"error":{"code","message"}}`; stack traces only reach the log. */
export const errorHandlerPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((err: FastifyError, request, reply) => {
      const mapped = fromFastify(err) ?? toClientError(err);
      // A 416's Content-Range (`bytes */<size>`) tells the client the size to ask within.
      const range = (err as { headers?: Record<string, unknown> }).headers?.['Content-Range'];
      if (mapped.status === 416 && typeof range === 'string') void reply.header('content-range', range);
      if (!(err instanceof ParleyError) && mapped.status >= 500) {
        request.log.error({ err }, 'request failed');
      }
      void reply.status(mapped.status).send({ error: { code: mapped.code, message: mapped.message } });
    });
    // A refused WebSocket upgrade (401, 404…) leaves a half-open socket that would hold up server
    // shutdown: close it once the error response is out.
    app.addHook('onResponse', async (request, reply) => {
      if (request.raw.headers.upgrade && reply.statusCode >= 400) request.raw.socket?.destroy();
    });
    const routes = new RouteMethods();
    app.addHook('onRoute', (route) => routes.add(route.url, route.method));
    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0] ?? '/';
      const allowed = routes.allowed(path);
      if (allowed.length > 0 && !allowed.includes(request.method)) {
        void reply.status(405).header('allow', allowed.join(', ')).send({
          error: { code: 'PARLEY_ERR_METHOD_NOT_ALLOWED', message: `${path} does not answer ${request.method}; it answers ${allowed.join(', ')}` },
        });
        return;
      }
      void reply.status(404).send({ error: { code: 'PARLEY_ERR_NOT_FOUND', message: `no route ${request.method} ${path}` } });
    });
  },
  { name: 'parley-errors' },
);
