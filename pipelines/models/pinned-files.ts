import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { findModel } from './manifest.js';

/** A file hashed in this process: its SHA-256, and the size, mtime and inode it had then. */
interface Hashed { size: number; mtimeMs: number; ino: number; sha256: string }

/** Files hashed so far, by path: configuration is read more than once per process (server, tests). */
const hashed = new Map<string, Hashed>();

/**
 * The SHA-256 of `file`, read in 1 MiB pieces. Synchronous, since configuration is resolved that way; a file
 * whose size, mtime and inode have not changed since it was last hashed is not read again.
 */
export function sha256FileSync(file: string): string {
  const st = statSync(file);
  const known = hashed.get(file);
  if (known && known.size === st.size && known.mtimeMs === st.mtimeMs && known.ino === st.ino) return known.sha256;
  const hash = createHash('sha256');
  const piece = Buffer.alloc(1 << 20);
  const fd = openSync(file, 'r');
  try {
    for (let n = readSync(fd, piece); n > 0; n = readSync(fd, piece)) hash.update(piece.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  const sha256 = hash.digest('hex');
  hashed.set(file, { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino, sha256 });
  return sha256;
}

/**
 * The SHA-256 the manifest pins for each file `models fetch` installs for model `name` (archive members, and
 * plain files with a published hash), by path under the model's folder; empty for a model it does not know.
 */
export function pinnedHashes(name: string): Map<string, string> {
  const pinned = new Map<string, string>();
  for (const file of findModel(name)?.files ?? []) {
    for (const m of file.members ?? []) pinned.set(m.path, m.sha256);
    if (!file.extract && file.sha256) pinned.set(file.path, file.sha256);
  }
  return pinned;
}

/**
 * Which of `files` (paths under `modelsDir/<name>`) are there but not as `models fetch` installed them: their
 * SHA-256 differs from the pinned one (a truncated download, a damaged disk, another export copied in), or they
 * cannot be read. Each is named with its size or why it cannot be read, for the operator's message. Files absent, or with no pinned hash, are not listed
 * (absence is the caller's to report).
 */
export function damagedFiles(modelsDir: string, name: string, files: readonly string[]): string[] {
  const pinned = pinnedHashes(name);
  const damaged: string[] = [];
  for (const file of files) {
    const expected = pinned.get(file);
    const full = path.join(modelsDir, name, file);
    let size: number;
    try {
      size = statSync(full).size;
    } catch {
      continue;
    }
    if (expected === undefined) continue;
    let actual: string;
    try {
      actual = sha256FileSync(full);
    } catch (err) {
      damaged.push(`${file}: unreadable, ${err instanceof Error ? err.message : String(err)}`);
      continue;
    }
    if (actual !== expected) damaged.push(`${file}: ${size} bytes, not the pinned SHA-256`);
  }
  return damaged;
}
