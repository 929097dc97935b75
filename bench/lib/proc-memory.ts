import { readFileSync } from 'node:fs';

/**
 * Where a Linux process's resident memory sits, from `/proc/<pid>/smaps` (all figures in MB):
 * - `arenas`: glibc malloc's per-thread arenas. Each is a heap of at most 64 MB reserved at a
 *   64 MB-aligned address (HEAP_MAX_SIZE on 64-bit), mapped read-write up to its top and `---p` past
 *   it; `arenaCount` counts them and `arenas` sums their resident part.
 * - `mainHeap`: the main arena (`[heap]`, brk).
 * - `otherAnon`: every other anonymous mapping (V8's heap, thread stacks, allocations above malloc's
 *   mmap threshold, onnxruntime's own big blocks).
 * - `file`: file-backed mappings (shared libraries, mapped model files).
 */
export interface MemoryBreakdown {
  rss: number;
  arenas: number;
  arenaCount: number;
  mainHeap: number;
  otherAnon: number;
  file: number;
}

const ARENA_BYTES = 64 * 1024 * 1024;

interface Mapping { start: bigint; end: bigint; perms: string; path: string; rssKb: number }

function parseSmaps(text: string): Mapping[] {
  const out: Mapping[] = [];
  let cur: Mapping | undefined;
  for (const line of text.split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S{4}) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      cur = { start: BigInt(`0x${head[1]}`), end: BigInt(`0x${head[2]}`), perms: head[3]!, path: head[4]!.trim(), rssKb: 0 };
      out.push(cur);
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && cur) cur.rssKb = Number(rss[1]);
  }
  return out;
}

/** The breakdown of one process (throws when `/proc/<pid>/smaps` cannot be read). */
export function memoryBreakdown(pid: number): MemoryBreakdown {
  const maps = parseSmaps(readFileSync(`/proc/${pid}/smaps`, 'utf8'));
  const b: MemoryBreakdown = { rss: 0, arenas: 0, arenaCount: 0, mainHeap: 0, otherAnon: 0, file: 0 };
  const arenaSize = BigInt(ARENA_BYTES);
  for (let i = 0; i < maps.length; i++) {
    const m = maps[i]!;
    const mb = m.rssKb / 1024;
    b.rss += mb;
    if (m.path === '[heap]') {
      b.mainHeap += mb;
    } else if (m.path === '' ) {
      // An arena heap: starts 64 MB-aligned, read-write, and with its `---p` tail (if any) spans exactly 64 MB.
      if (m.start % arenaSize === 0n && m.perms.startsWith('rw')) {
        const next = maps[i + 1];
        const tailEnd = next && next.path === '' && next.perms.startsWith('---') && next.start === m.end ? next.end : m.end;
        if (tailEnd - m.start === arenaSize) {
          b.arenas += mb;
          b.arenaCount += 1;
          continue;
        }
      }
      b.otherAnon += mb;
    } else if (m.path.startsWith('/')) {
      b.file += mb;
    } else {
      b.otherAnon += mb; // [stack], [vvar], [anon:…]
    }
  }
  return b;
}

/** One line: `rss 1228 = arenas 610 (12) + main heap 20 + other anon 420 + file 178`. */
export function formatBreakdown(b: MemoryBreakdown): string {
  const r = (x: number): string => x.toFixed(0);
  return `rss ${r(b.rss)} = arenas ${r(b.arenas)} (${b.arenaCount}) + main heap ${r(b.mainHeap)} + other anon ${r(b.otherAnon)} + file ${r(b.file)}`;
}
