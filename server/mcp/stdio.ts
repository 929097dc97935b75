import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { buildApp } from '../app.js';
import { createLogger } from '../logger.js';
import { exitOnStartFailure, loadConfigOrExit, logConfigWarnings } from '../process.js';
import { createMcpServer } from './mcp-server.js';
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
  const app = await buildApp(config, { logger });
  const server = createMcpServer(app, config.mcpTenant, { allowErase: config.mcpAllowErase });
  const transport = new ReplyTrackingTransport(new StdioServerTransport());
  let closing = false;
  const shutdown = (reason: string): void => {
    if (closing) return;
    closing = true;
    logger.info({ reason }, 'parley mcp shutting down');
    setTimeout(() => process.exit(1), config.shutdownGraceMs + 5000).unref();
    // Calls already received are answered first: a client may pipe its calls and close stdin at once.
    transport.settled().then(() => Promise.allSettled([server.close(), app.close()])).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.stdin.on('end', () => shutdown('stdin closed'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  await server.connect(transport);
  logger.info({ tenant: config.mcpTenant, dataDir: config.dataDir, erase: config.mcpAllowErase }, 'parley mcp serving on stdio');
}

main().catch(exitOnStartFailure('parley mcp'));
