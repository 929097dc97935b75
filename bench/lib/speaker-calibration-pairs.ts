/**
 * The score calibration pairs of the speaker decision (scripts/calibrate-speaker-decision.ts, bench/speaker-fuse.ts),
 * from turns already embedded out of fold.
 */
import { fitCalibration, type ScoreCalibration } from '../../pipelines/speaker/speaker-decision.js';
import { cosine, l2Normalise } from '../../pipelines/speaker/speaker-embedder.js';
import { seeded, type MeetingChunk } from './speaker-meeting.js';

/**
 * The score calibration of scripts/calibrate-speaker-decision.ts on turns already embedded (training speakers, each
 * condition's chunks): every turn and fragment against a same- and a different-speaker prototype of 1 and 3 other turns.
 */
export function calibrationPairs(conditions: Iterable<readonly MeetingChunk[]>): { cosine: number; seconds: number; same: boolean }[] {
  const rand = seeded(7);
  const pairs: { cosine: number; seconds: number; same: boolean }[] = [];
  for (const chunks of conditions) {
    for (const [n, c] of chunks.entries()) {
      const proto = (spk: string, k: number): Float32Array | null => {
        const pool = chunks.filter((o, m) => o.speaker === spk && m !== n);
        if (pool.length < k) return null;
        const sum = new Float32Array(c.whole.vector.length);
        for (let j = 0; j < k; j++) pool[Math.floor(rand() * pool.length)]!.whole.vector.forEach((v, i) => (sum[i] = sum[i]! + v));
        return l2Normalise(sum);
      };
      const others = [...new Set(chunks.map((o) => o.speaker))].filter((s) => s !== c.speaker);
      for (const item of [c.whole, ...c.fragments]) {
        for (const k of [1, 3]) {
          const same = proto(c.speaker, k);
          const diff = proto(others[Math.floor(rand() * others.length)]!, k);
          if (same) pairs.push({ cosine: cosine(item.vector, same), seconds: item.seconds, same: true });
          if (diff) pairs.push({ cosine: cosine(item.vector, diff), seconds: item.seconds, same: false });
        }
      }
    }
  }
  return pairs;
}

/** The fitted score calibration of `calibrationPairs`. */
export function fitPairsCalibration(conditions: Iterable<readonly MeetingChunk[]>): ScoreCalibration {
  return fitCalibration(calibrationPairs(conditions));
}
