import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ParleyError } from '../../graph/core/errors.js';
import { createMcpServer } from './mcp-server.js';
import { mcpOriginAllowed } from './origin.js';

/**
 * `/mcp`: Parley's MCP server over streamable HTTP, stateless (each POST carries its own JSON-RPC
 * messages and gets a JSON response), behind the same API-key auth as every route: the tools run in
 * the tenant of the key presented. A browser Origin that is neither loopback nor listed in
 * `PARLEY_MCP_ALLOWED_ORIGINS` is refused with 403 before anything runs (see origin.ts).
 */
/** JSON-RPC's code for a request that is not valid JSON. */
const PARSE_ERROR = -32700;

/**
 * A body that is not JSON gets JSON-RPC's parse error (HTTP 400, `-32700`, `id: null`), as the MCP
 * transport answers it, instead of Parley's `{"error":…}` envelope, which MCP clients cannot read.
 * Anything else goes to Parley's error handler (`parley`).
 */
function unparsableBody(parley: FastifyInstance['errorHandler']) {
  return (err: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    if (err.code !== 'FST_ERR_CTP_INVALID_JSON_BODY' && err.code !== 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      parley(err, request, reply);
      return;
    }
    const message = err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ? 'Parse error: empty body' : 'Parse error: Invalid JSON';
    void reply.status(400).send({ jsonrpc: '2.0', error: { code: PARSE_ERROR, message }, id: null });
  };
}

export async function mcpRoute(app: FastifyInstance): Promise<void> {
  const checkOrigin = async (request: import('fastify').FastifyRequest): Promise<void> => {
    const origin = request.headers.origin;
    if (!mcpOriginAllowed(origin, app.config.mcpAllowedOrigins)) {
      throw new ParleyError('PARLEY_ERR_FORBIDDEN', `Origin ${JSON.stringify(origin)} may not use /mcp: list it in PARLEY_MCP_ALLOWED_ORIGINS`);
    }
  };
  app.post('/mcp', { schema: { hide: true }, onRequest: checkOrigin, errorHandler: unparsableBody(app.errorHandler) }, async (request, reply) => {
    const server = createMcpServer(app, request.tenant, { allowErase: app.config.mcpAllowErase });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    } catch (err) {
      request.log.error({ err }, 'MCP request failed');
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { 'content-type': 'application/json' });
        reply.raw.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'internal error' }, id: null }));
      }
    }
  });
  // Stateless: there is no server-initiated stream to GET and no session to DELETE.
  const notAllowed = async (_request: unknown, reply: import('fastify').FastifyReply) =>
    reply.status(405).header('allow', 'POST').send({
      jsonrpc: '2.0', error: { code: -32000, message: 'method not allowed: this MCP endpoint is stateless, POST only' }, id: null,
    });
  app.get('/mcp', { schema: { hide: true } }, notAllowed);
  app.delete('/mcp', { schema: { hide: true } }, notAllowed);
}
