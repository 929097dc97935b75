// `node scripts/launch.mjs <entry under dist/>`: run a built Parley program in this very process, so
// that it starts at once and gets its signals directly (`npm start`, `npm run worker`, `npm run -s mcp`
// run it with `exec`: no shell or build step sits between npm and node). Plain JavaScript because it must
// run when dist/ is missing. It never builds: a program missing from dist/ stops here naming
// `npm run build`, and sources newer than the build are reported on stderr (the program still starts).
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entry = process.argv[2];
if (!entry) {
  process.stderr.write('usage: node scripts/launch.mjs <program under dist/, e.g. server/worker.js>\n');
  process.exit(2);
}
const built = path.join(root, 'dist', entry);
if (!existsSync(built)) {
  process.stderr.write(`parley: ${path.relative(root, built)} is not built: run \`npm run build\` first (again after every update)\n`);
  process.exit(1);
}

/** The newest TypeScript source the programs are built from: [path, mtime ms]. */
function newestSource(dir, newest = ['', 0]) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return newest;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) newestSource(p, newest);
    else if (e.name.endsWith('.ts')) {
      const mtime = statSync(p).mtimeMs;
      if (mtime > newest[1]) newest.splice(0, 2, p, mtime);
    }
  }
  return newest;
}

// tsc rewrites every output on each build, so a source newer than the program means an old build.
const builtAt = statSync(built).mtimeMs;
for (const dir of ['server', 'pipelines', 'graph']) {
  const [source, mtime] = newestSource(path.join(root, dir));
  if (mtime > builtAt) {
    process.stderr.write(`parley: warning: ${path.relative(root, source)} is newer than dist/: run \`npm run build\` to run the current code\n`);
    break;
  }
}
// Run by npm (`npm start`, `npm run worker`…): npm passes SIGINT and SIGTERM on to this process, but a
// SIGKILL of npm (`kill -9`, the OOM killer) cannot be passed on, and this process would go on under init,
// holding its port. So once npm is gone (this process's parent changes), it shuts down as on SIGTERM.
if (process.env.npm_lifecycle_event) {
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    process.stderr.write(`parley: npm (pid ${parent}) is gone; shutting down as on SIGTERM\n`);
    process.kill(process.pid, 'SIGTERM');
  }, 1000);
  watch.unref();
}
process.argv.splice(1, 2, built);
await import(pathToFileURL(built).href);
