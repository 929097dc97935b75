/** Live view: the microphone streamed to /v1/stream, and what Parley makes of it as it arrives. */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { MemoryItem, ParticipantRefJson } from '../graph/core/events.ts';
import { displayName, renameParticipant, streamUrl } from './api.ts';
import { speakerColor } from './colors.ts';

interface Turn {
  turnId: string;
  partial: string;
  /** How many partial transcripts arrived before the final. */
  partials: number;
  final: string | null;
  utteranceId: string | null;
  speaker: ParticipantRefJson | null;
  addressees: ParticipantRefJson[];
  startMs: number | null;
  endMs: number | null;
  context: { items: MemoryItem[]; readyAtMs: number; speculative: boolean } | null;
}

interface LogLine { seq: number; text: string; merged?: { from: string; into: string } }

type Vad = 'idle' | 'speech' | 'silence';

export interface LiveProps {
  sessionId: string;
  erased: Set<string>;
  /** Names changed here (or elsewhere): id → name. */
  names: Map<string, string | null>;
  onRename: (id: string, name: string | null) => void;
  onSpeakersChanged: () => void;
  /** The session has started on the server (its `session.started` arrived). */
  onStarted?: () => void;
}

/** Microphone → AudioWorklet (16 kHz pcm_s16le, 100 ms frames) → WebSocket. */
class Microphone {
  private ctx: AudioContext | null = null;
  private stream: MediaStream | null = null;
  private node: AudioWorkletNode | null = null;

  async start(onFrame: (pcm: ArrayBuffer) => void): Promise<number> {
    this.stream = await navigator.mediaDevices.getUserMedia({
      audio: { channelCount: 1, echoCancellation: false, noiseSuppression: false, autoGainControl: false },
    });
    this.ctx = new AudioContext();
    await this.ctx.audioWorklet.addModule(new URL('pcm-worklet.js', location.href).toString());
    const source = this.ctx.createMediaStreamSource(this.stream);
    this.node = new AudioWorkletNode(this.ctx, 'pcm16k', { numberOfInputs: 1, numberOfOutputs: 1, channelCount: 1, channelCountMode: 'explicit' });
    this.node.port.onmessage = (e: MessageEvent<ArrayBuffer | string>) => {
      if (typeof e.data === 'string') {
        if (e.data === 'flushed') this.flushed?.();
      } else {
        onFrame(e.data);
      }
    };
    // A silent sink keeps the graph pulling the worklet without playing the microphone back.
    const mute = this.ctx.createGain();
    mute.gain.value = 0;
    source.connect(this.node).connect(mute).connect(this.ctx.destination);
    await this.ctx.resume();
    return this.ctx.sampleRate;
  }

  private flushed: (() => void) | null = null;

  /** Stop capturing; resolves once the worklet has posted what it held of the last frame (or after 1 s). */
  async stop(): Promise<void> {
    this.stream?.getTracks().forEach((t) => t.stop());
    if (this.node) {
      const node = this.node;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 1000);
        this.flushed = () => { clearTimeout(timer); resolve(); };
        node.port.postMessage('flush');
      });
      this.flushed = null;
      node.port.onmessage = null;
    }
    const ctx = this.ctx;
    this.ctx = null;
    this.stream = null;
    this.node = null;
    void ctx?.close().catch(() => undefined);
  }
}

