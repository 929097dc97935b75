import { mkdir, readdir, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ParleyError } from '../../graph/core/errors.js';
import { PIPELINE_SAMPLE_RATE } from './audio-format.js';
import { encodeWav } from './wav.js';
import { DAY_MS } from '../../graph/core/time.js';

/** Options of {@link AudioSpanStore}. */
export interface AudioSpanStoreOptions {
  /** Root data folder (`DATA_DIR`); spans go under `<dataDir>/audio/`. */
  dataDir: string;
  /** Keep spans this many days; 0 keeps none (nothing is written). */
  retentionDays: number;
}

const SAFE_SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

function segment(kind: string, value: string): string {
  if (!SAFE_SEGMENT.test(value) || value.includes('..')) {
    throw new ParleyError('PARLEY_ERR_BAD_REQUEST', `${kind} "${value}" cannot be used in a file name`);
  }
  return value;
}

/**
 * Keeps each utterance's audio as a 16-bit WAV at `<dataDir>/audio/<tenant>/<session>/<utterance>.wav`
 * for a configurable number of days, so speaker models can be re-run on evidence.
 */
export class AudioSpanStore {
  constructor(private readonly opts: AudioSpanStoreOptions) {}

  /**
   * Write a span.
   * @returns the path relative to `dataDir` (`audioRef`), or `null` when retention is 0 days.
   * @throws ParleyError `PARLEY_ERR_BAD_REQUEST` for ids that are not safe file names.
   */
  async write(tenant: string, session: string, utterance: string, samples: Float32Array,
    sampleRate: number = PIPELINE_SAMPLE_RATE): Promise<string | null> {
    const rel = path.join('audio', segment('tenant', tenant), segment('session', session), `${segment('utterance', utterance)}.wav`);
    if (this.opts.retentionDays <= 0) return null;
    const file = path.join(this.opts.dataDir, rel);
    const wav = encodeWav(samples, sampleRate);
    await mkdir(path.dirname(file), { recursive: true });
    try {
      await writeFile(file, wav);
    } catch (err) {
      // The session's folder was removed as left empty (`removeUtterances`) between the two steps: made again.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, wav);
    }
    return rel.split(path.sep).join('/');
  }

  /** Absolute path of an `audioRef`, refusing anything outside `<dataDir>/audio/`. */
  resolve(audioRef: string): string {
    const root = path.resolve(this.opts.dataDir, 'audio');
    const file = path.resolve(this.opts.dataDir, audioRef);
    if (!file.startsWith(root + path.sep)) throw new ParleyError('PARLEY_ERR_BAD_REQUEST', 'audio reference outside the audio store');
    return file;
  }

  /** Delete one span (e.g. when its participant is erased). */
  async remove(audioRef: string): Promise<void> {
    await rm(this.resolve(audioRef), { force: true });
  }

  /**
   * Delete the spans of these utterances in every session of `tenant` (their speaker was erased, or they were
   * forgotten), and a session's folder they leave empty.
   * @returns how many files were deleted.
   */
  async removeUtterances(tenant: string, utteranceIds: string[]): Promise<number> {
    const wanted = new Set(utteranceIds.map((id) => `${id}.wav`));
    const root = path.join(this.opts.dataDir, 'audio', segment('tenant', tenant));
    const sessions = await readdir(root, { withFileTypes: true }).catch(() => []);
    let removed = 0;
    for (const session of sessions.filter((d) => d.isDirectory())) {
      const dir = path.join(root, session.name);
      let here = 0;
      for (const file of await readdir(dir)) {
        if (!wanted.has(file)) continue;
        await rm(path.join(dir, file), { force: true });
        here += 1;
      }
      // A folder that still holds another span (or got one meanwhile) is not empty: rmdir refuses it.
      if (here > 0) await rmdir(dir).catch(() => undefined);
      removed += here;
    }
    return removed;
  }

  /**
   * Delete spans whose file is older than the retention and folders left empty.
   * @param nowMs wall-clock time to measure age against (ms since the epoch).
   * @returns how many files were deleted.
   */
  async sweep(nowMs: number = Date.now()): Promise<number> {
    const cutoff = nowMs - this.opts.retentionDays * DAY_MS;
    return sweepDir(path.join(this.opts.dataDir, 'audio'), cutoff, false);
  }
}

async function sweepDir(dir: string, cutoffMs: number, removeIfEmpty: boolean): Promise<number> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  let deleted = 0;
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) deleted += await sweepDir(p, cutoffMs, true);
    else if (e.isFile() && e.name.endsWith('.wav') && (await stat(p)).mtimeMs < cutoffMs) {
      await rm(p, { force: true });
      deleted++;
    }
  }
  if (removeIfEmpty) await rmdir(dir).catch(() => undefined);
  return deleted;
}
