/**
 * Bundles the browser console (console/) into dist/console with esbuild: main.js (preact; the graph view's
 * cytoscape split into a chunk loaded when that view opens), pcm-worklet.js (the AudioWorklet), index.html
 * and console.css. Run by `npm run build` after tsc; nothing is fetched from outside the machine at run time.
 */
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { repoRoot } from '../pipelines/models/repo-root.js';

async function main(): Promise<void> {
  const root = repoRoot();
  const src = path.join(root, 'console');
  const out = path.join(root, 'dist', 'console');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const common = {
    bundle: true, minify: true, sourcemap: true, target: 'es2022', legalComments: 'linked', logLevel: 'warning',
  } as const;
  const app = await build({
    ...common,
    entryPoints: [path.join(src, 'main.tsx')],
    outdir: out, format: 'esm', splitting: true, chunkNames: 'chunks/[name]-[hash]',
    jsx: 'automatic', jsxImportSource: 'preact', metafile: true,
  });
  // The worklet runs in its own global scope: one self-contained classic script.
  await build({ ...common, entryPoints: [path.join(src, 'pcm-worklet.ts')], outfile: path.join(out, 'pcm-worklet.js'), format: 'iife' });
  for (const file of ['index.html', 'console.css']) copyFileSync(path.join(src, file), path.join(out, file));
  const sizes = Object.entries(app.metafile.outputs)
    .filter(([file]) => file.endsWith('.js'))
    .map(([file, o]) => `${path.relative(out, path.resolve(root, file))} ${(o.bytes / 1024).toFixed(0)} KiB`);
  console.log(`console built into ${path.relative(root, out)}: ${sizes.join(', ')}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
