import { MIN_FRAME_MS } from '../../pipelines/audio/audio-format.js';
import { CONTEXT_SCOPES, isContextScope } from '../../pipelines/retrieval/context-scope.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Type } from '@sinclair/typebox';
import type { RawData, WebSocket } from 'ws';
import { ParleyError, toClientError } from '../../graph/core/errors.js';
import { MAX_EXTERNAL_ID_LENGTH } from '../../graph/external-id.js';
import type { StreamFormat } from '../../pipelines/audio/audio-format.js';
import { presentedKey } from '../plugins/auth.js';
import { isBase64 } from '../protocol/base64.js';
import { clientTime, isDateTime } from '../protocol/iso-time.js';
import type { LiveSession } from './live-session.js';
import { MAX_SESSION_METADATA_BYTES, requestEnd } from './message-handlers.js';
import { nameHardCapOnClose, WS_HARD_CAP_BYTES } from './frame-limits.js';
import { closeReason, refusalCloseCode } from './close-frame.js';
import { closeFromServer, serverClose } from './server-close.js';
import { StreamQuery } from '../protocol/ws-messages.js';
import { voiceprintsAllowed } from '../config.js';
import { resolveAgents } from './session-agents.js';
import { changeSessionMetadata, SESSION_AGENTS_KEY } from '../../pipelines/interaction/session-metadata.js';

/** The only audio Twilio Media Streams sends: G.711 mu-law, 8 kHz, mono. */
const TWILIO_FORMAT: StreamFormat = { encoding: 'mulaw', sampleRate: 8000, channels: 1 };

/** `customParameters` entries Parley reads (`<Parameter name="…" value="…"/>` in the TwiML). */
export const TWILIO_PARAMS = {
  /** The API key, when it is not in the URL's `?token=`. */
  token: 'parley_token',
  /** The application's own id for the caller (phone number, CRM id). */
  externalId: 'external_id',
  /** When the call's audio began, ISO-8601 (a recorded call replayed through `/v1/twilio`), as `/v1/stream`'s `start_time`. */
  startTime: 'start_time',
  /** A call centre's agents (a comma list of ids, external ids or names), as `/v1/stream`'s `agent`. */
  agent: 'agent',
  /** Whose memories the call's `memory.context` may hold (`all` or `participants`; default `participants`, README "Twilio"). */
  contextScope: 'context_scope',
} as const;

const SESSION_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

/**
 * The URL's query: `?token=` and `?agent=`. Twilio adds nothing to the `<Stream url>` (it takes no query of its own; its
 * custom parameters arrive in the `start` frame), so any other name is a mistake and refuses the upgrade, named as on
 * `/v1/stream` (e.g. `?external_id=`, which here is a `<Parameter>`).
 */
export const TwilioQuery = Type.Object({
  token: Type.Optional(Type.String({ description: 'API key (Twilio cannot set headers); or send it as customParameters.parley_token' })),
  agent: Type.Optional({
    ...StreamQuery.properties.agent,
    description: `${StreamQuery.properties.agent.description}; or <Parameter name="agent">, checked at start. In the URL it needs the key there too (?token=) when the server has keys`,
  }),
}, { additionalProperties: false });

function toText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

function badFrame(message: string): ParleyError {
  return new ParleyError('PARLEY_ERR_BAD_FRAME', message);
}

/**
 * A call's `customParameters.start_time` (ms since the epoch), checked as `/v1/stream`'s `start_time`: an ISO-8601
 * date-time at most 24 h after the server's clock (`now`), else a `PARLEY_ERR_BAD_FRAME` naming it; undefined without one.
 */
function callStartTime(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const field = `start: customParameters.${TWILIO_PARAMS.startTime}`;
  if (!isDateTime(value)) throw badFrame(`${field} must be an ISO-8601 date-time (such as 2026-03-07T18:00:00Z), not ${JSON.stringify(value.slice(0, 64))}`);
  return Date.parse(clientTime(value, field, now, 'PARLEY_ERR_BAD_FRAME'));
}

