import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { appendFile, mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import AdmZip from 'adm-zip';
import type { ArchiveMember, ModelEntry, ModelFile } from './manifest.js';
import { fetchJarWithMaven, mavenJarUrl, parseMavenUrl } from './maven-artifact.js';

const run = promisify(execFile);

/** Options of {@link fetchModel}. */
export interface FetchOptions {
  /** Root folder; the model goes to `<modelsDir>/<name>/`. */
  modelsDir: string;
  /** Install files whose manifest hash is `null` (the computed hash is reported). */
  allowUnverified?: boolean;
  /** Progress sink, e.g. a progress bar on stderr. */
  onProgress?: (file: ModelFile, receivedBytes: number, totalBytes: number | undefined) => void;
  /** Notices such as the computed hash of an unverified file. */
  onNotice?: (message: string) => void;
  /**
   * Base URL of a Maven repository (standard layout) to download `maven:` files from; without it
   * they are fetched with the `mvn` client. `models` passes `PARLEY_MAVEN_REPOSITORY`.
   */
  mavenRepository?: string;
  signal?: AbortSignal;
}

/** SHA-256 of a file, lower-case hex. */
export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

async function sizeOf(file: string): Promise<number> {
  try {
    return (await stat(file)).size;
  } catch {
    return 0;
  }
}

/**
 * Download one URL into `dest + '.part'`, resuming from the bytes already there with an HTTP Range
 * request (a server that ignores Range restarts the file).
 */
export async function downloadResumable(url: string, partFile: string, opts: {
  onProgress?: (received: number, total: number | undefined) => void; signal?: AbortSignal;
} = {}): Promise<void> {
  const have = await sizeOf(partFile);
  let res: Response;
  try {
    res = await fetch(url, { headers: have > 0 ? { range: `bytes=${have}-` } : {}, signal: opts.signal ?? null, redirect: 'follow' });
  } catch (err) {
    const cause = err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : '';
    throw new Error(`cannot reach ${new URL(url).host} to download ${url}${cause}`, { cause: err });
  }
  if (res.status === 416 && have > 0) return; // already complete
  if (!res.ok || !res.body) throw new Error(`download of ${url} failed: HTTP ${res.status}`);
  const resumed = res.status === 206;
  const start = resumed ? have : 0;
  const length = Number(res.headers.get('content-length') ?? NaN);
  const total = Number.isFinite(length) ? start + length : undefined;
  let received = start;
  const body = Readable.fromWeb(res.body as import('node:stream/web').ReadableStream<Uint8Array>);
  const out = createWriteStream(partFile, { flags: resumed ? 'a' : 'w' });
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      received += chunk.length;
      opts.onProgress?.(received, total);
      if (!out.write(chunk)) await once(out, 'drain');
    }
  } finally {
    // Flush every byte received, also when the connection broke: the next attempt resumes after them.
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  }
  if (total !== undefined && received < total) throw new Error(`download of ${url} was cut at ${received} of ${total} bytes`);
}

/**
 * Fetch every file of `model` into `<modelsDir>/<name>/`: resumable download to `.part`, SHA-256 check,
 * atomic rename, optional extraction (tar.bz2 / tar.gz whole or only their listed members; a zip's listed
 * members), each listed member checked against its own hash. Files already present with the right hash
 * (for an archive with members: every member) are skipped.
 * @throws Error on a hash mismatch (the `.part` file is deleted) or an unverified file without `allowUnverified`.
 */
export async function fetchModel(model: ModelEntry, opts: FetchOptions): Promise<string> {
  const dir = path.join(opts.modelsDir, model.name);
  await mkdir(dir, { recursive: true });
  const sums = await recordedSums(dir);
  for (const file of model.files) {
    const dest = path.join(dir, file.path);
    const expected = file.sha256 ?? sums.get(file.path);
    if (!file.extract && expected && (await sizeOf(dest)) > 0 && (await sha256File(dest)) === expected) continue;
    if (file.members && (await Promise.all(file.members.map((m) => memberStatus(dir, m)))).every((st) => st === 'ok')) continue;
    if (await adoptFormer(dir, file, dest)) continue;
    const part = dest + '.part';
    await mkdir(path.dirname(dest), { recursive: true });
    const maven = parseMavenUrl(file.url);
    if (maven && !opts.mavenRepository) await fetchJarWithMaven(maven, part, opts.signal);
    else {
      await downloadResumable(maven ? mavenJarUrl(opts.mavenRepository!, maven) : file.url, part, {
        onProgress: (r, t) => opts.onProgress?.(file, r, t),
        ...(opts.signal ? { signal: opts.signal } : {}),
      });
    }
    const actual = await sha256File(part);
    if (file.sha256 === null) {
      opts.onNotice?.(`${file.path}: no published SHA-256; computed ${actual}`);
      if (!opts.allowUnverified) {
        await rm(part, { force: true });
        throw new Error(`${model.name}/${file.path} has no pinned SHA-256 (computed ${actual}); re-run with --allow-unverified to install it anyway`);
      }
      // Trust on first use: the printed hash is recorded, and `models verify` holds later copies to it.
      await appendFile(path.join(dir, SUMS_FILE), `${actual}  ${file.path}\n`);
    } else if (actual !== file.sha256) {
      await rm(part, { force: true });
      throw new Error(`${model.name}/${file.path}: SHA-256 mismatch (expected ${file.sha256}, got ${actual}); the download was deleted`);
    }
    await rename(part, dest);
    if (file.extract === 'zip') {
      await extractMembers(model.name, dir, file, dest);
      await rm(dest, { force: true });
    } else if (file.extract) await extract(dir, dest, file.extract, file.members);
  }
  return dir;
}

