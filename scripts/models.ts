/**
 * `models` command: `node dist/scripts/models.js list | fetch <name> [--allow-unverified] | verify [name]`.
 * Installs into `MODELS_DIR` (default `./models`). A file without a pinned hash is installed only with
 * `--allow-unverified`; its SHA-256 is printed and recorded in `<model>/SHA256SUMS.first-fetch`, and
 * `verify` holds the copy to that record from then on. A model shipped in a Maven jar is fetched with
 * `mvn`, or from the repository whose base URL `PARLEY_MAVEN_REPOSITORY` gives. `verify` exits non-zero
 * for an unknown name (2) and for a missing, partial or corrupt model (1).
 */
import { MODEL_MANIFEST, findModel } from '../pipelines/models/manifest.js';
import { fetchModel, verifyModel } from '../pipelines/models/model-downloader.js';
import { modelsDir } from '../pipelines/models/repo-root.js';

function progressBar(label: string, received: number, total: number | undefined): void {
  const mb = (n: number): string => (n / 1048576).toFixed(1);
  const width = 30;
  const bar = total ? '#'.repeat(Math.round((received / total) * width)).padEnd(width, '.') : '?'.repeat(width);
  process.stderr.write(`\r${label} [${bar}] ${mb(received)}${total ? '/' + mb(total) : ''} MB`);
}

/**
 * `verify [name]`: re-hash installed files. Named, the model must be installed and intact; without a
 * name, every installed model must be intact and models with no file at all are listed as not installed.
 * Exit 0 when all is well, 1 for a missing, partial or corrupt model, 2 for a name not in the manifest.
 */
async function verify(name: string | undefined, dir: string): Promise<number> {
  const model = name === undefined ? undefined : findModel(name);
  if (name !== undefined && !model) {
    process.stderr.write(`unknown model "${name}"; known: ${MODEL_MANIFEST.map((m) => m.name).join(', ')}\n`);
    return 2;
  }
  const problems: string[] = [];
  for (const m of model ? [model] : MODEL_MANIFEST) {
    const results = await verifyModel(m, dir);
    if (!model && results.every((r) => r.status === 'missing')) {
      process.stdout.write(`${m.name}: not installed\n`);
      continue;
    }
    if (results.every((r) => r.status === 'missing')) {
      problems.push(`${m.name} is not installed in ${dir}`);
      continue;
    }
    for (const r of results) {
      process.stdout.write(`${m.name}/${r.path}: ${r.status}${r.sha256 ? ' ' + r.sha256 : ''}\n`);
      if (r.status === 'missing') problems.push(`${m.name}/${r.path} is missing from ${dir}`);
      if (r.status === 'mismatch') problems.push(`${m.name}/${r.path} does not match its SHA-256 (corrupt or replaced)`);
    }
  }
  if (problems.length === 0) return 0;
  for (const p of problems) process.stderr.write(`${p}\n`);
  process.stderr.write(`install it with: npm run models -- fetch ${model?.name ?? '<name>'}\n`);
  return 1;
}

async function main(argv: string[]): Promise<number> {
  const [cmd, name] = argv.filter((a) => !a.startsWith('--'));
  const dir = modelsDir();
  if (cmd === 'list') {
    for (const m of MODEL_MANIFEST) {
      const results = await verifyModel(m, dir);
      const installed = results.every((r) => r.status === 'ok' || r.status === 'recorded' || r.status === 'unverified');
      process.stdout.write(`${m.name.padEnd(30)} ${installed ? 'installed' : 'not installed'}  ${m.description}\n`);
    }
    return 0;
  }
  if (cmd === 'fetch' && name) {
    const model = findModel(name);
    if (!model) { process.stderr.write(`unknown model "${name}"; see \`models list\`\n`); return 2; }
    let last = 0;
    const target = await fetchModel(model, {
      modelsDir: dir,
      allowUnverified: argv.includes('--allow-unverified'),
      onProgress: (f, r, t) => { const now = Date.now(); if (now - last > 200 || r === t) { last = now; progressBar(f.path, r, t); } },
      onNotice: (msg) => process.stderr.write(`\n${msg}\n`),
      ...(process.env.PARLEY_MAVEN_REPOSITORY?.trim() ? { mavenRepository: process.env.PARLEY_MAVEN_REPOSITORY.trim() } : {}),
    });
    process.stderr.write('\n');
    process.stdout.write(`installed ${model.name} in ${target}\n`);
    return 0;
  }
  if (cmd === 'verify') return verify(name, dir);
  process.stderr.write('usage: models list | fetch <name> [--allow-unverified] | verify [name]\n');
  return 2;
}

main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (err: unknown) => {
  process.stderr.write(`\n${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
