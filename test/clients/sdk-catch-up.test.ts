import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { WebSocketServer, type WebSocket } from 'ws';
import { MAX_CATCH_UP_MS, ParleyClient, type PacingClock, type StreamSession } from '../../clients/typescript/src/index.js';

/** A pacing clock that only moves when the test says so; `sleeping` resolves once pacing waits on it. */
class FakeClock implements PacingClock {
  private t = 0;
  private sleepers: { until: number; wake: () => void }[] = [];
  private onSleep: (() => void)[] = [];
  now(): number {
    return this.t;
  }
  sleep(ms: number): Promise<void> {
    return new Promise((wake) => {
      this.sleepers.push({ until: this.t + ms, wake });
      for (const w of this.onSleep.splice(0)) w();
    });
  }
  /** Resolves once something waits on the clock (pacing has sent all it may for now). */
  sleeping(): Promise<void> {
    return this.sleepers.length > 0 ? Promise.resolve() : new Promise((resolve) => this.onSleep.push(resolve));
  }
  /** Move to `t`, waking the sleeps that end by then. */
  set(t: number): void {
    this.t = t;
    const due = this.sleepers.filter((s) => s.until <= t);
    this.sleepers = this.sleepers.filter((s) => s.until > t);
    for (const s of due) s.wake();
  }
}

/** One connection to the stand-in server: binary frames received, and its socket. */
interface Conn { socket: WebSocket; frames: Buffer[]; marks: number[] }

/**
 * After a resume, the audio held during the outage used to go out in real time from the reconnect on,
 * so the stream stayed behind live by the outage for the rest of the session. Checked against a
 * stand-in server on an injected clock: nothing here depends on how fast the machine is.
 */
describe('@parley/client: a resumed stream catches up on the audio held during the outage', () => {
  let wss: WebSocketServer;
  let client: ParleyClient;
  const conns: Conn[] = [];
  /** Held until the test lets the next connection's session start. */
  let startGate: Promise<void> = Promise.resolve();
  /** Whether the next connection resumes the session (as the server says in `session.started`). */
  let resumesNext = false;
  before(async () => {
    wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await once(wss, 'listening');
    wss.on('connection', (socket) => {
      const conn: Conn = { socket, frames: [], marks: [] };
      const resumed = resumesNext;
      conns.push(conn);
      socket.on('message', (data, isBinary) => {
        if (isBinary) conn.frames.push(data as Buffer);
        else if (data.toString() === 'mark') conn.marks.push(conn.frames.length);
      });
      void startGate.then(() => socket.send(JSON.stringify({ type: 'session.started', session_id: 'c', seq: 1, resumed, config: { session_id: 'c' } })));
    });
    client = new ParleyClient({ baseUrl: `http://127.0.0.1:${(wss.address() as AddressInfo).port}` });
  });
  after(async () => {
    for (const c of wss.clients) c.terminate();
    await new Promise((resolve) => wss.close(resolve));
  });

  const pcm = (ms: number): Buffer => Buffer.alloc(16 * ms * 2, 1);

  /** How many frames the current connection has received once pacing waits on the clock. */
  async function sentBeforeWait(session: StreamSession, clock: FakeClock): Promise<number> {
    await clock.sleeping();
    // The socket delivers in order: the mark arrives after every frame sent before it.
    const conn = conns.at(-1)!;
    const marks = conn.marks.length;
    session.socket!.send('mark');
    while (conn.marks.length === marks) await sleep(5);
    return conn.marks.at(-1)!;
  }

  /** Connect, send `beforeMs` in real time, drop at `beforeMs`, hold `outageMs` of audio, resume at the live edge. */
  async function outage(beforeMs: number, outageMs: number, liveMs: number): Promise<{ session: StreamSession; clock: FakeClock }> {
    const clock = new FakeClock();
    startGate = Promise.resolve();
    resumesNext = false;
    const session = await client.stream({ sessionId: 'c', pacing: 'realtime', frameMs: 100, clock, resume: { delayMs: 10 } });
    session.sendAudio(pcm(beforeMs));
    for (let t = 100; t < beforeMs; t += 100) {
      await clock.sleeping();
      clock.set(t);
    }
    // The last frame went out at beforeMs - 100; at beforeMs the connection drops, and the next one's start is held.
    while (conns.at(-1)!.frames.length < beforeMs / 100) await sleep(5);
    clock.set(beforeMs);
    resumesNext = true;
    let release!: () => void;
    startGate = new Promise((resolve) => { release = resolve; });
    const count = conns.length;
    conns.at(-1)!.socket.terminate();
    while (conns.length === count) await sleep(5);
    // The microphone went on during the outage: its audio is queued, and the clock is at the live edge.
    session.sendAudio(pcm(outageMs + liveMs));
    clock.set(beforeMs + outageMs);
    release();
    await session.waitFor('session.started', (e) => e.resumed === true);
    return { session, clock };
  }

  test('a 10 s outage: its audio goes out at once after the resume, later audio in real time', async () => {
    const { session, clock } = await outage(500, 10_000, 1000);
    // 10 s held plus the frame due now (audio 10 500 at 10 500 ms): on main only that one went out.
    assert.equal(await sentBeforeWait(session, clock), 101, 'the held audio is sent without waiting');
    for (let i = 1; i <= 4; i += 1) {
      clock.set(10_500 + i * 100);
      assert.equal(await sentBeforeWait(session, clock), 101 + i, 'then one 100 ms frame per 100 ms: aligned with the live clock');
    }
    session.close();
  });

  test(`a 40 s outage: at most ${MAX_CATCH_UP_MS / 1000} s goes out at once, the rest stays behind in real time`, async () => {
    const { session, clock } = await outage(500, 40_000, 0);
    // The allowance (30 s) and the frame due at the resume, not more.
    assert.equal(await sentBeforeWait(session, clock), MAX_CATCH_UP_MS / 100 + 1, 'the allowance, not more');
    clock.set(40_600);
    assert.equal(await sentBeforeWait(session, clock), MAX_CATCH_UP_MS / 100 + 2, 'then real time, 10 s behind live');
    session.close();
  });
});
