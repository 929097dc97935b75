/**
 * Fuzzed client input generated from the protocol's TypeBox schemas: a valid example of each message
 * or body, then one mutation per frame (a property dropped, given another JSON type, a huge string,
 * a prototype-named key or type, deep nesting, or the frame replaced by random bytes).
 */
import type { TSchema } from '@sinclair/typebox';
import { CLIENT_MESSAGES } from '../../server/protocol/ws-messages.js';

/** A seeded source of integers in [0, n). */
export interface SeededRandom { int(n: number): number }

/** One valid example per WebSocket message type (the fuzzer's starting points). */
export const VALID_WS: Record<keyof typeof CLIENT_MESSAGES, Record<string, unknown>> = {
  'session.update': { type: 'session.update', session: { agent: 'bench', locale: 'en' } },
  utterance: { type: 'utterance', speaker: 'Ana', text: 'Ben, I will send you the draft on Friday.', start_ms: 0, end_ms: 1500 },
  'input.commit': { type: 'input.commit' },
  query: { type: 'query', question: 'what did Ana promise?' },
  'session.end': { type: 'session.end' },
  'participant.identify': { type: 'participant.identify', external_id: 'crm:bench-1' },
};

/** A valid `POST /v1/sessions/{id}/utterances` body. */
export const VALID_BATCH = { utterances: [{ speaker: 'Ana', text: 'Ben, I will send you the draft on Friday.' }, { speaker: 'Ben', text: 'Thanks.' }] };

const ODD_VALUES: unknown[] = [null, true, 0, -1, 1e308, -0.5, '', 'x'.repeat(200_000), [], [1, 'a', null], {}, { __proto__: { polluted: true } },
  '2016-12-31T23:59:60Z', '\u0000\ud800', 'a'.repeat(129)];
const ODD_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', ''];

/** The property names a schema declares (its object properties), for mutation. */
function propertyNames(schema: TSchema): string[] {
  const props = (schema as { properties?: Record<string, unknown> }).properties;
  return props ? Object.keys(props) : [];
}

function nested(depth: number): unknown {
  let v: unknown = 'deep';
  for (let i = 0; i < depth; i++) v = { a: [v] };
  return v;
}

/** One mutated copy of `base` (whose schema is `schema`), serialised; or random bytes. */
export function mutate(base: Record<string, unknown>, schema: TSchema | undefined, rnd: SeededRandom): string | Buffer {
  const kind = rnd.int(8);
  const msg: Record<string, unknown> = structuredClone(base);
  const names = [...new Set([...Object.keys(base), ...(schema ? propertyNames(schema) : [])])];
  const key = names[rnd.int(names.length)] ?? 'type';
  switch (kind) {
    case 0: delete msg[key]; break;
    case 1: msg[key] = ODD_VALUES[rnd.int(ODD_VALUES.length)]; break;
    case 2: Object.defineProperty(msg, ODD_KEYS[rnd.int(ODD_KEYS.length)]!, { value: ODD_VALUES[rnd.int(ODD_VALUES.length)], enumerable: true }); break;
    case 3: msg.type = ODD_KEYS[rnd.int(ODD_KEYS.length)]; break;
    case 4: msg[key] = nested(50 + rnd.int(2000)); break;
    case 5: return Buffer.from(Array.from({ length: 1 + rnd.int(300) }, () => rnd.int(256)));
    case 6: return JSON.stringify(msg).slice(0, rnd.int(JSON.stringify(msg).length));
    default: {
      const inner = Object.values(msg).find((v) => typeof v === 'object' && v !== null) as Record<string, unknown> | undefined;
      if (inner) inner[ODD_KEYS[rnd.int(ODD_KEYS.length)]!] = ODD_VALUES[rnd.int(ODD_VALUES.length)];
      else msg[key] = String(msg[key] ?? '').repeat(1 + rnd.int(50));
    }
  }
  return JSON.stringify(msg);
}

/** A fuzzed WebSocket text frame: a random message type, mutated. */
export function fuzzWsFrame(rnd: SeededRandom): string | Buffer {
  const types = Object.keys(VALID_WS).filter((t) => t !== 'session.end') as (keyof typeof CLIENT_MESSAGES)[];
  const type = types[rnd.int(types.length)]!;
  return mutate(VALID_WS[type], CLIENT_MESSAGES[type].Schema(), rnd);
}

/** A fuzzed HTTP utterance batch body: the batch or one of its utterances mutated. */
export function fuzzBatchBody(rnd: SeededRandom): string | Buffer {
  if (rnd.int(2) === 0) return mutate(VALID_BATCH, undefined, rnd);
  const one = mutate(VALID_BATCH.utterances[0]!, undefined, rnd);
  return typeof one === 'string' ? `{"utterances":[${one}]}` : one;
}