export function LiveView(props: LiveProps) {
  const [status, setStatus] = useState<'stopped' | 'connecting' | 'live' | 'ending'>('stopped');
  const [vad, setVad] = useState<Vad>('idle');
  const [turns, setTurns] = useState<Turn[]>([]);
  const [log, setLog] = useState<LogLine[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [rate, setRate] = useState<number | null>(null);
  const [framesSent, setFramesSent] = useState(0);
  const [editing, setEditing] = useState<string | null>(null);
  const ws = useRef<WebSocket | null>(null);
  const mic = useRef<Microphone | null>(null);
  const merged = useRef(new Map<string, string>());
  const ending = useRef(false);

  const upsert = (turnId: string, patch: (t: Turn) => Turn): void => {
    setTurns((all) => {
      const i = all.findIndex((t) => t.turnId === turnId);
      const base: Turn = i >= 0 ? all[i]! : {
        turnId, partial: '', partials: 0, final: null, utteranceId: null, speaker: null, addressees: [], startMs: null, endMs: null, context: null,
      };
      const next = patch(base);
      return i >= 0 ? all.map((t, j) => (j === i ? next : t)) : [...all, next];
    });
  };
  const note = (seq: number, text: string, merged?: LogLine['merged']): void =>
    setLog((l) => [{ seq, text, ...(merged ? { merged } : {}) }, ...l].slice(0, 50));

  const onEvent = (e: Record<string, unknown>): void => {
    const seq = Number(e.seq ?? 0);
    const turnId = String(e.turn_id ?? '');
    switch (e.type) {
      case 'session.started': setStatus('live'); props.onStarted?.(); break;
      case 'vad.speech_started':
        setVad('speech');
        upsert(turnId, (t) => ({ ...t, startMs: Number(e.audio_start_ms) }));
        break;
      case 'vad.speech_stopped':
        setVad('silence');
        upsert(turnId, (t) => ({ ...t, endMs: Number(e.audio_end_ms) }));
        break;
      case 'transcript.partial': upsert(turnId, (t) => ({ ...t, partial: String(e.text), partials: t.partials + 1 })); break;
      case 'transcript.final': {
        const speaker = e.speaker as ParticipantRefJson;
        upsert(turnId, (t) => ({
          ...t, final: String(e.text), utteranceId: String(e.utterance_id), speaker: { id: speaker.id, name: speaker.name },
          addressees: e.addressees as ParticipantRefJson[], startMs: (e.start_ms as number | null) ?? t.startMs, endMs: (e.end_ms as number | null) ?? t.endMs,
        }));
        props.onSpeakersChanged();
        break;
      }
      case 'memory.context':
        upsert(turnId, (t) => ({ ...t, context: { items: e.items as MemoryItem[], readyAtMs: Number(e.ready_at_ms), speculative: Boolean(e.speculative) } }));
        break;
      case 'memory.updated':
        for (const op of e.ops as { op: string; text: string }[]) note(seq, `memory ${op.op}: ${op.text}`);
        break;
      case 'speaker.merged': {
        const from = String(e.from);
        const into = String(e.into);
        merged.current.set(from, into);
        setTurns((all) => all.map((t) => ({
          ...t,
          speaker: t.speaker?.id === from ? { id: into, name: t.speaker.name } : t.speaker,
          addressees: t.addressees.map((a) => (a.id === from ? { id: into, name: a.name } : a)),
        })));
        note(seq, `speaker.merged: ${nameOf({ id: from, name: null })} is ${nameOf({ id: into, name: null })}`, { from, into });
        props.onSpeakersChanged();
        break;
      }
      case 'error': note(seq, `error ${String(e.code)}: ${String(e.message)}`); break;
      case 'session.ended': note(seq, 'session ended'); break;
      default: break;
    }
  };

  // The socket outlives renders: it calls the latest handler, which sees the latest props (names).
  const handler = useRef(onEvent);
  handler.current = onEvent;

  const start = async (): Promise<void> => {
    setError(null);
    setStatus('connecting');
    ending.current = false;
    try {
      const socket = new WebSocket(streamUrl(props.sessionId));
      socket.binaryType = 'arraybuffer';
      ws.current = socket;
      socket.onmessage = (m) => {
        if (typeof m.data === 'string') handler.current(JSON.parse(m.data) as Record<string, unknown>);
      };
      socket.onclose = (c) => {
        setStatus('stopped');
        setVad('idle');
        void mic.current?.stop();
        if (c.code !== 1000 && c.code !== 1005) setError(`stream closed: ${c.code} ${c.reason}`);
      };
      await new Promise<void>((resolve, reject) => {
        socket.onopen = () => resolve();
        socket.onerror = () => reject(new Error('could not open /v1/stream (is the API key right?)'));
      });
      const m = new Microphone();
      mic.current = m;
      setRate(await m.start((pcm) => {
        // Nothing after session.end: the session is finishing.
        if (socket.readyState === WebSocket.OPEN && !ending.current) {
          socket.send(pcm);
          setFramesSent((n) => n + 1);
        }
      }));
    } catch (err) {
      setError((err as Error).message);
      ws.current?.close();
      setStatus('stopped');
    }
  };

  const stop = async (): Promise<void> => {
    setStatus('ending');
    await mic.current?.stop();
    ending.current = true;
    if (ws.current?.readyState === WebSocket.OPEN) ws.current.send(JSON.stringify({ type: 'session.end' }));
  };

  useEffect(() => () => {
    void mic.current?.stop();
    ws.current?.close();
  }, []);

  const nameOf = (p: ParticipantRefJson | null): string => {
    if (!p) return '…';
    const renamed = props.names.get(p.id);
    return displayName({ id: p.id, name: renamed !== undefined ? renamed : p.name });
  };

  const rename = async (id: string, value: string): Promise<void> => {
    setEditing(null);
    try {
      const p = await renameParticipant(id, value.trim() === '' ? null : value.trim());
      props.onRename(p.id, p.name);
    } catch (err) {
      setError(`rename failed: ${(err as Error).message}`);
    }
  };

  const speakers = new Map<string, ParticipantRefJson>();
  for (const t of turns) if (t.speaker && !props.erased.has(t.speaker.id)) speakers.set(t.speaker.id, t.speaker);
  const visible = turns.filter((t) => !t.speaker || !props.erased.has(t.speaker.id));

  return (
    <section class="live">
      <div class="toolbar">
        {status === 'stopped'
          ? <button id="start" onClick={() => void start()}>Start</button>
          : <button id="stop" onClick={() => void stop()} disabled={status === 'ending'}>Stop</button>}
        <span class="status" data-status={status}>{status}</span>
        <span class={`vad vad-${vad}`} data-vad={vad}>{vad === 'speech' ? 'speech' : vad === 'silence' ? 'silence' : 'no speech yet'}</span>
        <span class="muted">session <code>{props.sessionId}</code>{rate ? ` · mic ${rate} Hz → 16 kHz` : ''} · {framesSent} frames</span>
      </div>
      {error && <p class="error" role="alert">{error}</p>}
      <div class="speakers" aria-label="speakers">
        {[...speakers.values()].map((s) => (
          <span class="speaker-chip" key={s.id} data-speaker={s.id} style={{ borderColor: speakerColor(s.id) }}>
            <span class="dot" style={{ background: speakerColor(s.id) }} />
            {editing === s.id
              ? <form onSubmit={(ev) => { ev.preventDefault(); void rename(s.id, (ev.currentTarget.elements.namedItem('name') as HTMLInputElement).value); }}>
                  <input name="name" aria-label="new name" defaultValue={nameOf(s).startsWith('Speaker ') ? '' : nameOf(s)} autoFocus />
                  <button type="submit">Save</button>
                </form>
              : <>
                  <span class="speaker-name">{nameOf(s)}</span>
                  <button class="link rename" onClick={() => setEditing(s.id)} title="rename this speaker">rename</button>
                </>}
          </span>
        ))}
      </div>
      <div class="columns">
        <ol class="turns" aria-label="transcript">
          {visible.map((t) => (
            <li key={t.turnId} class={`turn ${t.final === null ? 'pending' : 'final'}`} data-turn={t.turnId} data-speaker={t.speaker?.id ?? ''} data-partials={t.partials}
              style={{ borderLeftColor: t.speaker ? speakerColor(t.speaker.id) : '#bbb' }}>
              <div class="turn-head">
                <strong style={{ color: t.speaker ? speakerColor(t.speaker.id) : '#777' }}>{nameOf(t.speaker)}</strong>
                {t.addressees.length > 0 && <span class="to"> → {t.addressees.map((a) => (props.erased.has(a.id) ? '(erased)' : nameOf(a))).join(', ')}</span>}
                <span class="muted"> {t.startMs !== null ? `${(t.startMs / 1000).toFixed(1)} s` : ''}</span>
              </div>
              <div class="turn-text">{t.final ?? <em>{t.partial || '…'}</em>}</div>
              {t.context && t.context.items.length > 0 && (
                <details class="context">
                  <summary>memory.context: {t.context.items.length} item(s), ready_at_ms {t.context.readyAtMs.toFixed(0)}{t.context.speculative ? ' (speculative)' : ''}</summary>
                  <ul>{t.context.items.map((i) => <li key={i.id}><span class="layer">{i.layer}</span> {i.text}</li>)}</ul>
                </details>
              )}
              {t.context && t.context.items.length === 0 && <div class="muted small">memory.context: nothing relevant, ready_at_ms {t.context.readyAtMs.toFixed(0)}</div>}
            </li>
          ))}
        </ol>
        <aside class="log" aria-label="events">
          <h3>Events</h3>
          <ul>{log.map((l) => <li key={`${l.seq}-${l.text}`} data-from={l.merged?.from} data-into={l.merged?.into}>{l.text}</li>)}</ul>
        </aside>
      </div>
    </section>
  );
}
