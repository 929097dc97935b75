import { PIPELINE_SAMPLE_RATE } from './audio-format.js';

const SAMPLES_PER_MS = PIPELINE_SAMPLE_RATE / 1000;

/** Most spans one shed notice lists: a longer episode is reported in several notices. */
export const MAX_SPANS_PER_NOTICE = 100;

/**
 * Most spans kept for {@link ShedSpans.firstFrom} between stored turns: past it the two oldest are joined into one (the
 * audio between them, heard, counts as not stored: resending it is harmless), so a stream that sheds often and never
 * stores a turn holds a bounded list. What the `audio.shed` notices list is not joined.
 */
export const MAX_KEPT_SPANS = 256;

/** One stretch of shed audio, `[fromMs, untilMs)` on the stream clock. */
export interface ShedSpan { fromMs: number; untilMs: number }

/**
 * The audio one stream shed under overload, as spans on its clock: those of the current episode until they
 * are reported ({@link takeEpisode}), and all of them not yet forgotten, to say where the earliest audio not
 * heard after a point begins ({@link firstFrom}) until {@link forgetBefore} lets them go.
 */
export class ShedSpans {
  /** Spans not yet reported, samples, oldest first; adjacent shed frames extend the last one. */
  private episode: { from: number; until: number }[] = [];
  /** Spans kept for {@link firstFrom}, samples, oldest first. */
  private kept: { from: number; until: number }[] = [];

  /** `samples` of audio from stream sample `start` on were shed. */
  add(start: number, samples: number): void {
    for (const list of [this.episode, this.kept]) {
      const last = list[list.length - 1];
      if (last && last.until === start) last.until += samples;
      else list.push({ from: start, until: start + samples });
    }
    if (this.kept.length > MAX_KEPT_SPANS) {
      const [oldest, next] = this.kept.splice(0, 2) as [{ from: number; until: number }, { from: number; until: number }];
      this.kept.unshift({ from: oldest.from, until: next.until });
    }
  }

  /** How many spans are kept for {@link firstFrom} (at most {@link MAX_KEPT_SPANS}). */
  get keptCount(): number {
    return this.kept.length;
  }

  /** Spans of the episode not yet reported. */
  get pending(): number {
    return this.episode.length;
  }

  /** The spans not yet reported, in ms, oldest first (rounded outwards to whole ms); they count as reported. */
  takeEpisode(): ShedSpan[] {
    const spans = this.episode.map((s) => ({ fromMs: Math.floor(s.from / SAMPLES_PER_MS), untilMs: Math.ceil(s.until / SAMPLES_PER_MS) }));
    this.episode = [];
    return spans;
  }

  /**
   * Where the earliest shed audio at or after `fromMs` begins, ms (`fromMs` inside a span that straddles it); null when
   * none. Inside spans joined past {@link MAX_KEPT_SPANS}, `fromMs` itself: never later than the audio shed.
   */
  firstFrom(fromMs: number): number | null {
    const from = fromMs * SAMPLES_PER_MS;
    const first = this.kept.find((s) => s.until > from);
    return first ? Math.floor(Math.max(first.from, from) / SAMPLES_PER_MS) : null;
  }

  /** Forget the spans that end at or before `ms`: nothing will ask about audio before it again. */
  forgetBefore(ms: number): void {
    const keep = this.kept.findIndex((s) => s.until > ms * SAMPLES_PER_MS);
    this.kept = keep < 0 ? [] : this.kept.slice(keep);
  }
}
