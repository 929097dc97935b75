import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { buildApp } from '../app.js';
import { createLogger } from '../logger.js';
import { exitOnStartFailure, loadConfigOrExit, logConfigWarnings } from '../process.js';
import { createMcpServer } from './mcp-server.js';
import { RetryingStart } from './retrying-start.js';
import { ReplyTrackingTransport } from './reply-tracking-transport.js';

/**
 * `npm run -s mcp` (or `node dist/server/mcp/stdio.js`): Parley's MCP server over stdio, for an agent
 * that launches it. It opens the stores of `DATA_DIR` (like `npm run worker`), runs the background
 * jobs unless `PARLEY_RUN_JOBS=false`, and serves tenant `PARLEY_MCP_TENANT` (default `default`).
 * stdout carries only the protocol: logs go to stderr.
 */
async function main(): Promise<void> {
  // A library that prints with console.log must not corrupt the protocol stream.
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  const { config, warnings } = loadConfigOrExit('parley mcp');
  const logger = createLogger(config.logLevel, { toStderr: true }).child({ process: 'mcp' });
  logConfigWarnings(logger, warnings);
  // The protocol is served while the stores open (Redis or Neo4j may take seconds, or be unreachable): a client gets its
  // `initialize` answer within its time-out. A start that fails is tried again, 1 s doubling to 30 s apart, and until one
  // succeeds each tool call answers the last reason ("stores not ready: …, retrying") rather than a disconnect.
  const start = new RetryingStart(() => buildApp(config, { logger }), {
    onFailure: (err, attempt, retryInMs) => logger.error(
      { err: err instanceof Error ? err.message : String(err), attempt, retryInMs },
      'parley mcp failed to start; answering tool calls with this reason and retrying',
    ),
    onOpen: (attempts) => logger.info(
      { tenant: config.mcpTenant, dataDir: config.dataDir, erase: config.mcpAllowErase, attempts }, 'parley mcp serving on stdio',
    ),
  });
  const server = createMcpServer(() => start.get(), config.mcpTenant, { allowErase: config.mcpAllowErase });
  const transport = new ReplyTrackingTransport(new StdioServerTransport());
  let closing = false;
  const shutdown = (reason: string): void => {
    if (closing) return;
    closing = true;
    logger.info({ reason }, 'parley mcp shutting down');
    setTimeout(() => process.exit(1), config.shutdownGraceMs + 5000).unref();
    // Calls already received are answered first: a client may pipe its calls and close stdin at once.
    transport.settled().then(() => Promise.allSettled([server.close(), start.close((app) => app.close())])).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.stdin.on('end', () => shutdown('stdin closed'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  await server.connect(transport);
}

main().catch(exitOnStartFailure('parley mcp'));