/** The fields of a `start` message Parley uses, checked. */
interface TwilioStart {
  streamSid: string;
  callSid: string;
  accountSid: string | null;
  tracks: string[];
  customParameters: Record<string, string>;
}

function parseStart(msg: Record<string, unknown>): TwilioStart {
  const start = record(msg.start);
  if (!start) throw badFrame('start: missing the "start" object');
  const callSid = start.callSid;
  const streamSid = start.streamSid ?? msg.streamSid;
  if (typeof callSid !== 'string' || !SESSION_ID.test(callSid)) {
    throw badFrame('start: start.callSid must be a string of 1 to 128 letters, digits, "_", ".", ":" or "-"');
  }
  if (typeof streamSid !== 'string' || streamSid === '') throw badFrame('start: missing start.streamSid');
  const format = record(start.mediaFormat);
  const encoding = format?.encoding;
  const rate = Number(format?.sampleRate);
  const channels = Number(format?.channels ?? 1);
  if (encoding !== 'audio/x-mulaw' || rate !== 8000 || channels !== 1) {
    throw new ParleyError('PARLEY_ERR_BAD_AUDIO',
      `unsupported mediaFormat ${JSON.stringify(encoding ?? null)} ${String(format?.sampleRate)} Hz ${String(format?.channels)} ch; Parley takes Twilio's audio/x-mulaw 8000 Hz mono`);
  }
  const params: Record<string, string> = {};
  for (const [k, v] of Object.entries(record(start.customParameters) ?? {})) if (typeof v === 'string') params[k] = v;
  const tracks = Array.isArray(start.tracks) ? start.tracks.filter((t): t is string => typeof t === 'string') : ['inbound'];
  return { streamSid, callSid, accountSid: typeof start.accountSid === 'string' ? start.accountSid : null, tracks, customParameters: params };
}

/**
 * The session a `start` frame names and its tenant, read loosely (before `parseStart` checks the rest), or null
 * when its call SID is not a session id or its key (`tenantOf` of `customParameters.parley_token`) is no tenant's.
 */
function startingSession(msg: Record<string, unknown>, tenantOf: (key: string | undefined) => string | null): { tenant: string; sessionId: string } | null {
  const start = record(msg.start);
  const callSid = start?.callSid;
  if (typeof callSid !== 'string' || !SESSION_ID.test(callSid)) return null;
  const token = record(start?.customParameters)?.[TWILIO_PARAMS.token];
  const tenant = tenantOf(typeof token === 'string' ? token : undefined);
  return tenant === null ? null : { tenant, sessionId: callSid };
}

/**
 * One Twilio Media Streams connection: `connected`, `start`, `media`…, `mark`, `stop`, as Twilio sends
 * them (JSON text frames). The call becomes the Parley session named by its call SID; the caller's
 * audio (the inbound track) goes through the same live-session pipeline as `/v1/stream`; `stop` ends the
 * session as `session.end` does. The socket carries nothing back: events go to the session's
 * subscribers (`GET /v1/sessions/{call SID}/events`).
 */
/** 10 ms of Twilio's 8 kHz mu-law, one byte a sample: the shortest frame the audio session accepts. */
const MIN_MULAW_FRAME_BYTES = (MIN_FRAME_MS * 8000) / 1000;
/** One Twilio media frame: 20 ms of 8 kHz mu-law. A corrupt one is kept as this much silence. */
const TWILIO_CHUNK_BYTES = 160;
/** Mu-law silence. */
const MULAW_SILENCE = 0xff;

/** A frame a live stream drops, with a non-fatal error, rather than ending the call: a bad frame. */
function droppable(err: unknown): err is ParleyError {
  return err instanceof ParleyError && err.code === 'PARLEY_ERR_BAD_FRAME';
}

