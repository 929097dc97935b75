import { spawn } from 'node:child_process';

/**
 * Letter-to-sound for names the decoder's dictionary lacks ("kwame", "tomasz"), from Debian's festival:
 * its CMU lexicon (cmudict 0.4) for words it holds, its letter-to-sound rules trained on that lexicon for
 * the rest. One `festival --pipe` process per batch of words, run in the background; each word's answer
 * is cached, so a turn never waits for festival: it spots the names known now, later turns the rest.
 */

/**
 * Festival's "radio" phone set (the CMU lexicon's) to the CMU / pocketsphinx en-us phones. Most are the
 * same phone in lower case; festival's extra reduced and syllabic phones become their CMU spellings
 * (cmudict writes schwa as AH and a syllabic l as AH L), the flap `dx` becomes T (cmudict spells
 * "butter" with T) and pauses are dropped. Any other phone rejects the word.
 */
export const FESTIVAL_TO_CMU: Readonly<Record<string, readonly string[]>> = {
  ...Object.fromEntries(['aa', 'ae', 'ah', 'ao', 'aw', 'ay', 'b', 'ch', 'd', 'dh', 'eh', 'er', 'ey', 'f', 'g', 'hh',
    'ih', 'iy', 'jh', 'k', 'l', 'm', 'n', 'ng', 'ow', 'oy', 'p', 'r', 's', 'sh', 't', 'th', 'uh', 'uw', 'v', 'w', 'y',
    'z', 'zh'].map((p) => [p, [p.toUpperCase()]])),
  ax: ['AH'], axr: ['ER'], dx: ['T'], el: ['AH', 'L'], em: ['AH', 'M'], en: ['AH', 'N'], hv: ['HH'], nx: ['N'],
  pau: [], 'h#': [], brth: [],
};

/**
 * Festival phones (stress digits allowed: `ey1`) as CMU phones; null when one has no CMU counterpart or
 * nothing speakable is left.
 */
export function festivalToCmu(phones: readonly string[]): string[] | null {
  const out: string[] = [];
  for (const raw of phones) {
    const mapped = FESTIVAL_TO_CMU[raw.toLowerCase().replace(/[0-9]+$/, '')];
    if (!mapped) return null;
    out.push(...mapped);
  }
  return out.length > 0 ? out : null;
}

/** Words festival is asked about: plain lower-case letters (also keeps the Scheme program well formed). */
export const isLookupWord = (w: string): boolean => /^[a-z]{1,40}$/.test(w);

/**
 * The phones of each word in festival's `(print (lex.lookup …))` output, one entry per line:
 * `("kwame" nil (((k w ey m) 1)))` → kwame: K W EY M. Lines that are not entries are ignored.
 */
export function parseLexLookups(output: string): Map<string, string[] | null> {
  const out = new Map<string, string[] | null>();
  for (const line of output.split('\n')) {
    const m = /^\("([a-z]+)" \S+ \((.*)\)\)\s*$/.exec(line.trim());
    if (!m) continue;
    const phones = [...m[2]!.matchAll(/\(\(([a-z0-9# ]+)\) [0-9]\)/g)].flatMap((s) => s[1]!.trim().split(/\s+/));
    out.set(m[1]!, festivalToCmu(phones));
  }
  return out;
}

/** Options of {@link FestivalG2p}. */
export interface FestivalG2pOptions {
  /** The festival executable. Default `festival` (on PATH). */
  command?: string;
  /** Most words asked in one festival process. Default 200. */
  batchSize?: number;
  /** A festival process still running after this long is killed (its words get no pronunciation). Default 30000 ms. */
  timeoutMs?: number;
  /** Called once when festival cannot be run; later words are not looked up. */
  onUnavailable?: (reason: string) => void;
}

/**
 * Festival pronunciations in CMU phones, cached per word (null: festival had none). `request` queues
 * words and returns at once; `get` reads the cache. Batches run one at a time.
 */
export class FestivalG2p {
  private readonly cache = new Map<string, string[] | null>();
  private readonly queued = new Set<string>();
  /** Words of the batch festival is answering now. */
  private readonly inFlight = new Set<string>();
  private running: Promise<void> | undefined;
  private unavailable = false;
  private closed = false;
  private readonly options: Required<Omit<FestivalG2pOptions, 'onUnavailable'>> & Pick<FestivalG2pOptions, 'onUnavailable'>;

  constructor(options: FestivalG2pOptions = {}) {
    this.options = { command: 'festival', batchSize: 200, timeoutMs: 30000, ...options };
  }

  /** The cached pronunciation: phones, null when festival gave none, undefined when not (yet) known. */
  get(word: string): string[] | null | undefined {
    return this.cache.get(word);
  }

  /** False once festival failed to run. */
  get available(): boolean {
    return !this.unavailable;
  }

  /** Queue words for lookup (those not cached nor queued); resolves when the queue has been drained. */
  request(words: Iterable<string>): Promise<void> {
    if (this.unavailable || this.closed) return Promise.resolve();
    for (const w of words) if (isLookupWord(w) && !this.cache.has(w) && !this.inFlight.has(w)) this.queued.add(w);
    if (this.queued.size === 0) return this.running ?? Promise.resolve();
    this.running ??= this.drain().finally(() => { this.running = undefined; });
    return this.running;
  }

  /** Stop looking up (a batch in flight finishes into the cache). */
  close(): void {
    this.closed = true;
    this.queued.clear();
  }

  private async drain(): Promise<void> {
    while (this.queued.size > 0 && !this.unavailable && !this.closed) {
      const batch = [...this.queued].slice(0, this.options.batchSize);
      for (const w of batch) {
        this.queued.delete(w);
        this.inFlight.add(w);
      }
      let found: Map<string, string[] | null>;
      try {
        found = parseLexLookups(await this.run(batch));
      } catch (err) {
        this.inFlight.clear();
        this.unavailable = true;
        this.queued.clear();
        this.options.onUnavailable?.(err instanceof Error ? err.message : String(err));
        return;
      }
      if (this.cache.size > 50000) this.cache.clear();
      for (const w of batch) this.cache.set(w, found.get(w) ?? null);
      this.inFlight.clear();
    }
  }

  /** One festival process over `words`; its standard output. Rejects when festival cannot start or fails. */
  private run(words: readonly string[]): Promise<string> {
    // lex.select keeps the CMU lexicon (and its letter-to-sound rules) whatever the default voice is.
    const program = `(lex.select "cmu")\n${words.map((w) => `(print (lex.lookup "${w}" nil))`).join('\n')}\n`;
    return new Promise((resolve, reject) => {
      const child = spawn(this.options.command, ['--pipe'], { stdio: ['pipe', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      const timer = setTimeout(() => child.kill('SIGKILL'), this.options.timeoutMs);
      child.stdout.setEncoding('utf8').on('data', (d: string) => { out += d; });
      child.stderr.setEncoding('utf8').on('data', (d: string) => { err += d; });
      child.on('error', (e) => { clearTimeout(timer); reject(e); });
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        if (code === 0) resolve(out);
        else reject(new Error(`${this.options.command} exited with ${signal ?? code}: ${err.trim().slice(0, 200)}`));
      });
      child.stdin.on('error', () => { /* reported by 'error' or 'close' */ });
      child.stdin.end(program);
    });
  }
}
