import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_RESUME_TOTAL_MS, ResumeSchedule } from '../../clients/typescript/src/resume-policy.js';
import { resendFrom, SentAudio } from '../../clients/typescript/src/sent-audio.js';
import { ParleyError } from '../../clients/typescript/src/errors.js';

const frame = (n: number): { kind: 'audio'; data: Uint8Array; ms: number } => ({ kind: 'audio', data: new Uint8Array([n]), ms: 20 });

test('SentAudio: keeps the last keepMs of sent audio and resends from the named offset on a new clock', () => {
  const sent = new SentAudio(100);
  for (let i = 0; i < 10; i++) sent.record(frame(i)); // 0–200 ms; 100–200 kept
  // 150 ms falls in the frame 140–160: it goes again, with every later one.
  assert.deepEqual(sent.takeFrom(150).map((f) => f.data[0]), [7, 8, 9]);
  assert.equal(sent.resentMs, 60);
  assert.equal(sent.lostMs, 0);
  // The next server's clock starts at the first frame sent to it.
  for (let i = 10; i < 13; i++) sent.record(frame(i));
  assert.deepEqual(sent.takeFrom(20).map((f) => f.data[0]), [11, 12]);
});

test('SentAudio: audio named but no longer kept is counted as lost; null names nothing; 0 keeps nothing', () => {
  const sent = new SentAudio(40);
  for (let i = 0; i < 5; i++) sent.record(frame(i)); // 0–100 ms; 60–100 kept
  assert.deepEqual(sent.takeFrom(20).map((f) => f.data[0]), [3, 4]);
  assert.equal(sent.lostMs, 40, '20–60 ms had left the buffer');
  sent.record(frame(5));
  assert.deepEqual(sent.takeFrom(null), []);
  const none = new SentAudio(0);
  none.record(frame(0));
  assert.deepEqual(none.takeFrom(0), []);
  assert.equal(none.lostMs, 20);
  assert.throws(() => new SentAudio(-1), (e: unknown) => e instanceof ParleyError && e.code === 'PARLEY_CLIENT_BAD_OPTIONS');
});

test('SentAudio: a shutdown no stream resumed after loses everything it named', () => {
  const sent = new SentAudio(1000);
  for (let i = 0; i < 5; i++) sent.record(frame(i)); // 0–100 ms, all kept
  assert.equal(sent.abandon(30), 70);
  assert.equal(sent.lostMs, 70);
  assert.equal(sent.resentMs, 0);
  assert.equal(sent.abandon(null), 0, 'nothing named, nothing lost');
});

test('ResumeSchedule: by default it keeps trying for 60 s, 250 ms doubling to 5 s; attempts and totalMs bound it', () => {
  let now = 0;
  const waits = (schedule: ResumeSchedule): number[] => {
    const out: number[] = [];
    for (let w = schedule.next(); w !== null; w = schedule.next()) {
      out.push(w);
      now += w + 100; // each attempt itself takes 100 ms
    }
    return out;
  };
  const byDefault = waits(new ResumeSchedule({}, () => now));
  assert.deepEqual(byDefault.slice(0, 7), [250, 500, 1000, 2000, 4000, 5000, 5000]);
  assert.ok(now >= DEFAULT_RESUME_TOTAL_MS && DEFAULT_RESUME_TOTAL_MS === 60_000, `tried until the budget was spent (${now} ms)`);
  now = 0;
  assert.equal(waits(new ResumeSchedule({ attempts: 3 }, () => now)).length, 3);
  now = 0;
  assert.deepEqual(waits(new ResumeSchedule({ totalMs: 1000, delayMs: 400 }, () => now)), [400, 500], 'the last wait is cut to the budget');
  assert.throws(() => new ResumeSchedule({ totalMs: -1 }), (e: unknown) => e instanceof ParleyError && e.code === 'PARLEY_CLIENT_BAD_OPTIONS');
});

test('ResumeSchedule: a Retry-After is never cut short; one beyond the budget ends the schedule', () => {
  let now = 0;
  const schedule = new ResumeSchedule({ totalMs: 60_000 }, () => now);
  assert.equal(schedule.next(), 250);
  now = 40_000;
  schedule.atLeast(15_000);
  assert.equal(schedule.next(), 15_000, 'within the budget: waits as asked');
  now = 50_000;
  schedule.atLeast(30_000);
  assert.equal(schedule.next(), null, 'the server asked for a wait past the budget: no attempt 20 s early');
});

test('resendFrom: a crash names its offset alone; after a shutdown the later of the two offsets holds; a shutdown that named nothing resends nothing', () => {
  assert.equal(resendFrom(null, null), null, 'the same stream goes on: nothing to resend');
  assert.equal(resendFrom(null, 1200), 1200, 'a crash: the resumed session.started alone names it');
  assert.equal(resendFrom({ ms: 3000 }, null), 3000, 'a shutdown, resumed by a server that names nothing');
  assert.equal(resendFrom({ ms: 3000 }, 1200), 3000, 'the stored turn ended at 1200, the cut one began at 3000: silence between is not resent');
  assert.equal(resendFrom({ ms: 3000 }, 4100), 4100, 'the named turn was stored after all: it is not sent twice');
  assert.equal(resendFrom({ ms: null }, 1200), null, 'the shutdown stored everything');
});
