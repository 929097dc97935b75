import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance } from 'fastify';
import { ParleyError } from '../../graph/core/errors.js';
import { createMcpServer } from './mcp-server.js';
import { mcpOriginAllowed } from './origin.js';

/**
 * `/mcp`: Parley's MCP server over streamable HTTP, stateless (each POST carries its own JSON-RPC
 * messages and gets a JSON response), behind the same API-key auth as every route: the tools run in
 * the tenant of the key presented. A browser Origin that is neither loopback nor listed in
 * `PARLEY_MCP_ALLOWED_ORIGINS` is refused with 403 before anything runs (see origin.ts).
 */
export async function mcpRoute(app: FastifyInstance): Promise<void> {
  const checkOrigin = async (request: import('fastify').FastifyRequest): Promise<void> => {
    const origin = request.headers.origin;
    if (!mcpOriginAllowed(origin, app.config.mcpAllowedOrigins)) {
      throw new ParleyError('PARLEY_ERR_FORBIDDEN', `Origin ${JSON.stringify(origin)} may not use /mcp: list it in PARLEY_MCP_ALLOWED_ORIGINS`);
    }
  };
  app.post('/mcp', { schema: { hide: true }, onRequest: checkOrigin }, async (request, reply) => {
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
