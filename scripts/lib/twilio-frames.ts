/**
 * The text frames of a Twilio Media Streams call, as Twilio sends them to a `<Stream>` URL: what
 * `scripts/replay-twilio.ts` plays to a server, and what the Twilio tests send.
 */
import { randomBytes } from 'node:crypto';

/** A Twilio-style SID: two letters and 32 hex digits. */
export function twilioSid(prefix: 'CA' | 'MZ' | 'AC'): string {
  return `${prefix}${randomBytes(16).toString('hex')}`;
}

/** Bytes of one 20 ms Twilio media payload: 160 mu-law samples at 8 kHz. */
export const TWILIO_CHUNK_BYTES = 160;

/** One call's ids, as Twilio names them, and the `<Parameter>`s of its `<Stream>`. */
export interface TwilioCall {
  accountSid: string;
  callSid: string;
  streamSid: string;
  customParameters: Record<string, string>;
}

/**
 * The text frames Twilio sends for one call, in order, shaped as Twilio's Media Streams docs show them:
 * `connected`, `start`, one `media` per 20 ms of audio (base64 payload, `chunk` and `timestamp` as
 * strings, `sequenceNumber` counting every message after `connected`), a `mark`, then `stop`.
 */
export function twilioMessages(call: TwilioCall, mulaw: Buffer, opts: { mark?: string } = {}): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [{ event: 'connected', protocol: 'Call', version: '1.0.0' }];
  let seq = 0;
  const next = (): string => String(++seq);
  out.push({
    event: 'start', sequenceNumber: next(), streamSid: call.streamSid,
    start: {
      accountSid: call.accountSid, streamSid: call.streamSid, callSid: call.callSid, tracks: ['inbound'],
      customParameters: call.customParameters,
      mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 },
    },
  });
  let chunk = 0;
  for (let at = 0; at + TWILIO_CHUNK_BYTES <= mulaw.length; at += TWILIO_CHUNK_BYTES) {
    chunk += 1;
    out.push({
      event: 'media', sequenceNumber: next(), streamSid: call.streamSid,
      media: { track: 'inbound', chunk: String(chunk), timestamp: String((chunk - 1) * 20), payload: mulaw.subarray(at, at + TWILIO_CHUNK_BYTES).toString('base64') },
    });
  }
  if (opts.mark) out.push({ event: 'mark', sequenceNumber: next(), streamSid: call.streamSid, mark: { name: opts.mark } });
  out.push({ event: 'stop', sequenceNumber: next(), streamSid: call.streamSid, stop: { accountSid: call.accountSid, callSid: call.callSid } });
  return out;
}

/** A call with fresh SIDs and these `customParameters`. */
export function twilioCall(customParameters: Record<string, string>): TwilioCall {
  return { accountSid: twilioSid('AC'), callSid: twilioSid('CA'), streamSid: twilioSid('MZ'), customParameters };
}