/**
 * Install a verified zip's listed members: each is checked against its own hash before it is written
 * (`.part`, then renamed). @throws Error on a missing entry or a mismatch (nothing of that member is installed).
 */
async function extractMembers(modelName: string, dir: string, file: ModelFile, archive: string): Promise<void> {
  if (!file.members?.length) throw new Error(`${modelName}/${file.path}: a zip file needs the members to install`);
  let zip: AdmZip;
  try {
    zip = new AdmZip(archive);
  } catch (err) {
    throw new Error(`${modelName}/${file.path} is not a readable zip archive (${(err as Error).message})`, { cause: err });
  }
  for (const m of file.members) {
    const entry = zip.getEntry(m.from);
    if (!entry || entry.isDirectory) throw new Error(`${modelName}/${file.path} has no entry ${m.from}`);
    const data = entry.getData();
    const actual = createHash('sha256').update(data).digest('hex');
    if (actual !== m.sha256) throw new Error(`${modelName}/${m.path} (${m.from} in ${file.path}): SHA-256 mismatch (expected ${m.sha256}, got ${actual}); not installed`);
    const dest = path.join(dir, m.path);
    await mkdir(path.dirname(dest), { recursive: true });
    await writeFile(dest + '.part', data);
    await rename(dest + '.part', dest);
  }
}

/** Unpack `archive` into `dir` (only `members`, moved to their paths, when given), then delete it. */
async function extract(dir: string, archive: string, kind: 'tar.bz2' | 'tar.gz', members: ArchiveMember[] | undefined): Promise<void> {
  const flag = kind === 'tar.bz2' ? '-xjf' : '-xzf';
  if (!members) {
    await run('tar', [flag, archive, '-C', dir]);
    await rm(archive, { force: true });
    return;
  }
  const tmp = await mkdtemp(path.join(dir, '.extract-'));
  try {
    await run('tar', [flag, archive, '-C', tmp, '--', ...members.map((m) => m.from)]);
    for (const m of members) {
      const actual = await sha256File(path.join(tmp, m.from));
      if (actual !== m.sha256) throw new Error(`${path.basename(archive)}: ${m.from}: SHA-256 mismatch (expected ${m.sha256}, got ${actual})`);
    }
    for (const m of members) {
      await mkdir(path.dirname(path.join(dir, m.path)), { recursive: true });
      await rename(path.join(tmp, m.from), path.join(dir, m.path));
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
    await rm(archive, { force: true });
  }
}

/** Whether an archive member is installed with its pinned hash. */
async function memberStatus(dir: string, m: ArchiveMember): Promise<'ok' | 'missing' | 'mismatch'> {
  const file = path.join(dir, m.path);
  if ((await sizeOf(file)) === 0) return 'missing';
  return (await sha256File(file)) === m.sha256 ? 'ok' : 'mismatch';
}

/** Move a verified copy saved under a former name to `dest`; true when one was adopted. */
async function adoptFormer(dir: string, file: ModelFile, dest: string): Promise<boolean> {
  if (!file.sha256 || file.extract) return false;
  for (const former of file.formerPaths ?? []) {
    const old = path.join(dir, former);
    if ((await sizeOf(old)) > 0 && (await sha256File(old)) === file.sha256) {
      await rename(old, dest);
      return true;
    }
  }
  return false;
}

/** Per-model file recording the hashes of files installed without a pinned one (`sha256sum` format). */
export const SUMS_FILE = 'SHA256SUMS.first-fetch';

/** Hashes recorded at first fetch, by file path (the last record of a path wins). */
async function recordedSums(dir: string): Promise<Map<string, string>> {
  const text = await readFile(path.join(dir, SUMS_FILE), 'utf8').catch(() => '');
  const sums = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /^([0-9a-f]{64}) {2}(.+)$/.exec(line);
    if (m) sums.set(m[2]!, m[1]!);
  }
  return sums;
}

/**
 * Per-file verification result of an installed model: `ok` against the manifest's pinned hash,
 * `recorded` against the hash recorded at its first (unverified) fetch, `unverified` when neither exists.
 */
export interface VerifyResult { path: string; status: 'ok' | 'recorded' | 'missing' | 'mismatch' | 'unverified'; sha256?: string }

/**
 * Re-hash an installed model's files against the manifest or the first-fetch record; an archive's listed
 * members are checked against their own hashes, a wholly unpacked archive is `unverified`.
 */
export async function verifyModel(model: ModelEntry, modelsDir: string): Promise<VerifyResult[]> {
  const out: VerifyResult[] = [];
  const sums = await recordedSums(path.join(modelsDir, model.name));
  for (const file of model.files) {
    const dest = path.join(modelsDir, model.name, file.path);
    if (file.members) {
      for (const m of file.members) {
        const st = await memberStatus(path.join(modelsDir, model.name), m);
        out.push({ path: m.path, status: st, ...(st === 'mismatch' ? { sha256: await sha256File(path.join(modelsDir, model.name, m.path)) } : {}) });
      }
      continue;
    }
    if (file.extract) {
      out.push({ path: file.path, status: (await sizeOf(path.join(modelsDir, model.name))) > 0 ? 'unverified' : 'missing' });
      continue;
    }
    if ((await sizeOf(dest)) === 0) { out.push({ path: file.path, status: 'missing' }); continue; }
    const sha256 = await sha256File(dest);
    const expected = file.sha256 ?? sums.get(file.path) ?? null;
    const status = expected === null ? 'unverified' : sha256 !== expected ? 'mismatch' : file.sha256 ? 'ok' : 'recorded';
    out.push({ path: file.path, sha256, status });
  }
  return out;
}
