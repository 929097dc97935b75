import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ParleyError, toClientError, type ErrorCode } from '../../graph/core/errors.js';

/** Status codes fastify itself raises, mapped to Parley's codes. */
function fromFastify(err: FastifyError): { code: ErrorCode; message: string; status: number } | null {
  if (err.validation) return { code: 'PARLEY_ERR_BAD_REQUEST', message: err.message, status: 400 };
  if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return { code: 'PARLEY_ERR_FRAME_TOO_LARGE', message: 'request body too large', status: 413 };
  }
  if (err.code?.startsWith('FST_ERR_CTP_') || (err.statusCode === 400 && err.code !== undefined)) {
    return { code: 'PARLEY_ERR_BAD_REQUEST', message: err.message, status: 400 };
  }
  if (err.statusCode === 415) return { code: 'PARLEY_ERR_BAD_REQUEST', message: err.message, status: 415 };
  return null;
}

/** Every error reaches clients as `{"error":{"code","message"}}`; stack traces only reach the log. */
export const errorHandlerPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((err: FastifyError, request, reply) => {
      const mapped = fromFastify(err) ?? toClientError(err);
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
    app.setNotFoundHandler((request, reply) => {
      void reply.status(404).send({
        error: { code: 'PARLEY_ERR_NOT_FOUND', message: `no route ${request.method} ${request.url.split('?')[0]}` },
      });
    });
  },
  { name: 'parley-errors' },
);
