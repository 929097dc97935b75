import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project root: the nearest folder at or above this file holding a package.json. Works from the source
 * tree and from any compiled output folder (dist/, .build-x/), so runtime files resolve the same way.
 */
export function repoRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('package.json not found above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
}

/**
 * Where downloaded models live: `dir` (the server's `MODELS_DIR`), else env `MODELS_DIR`, else `<repo>/models`;
 * a relative path is taken from the working directory. The server and the `models` command share this default.
 */
export function modelsDir(dir: string | undefined = process.env['MODELS_DIR']): string {
  return path.resolve(dir?.trim() ? dir : path.join(repoRoot(), 'models'));
}