class TwilioConnection {
  private session: LiveSession | null = null;
  private state: 'waiting' | 'live' | 'stopped' | 'closed' = 'waiting';
  /** Set by {@link refuse}: frames still arriving (or queued behind the refused one) are ignored. */
  private refused = false;
  /** Messages run one after another (the `start` lookup is asynchronous; media behind it waits). */
  private chain: Promise<void> = Promise.resolve();
  private lastSequence = 0;
  /** Inbound audio shorter than the 10 ms a frame must hold, kept to go with the next frame (or padded at `stop`). */
  private shortAudio: Buffer | null = null;
  /** Bad frames dropped while the stream was live. */
  private dropped = 0;
  /** Whether the run of bad frames under way has had its error (one per run: a good frame ends it). */
  private inBadRun = false;
  /**
   * The session a `start` named, with a valid key, before the call went live: a refusal then goes to that
   * session's subscribers too (a refusal before it, or with a wrong key, names no session they can be told of).
   */
  private starting: { tenant: string; sessionId: string } | null = null;

  constructor(
    private readonly app: FastifyInstance,
    private readonly socket: WebSocket,
    private readonly request: FastifyRequest,
    /** The URL's `?agent=` participant ids, resolved before the upgrade; null without one. */
    private readonly urlAgents: string[] | null,
  ) {
    // A key in the URL is checked at once, so a wrong one is refused before any audio.
    const urlKey = presentedKey(request);
    if (urlKey !== undefined && app.tenantForKey(urlKey) === null) {
      this.refuse(new ParleyError('PARLEY_ERR_UNAUTHORIZED', 'unknown API key'));
      return;
    }
    nameHardCapOnClose(socket);
    socket.on('message', (data: RawData, isBinary: boolean) => {
      // Timed on receipt: media queued behind `start` (a slow session read) keeps when it came, so a call sent in real time
      // is not taken for audio sent ahead of it and shed.
      const at = app.audioClock();
      this.chain = this.chain.then(() => this.onMessage(data, isBinary, at)).then(() => { this.inBadRun = false; }, (err: unknown) => this.failed(err));
    });
    socket.on('close', () => this.onClose());
    socket.on('error', (err: Error & { code?: string }) => {
      request.log.warn({ err: err.message }, 'twilio socket error');
      // `ws` closes the socket itself (1009 for a message over its hard cap): subscribers are told why.
      this.refuse(err.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH'
        ? new ParleyError('PARLEY_ERR_FRAME_TOO_LARGE', `a message over ${WS_HARD_CAP_BYTES} bytes closed the stream`)
        : new ParleyError('PARLEY_ERR_BAD_FRAME', `the stream broke the WebSocket protocol: ${err.message}`));
    });
  }

  /** One frame; `at`: when it arrived (`LiveSessionDeps.audioNow`). */
  private async onMessage(data: RawData, isBinary: boolean, at: number): Promise<void> {
    if (this.state === 'closed' || this.refused) return;
    if (isBinary) throw badFrame('Twilio Media Streams sends JSON text frames; got a binary frame');
    let msg: Record<string, unknown> | null;
    try {
      msg = record(JSON.parse(toText(data)));
    } catch {
      msg = null;
    }
    if (!msg || typeof msg.event !== 'string') throw badFrame('every frame must be a JSON object with an "event" field');
    const sequence = Number(msg.sequenceNumber);
    if (Number.isFinite(sequence)) this.lastSequence = sequence;
    switch (msg.event) {
      case 'connected':
        return;
      case 'start':
        return this.start(msg);
      case 'media':
        return this.media(msg, at);
      case 'stop':
        return this.stop();
      case 'mark':
      case 'dtmf':
        // Marks echo audio a bidirectional stream played back (Parley plays none); key presses are not speech.
        if (this.state === 'waiting') throw badFrame(`${msg.event} before start`);
        return;
      default:
        // Events added to Twilio's protocol later are let through rather than dropping the call.
        this.request.log.debug({ event: msg.event }, 'unknown Twilio event ignored');
    }
  }

