/**
 * Parley's layering: server → pipelines → graph → graph/core (which imports nothing of ours).
 * `npm test` runs this first (`npm run lint:deps`), so a wrong-way import fails CI.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'Import circles hide the order modules load in.',
      from: {}, to: { circular: true, dependencyTypesNot: ['type-only'] } },
    { name: 'no-circular-types', severity: 'error', comment: 'Type-only circles too: they are the same tangle.',
      from: {}, to: { circular: true } },
    { name: 'pipelines-not-server', severity: 'error', comment: 'pipelines/ must not know the HTTP / WebSocket server.',
      from: { path: '^pipelines/' }, to: { path: '^server/' } },
    { name: 'graph-not-up', severity: 'error', comment: 'graph/ (stores) must not import pipelines/ or server/.',
      from: { path: '^graph/' }, to: { path: '^(pipelines|server)/' } },
    { name: 'core-imports-nothing', severity: 'error', comment: 'graph/core is the bottom layer: it imports no other project module.',
      from: { path: '^graph/core/' }, to: { path: '^(server|pipelines|graph|bench|scripts|test)/', pathNot: '^graph/core/' } },
    { name: 'backends-apart', severity: 'error', comment: 'One backend never imports another: shared helpers live in graph/ or graph/core.',
      from: { path: '^graph/(sqlite|neo4j|qdrant|redis)/' }, to: { path: '^graph/(sqlite|neo4j|qdrant|redis)/', pathNot: '^graph/$1/' } },
    { name: 'client-stands-alone', severity: 'error', comment: 'clients/typescript is its own package: it imports only itself, its dependencies (ws, eventsource-parser) and Node built-ins.',
      from: { path: '^clients/typescript/' }, to: { path: '^(?!clients/typescript/)', dependencyTypesNot: ['core'], pathNot: '(^|/)node_modules/(ws|eventsource-parser)/' } },
    { name: 'console-browser-only', severity: 'error', comment: 'console/ runs in the browser: of ours it may import only the event types of graph/core/events.ts and the SDK types generated from the API documents (clients/).',
      from: { path: '^console/' }, to: { path: '^(server|pipelines|graph|bench|scripts|test)/', pathNot: '^graph/core/events\\.ts$' } },
    { name: 'nothing-imports-console', severity: 'error', comment: 'The console is bundled for the browser by esbuild; server code serves its build output, never imports it.',
      from: { path: '^(server|pipelines|graph|bench|scripts|test)/' }, to: { path: '^console/' } },
    { name: 'production-not-test', severity: 'error', comment: 'Test doubles and helpers live under test/.',
      from: { path: '^(server|pipelines|graph|clients)/' }, to: { path: '^(test|bench)/' } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.tsx', '.js'] },
  },
};
