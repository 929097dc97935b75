import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { ParleyClient, type ServerEvent } from '../clients/typescript/src/index.js';
import { TWILIO_PARAMS } from '../server/ws/twilio-route.js';
import { callAudio } from './lib/call-audio.js';
import { twilioCall, twilioMessages } from './lib/twilio-frames.js';

const USAGE = `usage: npm run replay:twilio -- FILE [options]
  FILE                  a .wav (any sample rate) or a .ulaw / .mulaw file (raw mu-law, 8 kHz, mono)
  --url URL             the server (default $PARLEY_URL or http://127.0.0.1:8080)
  --token KEY           its API key (default $PARLEY_KEY; none for a server without keys)
  --call-sid SID        the call SID, the session's id (default a fresh CA…)
  --external-id ID      the caller's external id (e.g. +15551230000)
  --start-time ISO      when the recorded call began (turns are dated from it)
  --agent NAMES         the call centre's agents (a comma list), as <Parameter name="agent">
  --speed N             N times real time (default 1; Twilio sends one 20 ms frame every 20 ms)
  --wait-s S            how long to wait for session.ended after stop (default 300)
The call's events are printed to stdout, one JSON object a line; progress and errors go to stderr.
Exit 0 after session.ended, 1 when the call is refused or ends otherwise, 2 on bad usage or an unreadable file.`;

/** Stop with `message` on stderr and `code`. */
function fail(code: number, message: string): never {
  process.stderr.write(`replay-twilio: ${message}\n`);
  process.exit(code);
}

const ARGS = {
  url: { type: 'string' }, token: { type: 'string' }, 'call-sid': { type: 'string' }, 'external-id': { type: 'string' },
  'start-time': { type: 'string' }, agent: { type: 'string' }, speed: { type: 'string' }, 'wait-s': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** What to play, where, and how: the command line read, or a stop with the usage (exit 2). */
function options(): { file: string; url: string; token?: string; params: Record<string, string>; callSid?: string; speed: number; waitMs: number } {
  let parsed: ReturnType<typeof parseArgs<{ options: typeof ARGS; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ options: ARGS, allowPositionals: true });
  } catch (err) {
    fail(2, `${(err as Error).message}\n${USAGE}`);
  }
  const { values: v, positionals } = parsed;
  if (v.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  if (positionals.length !== 1) fail(2, `give one audio file\n${USAGE}`);
  const speed = Number(v.speed ?? '1');
  const waitS = Number(v['wait-s'] ?? '300');
  if (!(speed > 0) || !Number.isFinite(speed)) fail(2, `--speed must be a number above 0, not ${JSON.stringify(v.speed)}`);
  if (!(waitS > 0) || !Number.isFinite(waitS)) fail(2, `--wait-s must be a number of seconds above 0, not ${JSON.stringify(v['wait-s'])}`);
  const token = v.token ?? process.env.PARLEY_KEY;
  // Twilio cannot set headers: the key, like the caller's id, travels as a <Parameter> of the stream.
  const given: [string, string | undefined][] = [[TWILIO_PARAMS.token, token], [TWILIO_PARAMS.externalId, v['external-id']],
    [TWILIO_PARAMS.startTime, v['start-time']], [TWILIO_PARAMS.agent, v.agent]];
  return {
    file: positionals[0]!, url: (v.url ?? process.env.PARLEY_URL ?? 'http://127.0.0.1:8080').replace(/\/+$/, ''), token,
    params: Object.fromEntries(given.filter((p): p is [string, string] => p[1] !== undefined)), callSid: v['call-sid'], speed,
    waitMs: waitS * 1000,
  };
}

/**
 * `npm run replay:twilio -- FILE`: plays a recording to a Parley server as Twilio Media Streams plays a call to
 * `/v1/twilio` (`connected`, `start` with the custom parameters, a `media` frame per 20 ms of mu-law at real time or
 * `--speed` times it, then `stop`), and prints the call's events, followed by server-sent events
 * (`GET /v1/sessions/{call SID}/events`, subscribed before the call connects) until `session.ended`.
 */
async function main(): Promise<void> {
  const o = options();
  let audio: Buffer;
  try {
    audio = await callAudio(o.file);
  } catch (err) {
    fail(2, (err as Error).message);
  }
  const call = twilioCall(o.params);
  if (o.callSid) call.callSid = o.callSid;
  const frames = twilioMessages(call, audio);
  const stop = frames.pop()!;

  const parley = new ParleyClient({ baseUrl: o.url, apiKey: o.token });
  const events = await parley.sessionEvents(call.callSid).catch((err: Error) => fail(1, `subscribing to the call's events: ${err.message}`));
  // The call ends with session.ended, or with a fatal error (a refused start: no session.ended follows).
  const ended = (async (): Promise<ServerEvent | null> => {
    for await (const e of events) {
      process.stdout.write(`${JSON.stringify(e)}\n`);
      if (e.type === 'session.ended' || (e.type === 'error' && e.fatal)) return e;
    }
    return null;
  })();

  const wsUrl = `${o.url.replace(/^http/, 'ws')}/v1/twilio`;
  const ws = new WebSocket(wsUrl);
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  }).catch((err: Error) => fail(1, `connecting to ${wsUrl}: ${err.message}`));
  process.stderr.write(`replay-twilio: ${o.file}: ${(audio.length / 8000).toFixed(1)} s as call ${call.callSid} to ${wsUrl}` +
    ` at ${o.speed}x real time\n`);

  const began = Date.now();
  for (const [i, frame] of frames.entries()) {
    if (ws.readyState !== WebSocket.OPEN) break;
    // `connected` and `start` go at once; media frame k at k × 20 ms / speed.
    const due = began + Math.max(0, i - 2) * (20 / o.speed) - Date.now();
    if (due > 0) await new Promise((resolve) => setTimeout(resolve, due));
    ws.send(JSON.stringify(frame));
  }
  if (ws.readyState === WebSocket.OPEN) {
    ws.send(JSON.stringify(stop));
    // Twilio closes its socket right after `stop`.
    ws.close(1000);
  }
  const close = await closed;
  if (close.code !== 1000 && close.code !== 1005) {
    // A refusal the server cannot tie to the call (a wrong key, a frame before start) reaches no subscriber.
    events.close();
    fail(1, `the server closed the call's socket: ${close.code} ${close.reason}`);
  }
  let timer: NodeJS.Timeout | undefined;
  const last = await Promise.race([ended, new Promise<'timeout'>((resolve) => { timer = setTimeout(() => resolve('timeout'), o.waitMs); })]);
  clearTimeout(timer);
  events.close();
  if (last === 'timeout') fail(1, `no session.ended within ${o.waitMs / 1000} s of stop`);
  if (last?.type !== 'session.ended') fail(1, last?.type === 'error' ? `the call was refused: ${last.code}: ${last.message}` : 'the event stream ended before session.ended');
  process.stderr.write(`replay-twilio: session ${call.callSid} ended\n`);
  process.exit(0);
}

main().catch((err: unknown) => fail(1, err instanceof Error ? err.message : String(err)));