  private async start(msg: Record<string, unknown>): Promise<void> {
    if (this.state !== 'waiting') throw badFrame('start: the stream has already started; this start was ignored');
    this.starting = startingSession(msg, (key) => this.app.tenantForKey(presentedKey(this.request) ?? key));
    const start = parseStart(msg);
    const key = presentedKey(this.request) ?? start.customParameters[TWILIO_PARAMS.token];
    const tenant = this.app.tenantForKey(key);
    if (tenant === null) {
      throw new ParleyError('PARLEY_ERR_UNAUTHORIZED', key
        ? 'unknown API key'
        : `missing API key: add ?token= to the stream URL or a <Parameter name="${TWILIO_PARAMS.token}"> to the TwiML`);
    }
    const { [TWILIO_PARAMS.token]: _token, ...visible } = start.customParameters;
    const externalId = visible[TWILIO_PARAMS.externalId];
    if (externalId !== undefined && (externalId.trim() === '' || externalId.length > MAX_EXTERNAL_ID_LENGTH)) {
      throw badFrame(`start: customParameters.${TWILIO_PARAMS.externalId} must be 1 to ${MAX_EXTERNAL_ID_LENGTH} characters, not blank`);
    }
    const startTime = callStartTime(visible[TWILIO_PARAMS.startTime], this.app.clock());
    const contextScope = visible[TWILIO_PARAMS.contextScope];
    if (contextScope !== undefined && !isContextScope(contextScope)) {
      throw badFrame(`start: customParameters.${TWILIO_PARAMS.contextScope} must be one of ${CONTEXT_SCOPES.join(', ')}, not ${JSON.stringify(contextScope.slice(0, 64))}`);
    }
    // Everything that can refuse the call is checked before the session opens.
    const agents = await this.callAgents(tenant, visible[TWILIO_PARAMS.agent], externalId);
    const graph = this.app.stores.graph;
    const callMetadata = (stored: Record<string, unknown> | undefined): Record<string, unknown> => ({
      ...(stored ?? {}),
      channel: 'twilio',
      ...(contextScope !== undefined ? { context_scope: contextScope } : {}),
      twilio: { call_sid: start.callSid, stream_sid: start.streamSid, account_sid: start.accountSid, tracks: start.tracks, custom_parameters: visible },
      // Kept with the call: a question on it once it is no longer live here is scoped with them (`queryScope`).
      ...(agents ? { [SESSION_AGENTS_KEY]: agents } : {}),
    });
    if (Buffer.byteLength(JSON.stringify(callMetadata((await graph.getSession(tenant, start.callSid))?.metadata))) > MAX_SESSION_METADATA_BYTES) {
      throw new ParleyError('PARLEY_ERR_BAD_REQUEST', `customParameters would make the session metadata larger than ${MAX_SESSION_METADATA_BYTES} bytes`);
    }
    const registry = this.app.sessions;
    registry.admit(tenant, start.callSid);
    const opened = await registry.open(tenant, start.callSid);
    const session = opened.session;
    let metadata: Record<string, unknown>;
    try {
      // Under the session's metadata lock, from the metadata as it is then: a scrub meanwhile is never undone.
      metadata = (await changeSessionMetadata(this.app.stores, tenant, start.callSid, callMetadata, 'customParameters'))!;
    } catch (err) {
      if (!session.connected) registry.disconnected(session);
      throw err;
    }
    if (this.socketGone()) {
      // Twilio hung up while the session opened: it waits for a resume like any dropped stream.
      if (!session.connected) registry.disconnected(session);
      return;
    }
    if (externalId !== undefined) session.pendingExternalId = externalId;
    // A resumed call naming no agents keeps the session's.
    if (agents) session.agents = new Set(agents);
    // One customer per call: another customer's memories never reach the call's agent unless asked for.
    session.defaultContextScope = this.app.config.contextScope ?? 'participants';
    if (isContextScope(metadata.context_scope)) session.ownContextScope = metadata.context_scope;
    this.session = session;
    this.state = 'live';
    session.attach(this.socket, TWILIO_FORMAT, opened.resumed, { events: false, ...(startTime !== undefined ? { startTime } : {}) });
    session.log.info({ streamSid: start.streamSid, tracks: start.tracks }, 'twilio stream started');
  }

