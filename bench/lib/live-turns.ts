import { fixtureSamples, loadAudioFixtures } from '../../pipelines/audio/fixtures.js';
import { encodeS16le } from '../../pipelines/audio/pcm-codecs.js';
import { TestWsClient } from '../../test/helpers/ws-client.js';

/** Percentile `p` (0–100) of `xs`, NaN when empty. */
export function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : (s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN);
}

/** One decimal, or `n/a`. */
export const f1 = (x: number): string => (Number.isFinite(x) ? x.toFixed(1) : 'n/a');

/** What the confirmed `memory.context` events of a live run showed. */
export interface LiveTurns {
  /** `ready_at_ms` of each confirmed context (relative to `vad.speech_stopped`). */
  ready: number[];
  /** Its `timings.search_ms`. */
  search: number[];
  speculative: number;
  /** Contexts ready after the end of turn, and of those how many had no partial transcript before it. */
  late: number;
  lateWithoutPartial: number;
  /** The fixtures' true texts of every spoken turn (for a baseline on the same questions). */
  texts: string[];
  /** Turns spoken. */
  expected: number;
}

const fixtures = (() => {
  let loaded: { f: ReturnType<typeof loadAudioFixtures>[number]; pcm: Buffer }[] | null = null;
  return () => (loaded ??= loadAudioFixtures().map((f) => ({ f, pcm: encodeS16le(fixtureSamples(f)) })));
})();

/**
 * `sessions` concurrent WebSocket sessions on `wsUrl` stream the fixture speech in real time
 * (100 ms frames of 16 kHz s16le, paced by the SDK), each `rounds` times in a row with 1.2 s of silence after each
 * round, then wait for the last contexts; returns the confirmed `memory.context` latencies.
 */
export async function streamLiveTurns(wsUrl: string, sessions: number, rounds: number, sessionPrefix: string): Promise<LiveTurns> {
  const out: LiveTurns = { ready: [], search: [], speculative: 0, late: 0, lateWithoutPartial: 0, texts: [], expected: 0 };
  const all = fixtures();
  await Promise.all(Array.from({ length: sessions }, async (_, i) => {
    const { f, pcm } = all[i % all.length]!;
    out.expected += rounds * f.utterances.length;
    for (let r = 0; r < rounds; r++) out.texts.push(...f.utterances.map((u) => u.text));
    // The SDK's pacer sends one 100 ms frame per 100 ms of wall-clock time.
    const ws = await TestWsClient.connect(`${wsUrl}/v1/stream?session_id=${sessionPrefix}-${sessions}-${i}&sample_rate=16000&encoding=pcm_s16le`, {}, {
      pacing: 'realtime', frameMs: 100,
    });
    await ws.next('session.started');
    const silence = Buffer.alloc(3200 * 12);
    ws.sendAudio(Buffer.concat(Array.from({ length: rounds }, () => [pcm, silence]).flat()));
    await ws.drained();
    await new Promise((r) => setTimeout(r, 3000 + 400 * sessions));
    for (const e of ws.events) {
      if (e.type === 'memory.context' && e.speculative === false && typeof e.ready_at_ms === 'number' && String(e.turn_id).startsWith('turn_')) {
        const stopped = ws.events.find((s) => s.type === 'vad.speech_stopped' && s.turn_id === e.turn_id);
        if (!stopped) continue;
        out.ready.push(e.ready_at_ms);
        if (e.ready_at_ms > 0) {
          out.late++;
          if (!ws.events.some((p) => p.type === 'transcript.partial' && p.turn_id === e.turn_id && p.seq < stopped.seq)) out.lateWithoutPartial++;
        }
        out.search.push((e.timings as { search_ms: number }).search_ms);
      }
      if (e.type === 'memory.context' && e.speculative === true) out.speculative++;
    }
    ws.close();
  }));
  return out;
}
