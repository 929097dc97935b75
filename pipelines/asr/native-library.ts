import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';

/** What this process can tell about one shared library it has loaded. */
export interface NativeLibrary {
  /** The file mapped into the process (symlinks resolved); undefined when no mapping of that name is found. */
  readonly file: string | undefined;
  /** The file's ELF `DT_SONAME`; undefined when it has none or the file cannot be read. */
  readonly soname: string | undefined;
  /** Version of the Debian package that installed the file; undefined when dpkg does not list it. */
  readonly version: string | undefined;
}

const DPKG = '/var/lib/dpkg';

/**
 * Identify the loaded library whose file name starts with `stem` (`libpocketsphinx` finds
 * `libpocketsphinx.so.3.0.0`) from the process's memory mappings, not from the name it was asked for:
 * a file named `libpocketsphinx.so.3` may be any build.
 */
export function loadedLibrary(stem: string): NativeLibrary {
  const file = mappedFile(stem);
  return { file, soname: file ? elfSoname(file) : undefined, version: file ? dpkgVersion(file) : undefined };
}

function mappedFile(stem: string): string | undefined {
  let maps: string;
  try {
    maps = readFileSync('/proc/self/maps', 'utf8');
  } catch {
    return undefined;
  }
  for (const line of maps.split('\n')) {
    const at = line.indexOf('/');
    if (at < 0 || !path.basename(line.slice(at)).startsWith(`${stem}.so`)) continue;
    try {
      return realpathSync(line.slice(at));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** `DT_SONAME` of an ELF64 little-endian file, from its `.dynamic` section and the string table it links to. */
export function elfSoname(file: string): string | undefined {
  try {
    const b = readFileSync(file);
    if (b.readUInt32BE(0) !== 0x7f454c46 || b[4] !== 2 || b[5] !== 1) return undefined;
    const shoff = Number(b.readBigUInt64LE(0x28));
    const shentsize = b.readUInt16LE(0x3a);
    const shnum = b.readUInt16LE(0x3c);
    for (let i = 0; i < shnum; i++) {
      const sh = shoff + i * shentsize;
      if (b.readUInt32LE(sh + 4) !== 6) continue; // SHT_DYNAMIC
      const off = Number(b.readBigUInt64LE(sh + 0x18));
      const size = Number(b.readBigUInt64LE(sh + 0x20));
      const strtab = Number(b.readBigUInt64LE(shoff + b.readUInt32LE(sh + 0x28) * shentsize + 0x18));
      for (let e = off; e + 16 <= off + size; e += 16) {
        const tag = b.readBigInt64LE(e);
        if (tag === 0n) break; // DT_NULL
        if (tag !== 14n) continue; // DT_SONAME
        const start = strtab + Number(b.readBigUInt64LE(e + 8));
        return b.toString('latin1', start, b.indexOf(0, start));
      }
    }
  } catch {
    // Unreadable or truncated: no soname known.
  }
  return undefined;
}

/** The version of the dpkg package whose file list names `file` (compared after resolving symlinks). */
function dpkgVersion(file: string): string | undefined {
  const stem = path.basename(file).replace(/\.so(\..*)?$/, '');
  let lists: string[];
  try {
    lists = readdirSync(path.join(DPKG, 'info')).filter((n) => n.startsWith(stem) && n.endsWith('.list'));
  } catch {
    return undefined;
  }
  for (const list of lists) {
    let text: string;
    try {
      text = readFileSync(path.join(DPKG, 'info', list), 'utf8');
    } catch {
      continue; // removed or renamed by a dpkg run since the listing, or unreadable: only a version probe, never a load failure
    }
    const listed = text.split('\n')
      .filter((p) => path.basename(p) === path.basename(file) || path.basename(p).startsWith(`${stem}.so`));
    if (!listed.some((p) => resolves(p, file))) continue;
    const [pkg, arch] = list.slice(0, -'.list'.length).split(':');
    return statusVersion(pkg!, arch);
  }
  return undefined;
}

function resolves(p: string, file: string): boolean {
  try {
    return realpathSync(p) === file;
  } catch {
    return false;
  }
}

function statusVersion(pkg: string, arch: string | undefined): string | undefined {
  let status: string;
  try {
    status = readFileSync(path.join(DPKG, 'status'), 'utf8');
  } catch {
    return undefined;
  }
  for (const para of status.split('\n\n')) {
    const field = (name: string): string | undefined => new RegExp(`^${name}: (.*)$`, 'm').exec(para)?.[1];
    if (field('Package') === pkg && (!arch || field('Architecture') === arch)) return field('Version');
  }
  return undefined;
}