  /**
   * The call's agents (participant ids): the URL's `?agent=` (checked again now that the call's external id is known)
   * and `customParameters.agent`, checked as `/v1/stream` checks its `agent`; null when neither names any.
   * @throws ParleyError as `resolveAgents`, naming where the agent was given.
   */
  private async callAgents(tenant: string, param: string | undefined, externalId: string | undefined): Promise<string[] | null> {
    if (this.urlAgents === null && param === undefined) return null;
    const check = { voiceprints: voiceprintsAllowed(this.app.config, tenant), ...(externalId !== undefined ? { externalId } : {}) };
    const graph = this.app.stores.graph;
    const fromUrl = this.urlAgents === null ? [] : await resolveAgents(graph, tenant, this.urlAgents, check);
    const fromStart = param === undefined ? [] : await resolveAgents(graph, tenant, [param], { ...check, field: `start: customParameters.${TWILIO_PARAMS.agent}` });
    return [...new Set([...fromUrl, ...fromStart])];
  }

  /** Whether the socket closed (read after awaits, where the compiler's narrowing no longer holds). */
  private socketGone(): boolean {
    return this.state === 'closed';
  }

  private media(msg: Record<string, unknown>, at: number): void {
    if (this.state === 'waiting' || !this.session) throw badFrame('media before start: Twilio sends "start" (with the call SID and media format) first');
    if (this.state !== 'live') return;
    const media = record(msg.media);
    const payload = media?.payload;
    // With both tracks streamed, "outbound" is what the caller hears (the bot): only the caller is heard.
    const inbound = media?.track !== 'outbound';
    const bad = typeof payload !== 'string' ? 'missing media.payload (base64 mu-law)'
      : !isBase64(payload) ? 'media.payload is not base64 (standard alphabet; mu-law audio)' : null;
    if (bad !== null) {
      // Its 20 ms are kept as silence, so the stream's clock (turn times) stays that of the call.
      if (inbound) this.pushInbound(Buffer.alloc(TWILIO_CHUNK_BYTES, MULAW_SILENCE), at);
      throw badFrame(`media: ${bad}`);
    }
    if (inbound) this.pushInbound(Buffer.from(payload as string, 'base64'), at);
  }

  /** Caller audio to the session, `at` when it arrived; pieces under 10 ms wait for the next. */
  private pushInbound(received: Buffer, at: number): void {
    if (!this.session) return;
    let audio = received;
    if (this.shortAudio) audio = Buffer.concat([this.shortAudio, audio]);
    // Twilio's last frame of a stream can be a few bytes: kept, not refused as a frame under 10 ms.
    this.shortAudio = audio.length < MIN_MULAW_FRAME_BYTES ? audio : null;
    if (!this.shortAudio) this.session.voice.push(audio, at);
  }

  private stop(): void {
    if (this.state === 'waiting' || !this.session) throw badFrame('stop before start');
    if (this.state !== 'live') return;
    this.state = 'stopped';
    const session = this.session;
    if (this.shortAudio) {
      // The call's last few samples, padded with mu-law silence (0xff) to the shortest frame accepted.
      session.voice.push(Buffer.concat([this.shortAudio, Buffer.alloc(MIN_MULAW_FRAME_BYTES - this.shortAudio.length, 0xff)]));
      this.shortAudio = null;
    }
    // Ends exactly as `session.end` does: finals stored, memory.updated out, then session.ended; never
    // shed by a full queue, and it runs after the turns queued before it.
    requestEnd(session, this.app.liveSessionDeps);
  }

  private onClose(): void {
    const previous = this.state;
    this.state = 'closed';
    const session = this.session;
    if (!session) return;
    if (this.dropped > 0) session.log.info({ dropped: this.dropped }, 'twilio stream: bad frames dropped');
    session.detach(this.socket);
    // A stream another connection took over (perhaps on another server) is that connection's to end.
    if (previous !== 'live' || session.ended || session.connected || session.streamLost) return;
    // Twilio never resumes a stream the server closed for an error (refused here, or a fatal error of the session, such
    // as no inference worker left): the call ends now, as at `stop`.
    if (serverClose(this.socket)?.fatal) requestEnd(session, this.app.liveSessionDeps, 'the Twilio stream was closed for a fatal error');
    // Without `stop` (a dropped connection) the session waits for a resume, as on /v1/stream.
    else this.app.sessions.disconnected(session);
  }

