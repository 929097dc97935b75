/** Graph view: who speaks to whom (utterances addressed), drawn with cytoscape; a click shows the person. */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Core } from 'cytoscape';
import {
  ApiError, cutNotice, displayName, listInteractions, listParticipants, recentSessions, type Listing, type Participant, type RecentSession,
  type Utterance,
} from './api.ts';
import { speakerColor } from './colors.ts';
import { PersonPanel } from './person.tsx';

interface Edge { from: string; to: string; weight: number }

/** Edges weighted by the number of utterances a speaker addressed to each addressee; self-edges dropped. */
export function interactionEdges(utterances: { speaker: { id: string }; addressees: { id: string }[] }[]): Edge[] {
  const weights = new Map<string, Edge>();
  for (const u of utterances) {
    for (const a of u.addressees) {
      if (a.id === u.speaker.id) continue;
      const key = `${u.speaker.id}\u0000${a.id}`;
      const e = weights.get(key) ?? { from: u.speaker.id, to: a.id, weight: 0 };
      e.weight++;
      weights.set(key, e);
    }
  }
  return [...weights.values()].sort((a, b) => b.weight - a.weight);
}

/** Turns of one session (or of everyone, `null`); `null` when that session does not exist (yet). */
async function sessionTurns(sessionId: string | null): Promise<Listing<Utterance> | null> {
  try {
    return await listInteractions(sessionId);
  } catch (err) {
    if (sessionId !== null && err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

export interface GraphProps {
  /** The console's own session: the one shown first once it has started ({@link sessionStarted}). */
  sessionId: string;
  /** Whether that session exists on the server yet; before, the view opens on everyone with the session box empty. */
  sessionStarted: boolean;
  version: number;
  erased: Set<string>;
  onErased: (id: string) => void;
}

export function GraphView(props: GraphProps) {
  const [scope, setScope] = useState<'session' | 'everyone'>(props.sessionStarted ? 'session' : 'everyone');
  /** The session shown in session scope; empty until one is chosen (the console's own only once it has started). */
  const [sessionId, setSessionId] = useState(props.sessionStarted ? props.sessionId : '');
  /**
   * What is typed in the session box, applied on change (blur, Enter). Held as state so that a render while typing (a
   * listing arriving) keeps it: bound to `sessionId`, such a render put the old id back and the change never came.
   */
  const [draft, setDraft] = useState(props.sessionStarted ? props.sessionId : '');
  /** Sessions of the newest turns, offered in the session box. */
  const [recent, setRecent] = useState<RecentSession[]>([]);
  const [people, setPeople] = useState<Participant[]>([]);
  const [edges, setEdges] = useState<Edge[]>([]);
  const [spoke, setSpoke] = useState<Map<string, number>>(new Map());
  const [selected, setSelected] = useState<string | null>(null);
  const [cut, setCut] = useState(false);
  const [error, setError] = useState<string | null>(null);
  /** The session asked for does not exist (yet): shown as empty, with this said. */
  const [unknown, setUnknown] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const cy = useRef<Core | null>(null);

  useEffect(() => {
    let cancelled = false;
    void (async () => {
      try {
        const sessions = await recentSessions();
        if (!cancelled) setRecent(sessions);
      } catch {
        // Only suggestions: the box still takes a typed id, and the main listing reports its own errors.
      }
    })();
    return () => { cancelled = true; };
  }, [props.version]);

  useEffect(() => {
    let cancelled = false;
    if (scope === 'session' && !sessionId) {
      // No session chosen: nothing to ask for (the hint says how to choose one).
      setPeople([]); setEdges([]); setSpoke(new Map()); setCut(false); setUnknown(false); setError(null);
      return () => { cancelled = true; };
    }
    void (async () => {
      try {
        const [all, found] = await Promise.all([listParticipants(), sessionTurns(scope === 'session' ? sessionId : null)]);
        if (cancelled) return;
        const listed = found ?? { items: [], truncated: false };
        setUnknown(found === null);
        const utterances = listed.items;
        const counts = new Map<string, number>();
        for (const u of utterances) counts.set(u.speaker.id, (counts.get(u.speaker.id) ?? 0) + 1);
        const involved = new Set<string>(counts.keys());
        const es = interactionEdges(utterances);
        for (const e of es) involved.add(e.to);
        setPeople(all.filter((p) => !props.erased.has(p.id) && (scope === 'everyone' || involved.has(p.id))));
        setEdges(es.filter((e) => !props.erased.has(e.from) && !props.erased.has(e.to)));
        setSpoke(counts);
        setCut(listed.truncated);
        setError(null);
      } catch (err) {
        setError((err as Error).message);
      }
    })();
    return () => { cancelled = true; };
  }, [scope, sessionId, props.version, props.erased]);

  useEffect(() => {
    let cancelled = false;
    void (async () => {
      const { default: cytoscape } = await import('cytoscape');
      if (cancelled || !box.current) return;
      cy.current?.destroy();
      const ids = new Set(people.map((p) => p.id));
      const maxW = Math.max(1, ...edges.map((e) => e.weight));
      cy.current = cytoscape({
        container: box.current,
        elements: [
          ...people.map((p) => ({ data: { id: p.id, label: `${displayName(p)} (${spoke.get(p.id) ?? 0})`, color: speakerColor(p.id), size: 30 + 6 * Math.sqrt(spoke.get(p.id) ?? 0) } })),
          ...edges.filter((e) => ids.has(e.from) && ids.has(e.to)).map((e) => ({
            data: { id: `${e.from}->${e.to}`, source: e.from, target: e.to, weight: e.weight, width: 1 + (7 * e.weight) / maxW },
          })),
        ],
        style: [
          { selector: 'node', style: { 'background-color': 'data(color)', label: 'data(label)', width: 'data(size)', height: 'data(size)', 'font-size': 12, 'text-valign': 'bottom', 'text-margin-y': 4 } },
          { selector: 'node:selected', style: { 'border-width': 3, 'border-color': '#222' } },
          { selector: 'edge', style: { width: 'data(width)', 'curve-style': 'bezier', 'target-arrow-shape': 'triangle', 'line-color': '#9aa', 'target-arrow-color': '#9aa', label: 'data(weight)', 'font-size': 11, 'text-background-color': '#fff', 'text-background-opacity': 1 } },
        ],
        layout: { name: people.length > 2 ? 'cose' : 'circle', animate: false, padding: 40 },
        wheelSensitivity: 0.3,
      });
      cy.current.on('tap', 'node', (ev) => setSelected(ev.target.id() as string));
    })();
    return () => { cancelled = true; };
  }, [people, edges, spoke]);

  useEffect(() => () => cy.current?.destroy(), []);

  // With no session chosen the view is empty from the very render that shows the hint: the listing's state is cleared by
  // the effect above only after that render is painted, and the previous scope's rows must not show beside the hint.
  const picking = scope === 'session' && !sessionId;
  const shownEdges = picking ? [] : edges;
  const shownPeople = picking ? [] : people;
  const byId = new Map(people.map((p) => [p.id, p]));
  return (
    <section class="graph">
      <div class="toolbar">
        <label><input type="radio" name="scope" checked={scope === 'session'} onChange={() => setScope('session')} /> session</label>
        <input
          aria-label="session id" list="recent-sessions" placeholder="choose or type a session id" value={draft}
          onInput={(e) => setDraft(e.currentTarget.value)} onChange={(e) => { setSessionId(e.currentTarget.value.trim()); setScope('session'); }}
        />
        <datalist id="recent-sessions">
          {recent.map((r) => <option key={r.id} value={r.id} label={`last turn ${r.lastTurn.slice(0, 16).replace('T', ' ')}`} />)}
        </datalist>
        <label><input type="radio" name="scope" checked={scope === 'everyone'} onChange={() => setScope('everyone')} /> everyone</label>
      </div>
      {error && <p class="error" role="alert">{error}</p>}
      {scope === 'session' && !sessionId && (
        <p class="muted pick-session" role="status">
          No session chosen. Pick one of the recent sessions in the box (the sessions of the newest turns) or type a session
          id: the <code>session_id</code> a stream or import used (a phone call's is its Twilio call SID), as shown on the
          Live view and in each turn of <code>GET /v1/interactions</code>.
        </p>
      )}
      {scope === 'session' && unknown && <p class="muted no-session" role="status">no turns in session {sessionId} yet</p>}
      {cut && !picking && <p class="muted cut" role="status">{cutNotice('turns, newest first')}: the graph leaves older ones out</p>}
      <div class="columns">
        <div>
          <div class="cy" ref={box} aria-label="interaction graph" />
          <table class="edges" aria-label="who spoke to whom">
            <thead><tr><th>speaker</th><th>to</th><th>utterances</th></tr></thead>
            <tbody>
              {shownEdges.map((e) => (
                <tr key={`${e.from}-${e.to}`} data-edge={`${e.from}->${e.to}`}>
                  <td>{displayName(byId.get(e.from) ?? { id: e.from, name: null })}</td>
                  <td>{displayName(byId.get(e.to) ?? { id: e.to, name: null })}</td>
                  <td>{e.weight}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <ul class="people" aria-label="people in the graph">
            {shownPeople.map((p) => (
              <li key={p.id} data-person={p.id}>
                <button class="link" onClick={() => setSelected(p.id)} style={{ color: speakerColor(p.id) }}>{displayName(p)}</button>
              </li>
            ))}
          </ul>
        </div>
        {selected && !props.erased.has(selected) && <PersonPanel id={selected} version={props.version} onErased={(id) => { setSelected(null); props.onErased(id); }} />}
      </div>
    </section>
  );
}
