import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A jar's coordinates in a Maven repository. */
export interface MavenCoordinates { group: string; artifact: string; version: string }

const PART = /^[A-Za-z0-9_.-]+$/;

/**
 * `maven:GROUP:ARTIFACT:VERSION` → its coordinates; null for any other URL.
 * @throws Error when the URL starts with `maven:` but is not three plain parts.
 */
export function parseMavenUrl(url: string): MavenCoordinates | null {
  if (!url.startsWith('maven:')) return null;
  const parts = url.slice('maven:'.length).split(':');
  if (parts.length !== 3 || !parts.every((p) => PART.test(p))) {
    throw new Error(`${JSON.stringify(url)} is not maven:GROUP:ARTIFACT:VERSION`);
  }
  const [group, artifact, version] = parts as [string, string, string];
  return { group, artifact, version };
}

/** Where the jar lies in a repository of Maven's standard layout whose base URL is `base`. */
export function mavenJarUrl(base: string, c: MavenCoordinates): string {
  return `${base.replace(/\/+$/, '')}/${c.group.replaceAll('.', '/')}/${c.artifact}/${c.version}/${c.artifact}-${c.version}.jar`;
}

/**
 * Fetch the jar with the `mvn` client (its own repositories and settings) into `dest`. The caller
 * verifies the hash.
 * @throws Error naming the alternatives when `mvn` is not installed, or with Maven's output when it fails.
 */
export async function fetchJarWithMaven(c: MavenCoordinates, dest: string, signal?: AbortSignal): Promise<void> {
  const tmp = await mkdtemp(path.join(path.dirname(dest), '.mvn-'));
  try {
    await run('mvn', ['-q', '-B', 'dependency:copy', `-Dartifact=${c.group}:${c.artifact}:${c.version}:jar`, `-DoutputDirectory=${tmp}`],
      { cwd: tmp, maxBuffer: 16 << 20, ...(signal ? { signal } : {}) });
    const [jar] = (await readdir(tmp)).filter((f) => f.endsWith('.jar'));
    if (!jar) throw new Error(`mvn copied no jar for ${c.group}:${c.artifact}:${c.version}`);
    await rename(path.join(tmp, jar), dest);
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stdout?: string; stderr?: string };
    if (e.code === 'ENOENT') {
      throw new Error(`fetching ${c.group}:${c.artifact}:${c.version} needs Maven (mvn), or PARLEY_MAVEN_REPOSITORY set to the base URL of a Maven repository`, { cause: err });
    }
    const said = `${e.stdout ?? ''}${e.stderr ?? ''}`.trim().split('\n').slice(-5).join('\n');
    throw new Error(`mvn could not fetch ${c.group}:${c.artifact}:${c.version}${said ? `:\n${said}` : ''}`, { cause: err });
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