  /**
   * A frame failed. While the call is live a bad frame is dropped with a non-fatal error (one per run of
   * bad frames) and the call goes on; anything else, or a bad frame before `start`, refuses the stream.
   */
  private failed(err: unknown): void {
    if (!(this.session && (this.state === 'live' || this.state === 'stopped') && droppable(err))) {
      this.refuse(err);
      return;
    }
    this.dropped += 1;
    // The first of a run at info, the rest at debug: a proxy corrupting every frame would write 50 lines a second (the
    // total is logged at close).
    this.request.log[this.inBadRun ? 'debug' : 'info']({ message: err.message, sequenceNumber: this.lastSequence, dropped: this.dropped }, 'twilio frame dropped');
    if (this.inBadRun) return;
    this.inBadRun = true;
    this.session.sendError(err.code, `${err.message} (frame dropped; the call goes on, and further bad frames are dropped without another error until a good one arrives)`);
  }

  /** Tell subscribers (when there is a session) and close the socket with the error as its reason. */
  private refuse(err: unknown): void {
    const { code, message } = toClientError(err);
    if (code === 'PARLEY_ERR_INTERNAL') this.request.log.error({ err }, 'twilio stream failed');
    else this.request.log.info({ code, message, sequenceNumber: this.lastSequence }, 'twilio stream refused');
    if (this.state === 'closed' || this.refused) return;
    this.refused = true;
    if (this.session && this.state === 'live') {
      this.app.metrics.wsErrors.inc({ code });
      this.session.send('error', { code, message, fatal: true });
    } else if (this.starting && !this.session) {
      // Refused at `start`, before the session opened: numbered 0, as a refusal on /v1/stream is.
      const { tenant, sessionId } = this.starting;
      const json = JSON.stringify({ type: 'error', session_id: sessionId, seq: 0, code, message, fatal: true });
      this.app.sessionEvents.publish(tenant, sessionId, { type: 'error', seq: 0, json });
    }
    closeFromServer(this.socket, { code: refusalCloseCode(code), reason: closeReason(code, message), fatal: true });
  }
}

/** `GET /v1/twilio`: Twilio Media Streams, unchanged (see docs/PROTOCOL.md). */
export const twilioRoute = fp(async (app: FastifyInstance): Promise<void> => {
  /** Each upgrade's `?agent=` participant ids, resolved before the upgrade. */
  const urlAgents = new WeakMap<FastifyRequest, string[]>();
  app.get('/v1/twilio', {
    websocket: true,
    schema: { querystring: TwilioQuery, summary: 'Twilio Media Streams (WebSocket): a call becomes a session named by its call SID' },
    // `?agent=` is checked before the upgrade, as on /v1/stream: a mistake is an HTTP error naming it, not a call whose
    // caller id lands on the agent. That needs the tenant, so the key in the URL.
    preHandler: async (request) => {
      const { agent } = request.query as { agent?: string[] };
      if (agent === undefined) return;
      const key = presentedKey(request);
      const tenant = app.tenantForKey(key);
      if (tenant === null) {
        throw key
          ? new ParleyError('PARLEY_ERR_UNAUTHORIZED', 'unknown API key')
          : new ParleyError('PARLEY_ERR_BAD_REQUEST',
            `querystring/agent is checked before the call starts, which needs the API key in the URL (?token=); or name the agent in <Parameter name="${TWILIO_PARAMS.agent}">`);
      }
      urlAgents.set(request, await resolveAgents(app.stores.graph, tenant, agent, { voiceprints: voiceprintsAllowed(app.config, tenant) }));
    },
  }, (socket, request) => {
    new TwilioConnection(app, socket, request, urlAgents.get(request) ?? null);
  });
}, { name: 'parley-twilio', dependencies: ['parley-stream', 'parley-auth'] });
