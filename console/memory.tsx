/** Memory view: facts with their history and sources (audio where kept), search, questions, erasure. */
import { useEffect, useState } from 'preact/hooks';
import {
  ask, blobUrl, cutNotice, displayName, getUtterance, listFacts, type Fact, type Participant, type QueryAnswer, type Utterance,
} from './api.ts';
import { speakerColor } from './colors.ts';
import { EraseButton } from './person.tsx';

const when = (iso: string | null): string => (iso ? new Date(iso).toLocaleString() : '');

/** The source utterance of a fact, fetched on demand, with its audio span playable when kept. */
function Source(props: { utteranceId: string }) {
  const [u, setU] = useState<Utterance | null>(null);
  const [audio, setAudio] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    getUtterance(props.utteranceId).then(setU, (err: Error) => setError(err.message));
  }, [props.utteranceId]);
  useEffect(() => () => { if (audio) URL.revokeObjectURL(audio); }, [audio]);
  if (error) return <div class="source muted">source {props.utteranceId}: {error}</div>;
  if (!u) return <div class="source muted">loading source…</div>;
  return (
    <div class="source" data-utterance={u.id}>
      <span style={{ color: speakerColor(u.speaker.id) }}>{displayName(u.speaker)}</span>
      {u.addressees.length > 0 && <> → {u.addressees.map((a) => displayName(a)).join(', ')}</>}: “{u.text}”
      <span class="muted"> · session {u.session_id} · {when(u.time)}</span>
      {u.audio_ref && !audio && (
        <button class="link play" onClick={() => blobUrl(`/v1/utterances/${encodeURIComponent(u.id)}/audio`).then(setAudio, (err: Error) => setError(err.message))}>
          ▶ audio
        </button>
      )}
      {audio && <audio controls autoPlay src={audio} />}
    </div>
  );
}

/**
 * One fact: when it held, and how it stopped holding. A temporary fact carries its own end (`valid_until`,
 * "for a month"): shown as "until …", and once that end has passed the fact is marked ended (not current),
 * like one a newer fact replaced (`valid_to`).
 */
function FactRow(props: { fact: Fact; replacedBy?: Fact | undefined }) {
  const f = props.fact;
  const [open, setOpen] = useState(false);
  const replaced = f.valid_to !== null;
  const ended = !replaced && f.valid_until !== null && Date.parse(f.valid_until) <= Date.now();
  const closed = replaced || ended;
  const span = replaced ? ` to ${when(f.valid_to)}` : f.valid_until !== null ? ` until ${when(f.valid_until)}` : '';
  return (
    <div class={`fact ${closed ? 'closed' : 'current'}${ended ? ' ended' : ''}`} data-fact={f.id}>
      <div>
        <span class="layer">{f.kind}</span> <span class="fact-text">{f.text}</span>
        <span class="muted"> · from {when(f.valid_from)}{span}</span>
        {ended && <span class="replaced"> · ended</span>}
        {replaced && (props.replacedBy
          ? <span class="replaced"> · replaced by “{props.replacedBy.text}”</span>
          : <span class="replaced"> · {f.superseded_by ? 'replaced' : 'retracted'}</span>)}
        {f.refer_ids.length > 0 && <button class="link" onClick={() => setOpen(!open)}>{open ? 'hide source' : 'source'}</button>}
      </div>
      {open && f.refer_ids.map((id) => <Source key={id} utteranceId={id} />)}
    </div>
  );
}

/** Current facts, each followed by what it replaced (oldest last); closed facts outside a chain after. */
function FactChains(props: { facts: Fact[] }) {
  const byId = new Map(props.facts.map((f) => [f.id, f]));
  const inChain = new Set<string>();
  const chains: Fact[][] = [];
  const heads = props.facts.filter((f) => !f.superseded_by || !byId.has(f.superseded_by));
  for (const head of heads) {
    const chain = [head];
    inChain.add(head.id);
    let prev = head.supersedes ? byId.get(head.supersedes) : undefined;
    while (prev && !inChain.has(prev.id)) {
      chain.push(prev);
      inChain.add(prev.id);
      prev = prev.supersedes ? byId.get(prev.supersedes) : undefined;
    }
    chains.push(chain);
  }
  return (
    <ol class="chains" aria-label="facts">
      {chains.map((chain) => (
        <li key={chain[0]!.id} class="chain">
          {chain.map((f, i) => <FactRow key={f.id} fact={f} replacedBy={i > 0 ? chain[i - 1] : undefined} />)}
        </li>
      ))}
    </ol>
  );
}

function QuestionBox() {
  const [question, setQuestion] = useState('');
  const [answer, setAnswer] = useState<QueryAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (ev: Event): Promise<void> => {
    ev.preventDefault();
    if (!question.trim()) return;
    setBusy(true);
    try {
      setAnswer(await ask(question.trim(), null));
      setError(null);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="question">
      <form onSubmit={(ev) => void submit(ev)}>
        <input aria-label="question" placeholder="Ask memory, e.g. where does she live?" value={question} onInput={(e) => setQuestion(e.currentTarget.value)} />
        <button type="submit" disabled={busy}>Ask</button>
      </form>
      {error && <p class="error">{error}</p>}
      {answer && (
        <div class="evidence" aria-label="evidence">
          <p class="muted">{answer.evidence.length} item(s) of evidence, {answer.rounds} round(s), {Math.round(answer.timings.request_ms ?? answer.timings.total_ms ?? 0)} ms</p>
          <ol>
            {answer.evidence.map((e) => (
              <li key={e.id} class={e.superseded ? 'closed' : ''}>
                <span class="layer">{e.layer}</span> {e.text}
                <span class="muted"> · {e.speaker ? displayName(e.speaker) : ''}{e.valid_to ? ` · until ${when(e.valid_to)}` : ''} · score {e.score.toFixed(3)}</span>
              </li>
            ))}
          </ol>
        </div>
      )}
    </div>
  );
}

export interface MemoryProps {
  people: Participant[];
  version: number;
  onErased: (id: string) => void;
}

export function MemoryView(props: MemoryProps) {
  const [q, setQ] = useState('');
  const [search, setSearch] = useState('');
  const [person, setPerson] = useState('');
  const [history, setHistory] = useState(true);
  const [facts, setFacts] = useState<Fact[]>([]);
  const [cut, setCut] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let cancelled = false;
    listFacts({ q: search || undefined, participant: person || undefined, history }).then(
      (f) => { if (!cancelled) { setFacts(f.items); setCut(f.truncated); setError(null); } },
      (err: Error) => { if (!cancelled) setError(err.message); },
    );
    return () => { cancelled = true; };
  }, [search, person, history, props.version]);

  return (
    <section class="memory">
      <div class="columns">
        <div>
          <form class="toolbar" onSubmit={(ev) => { ev.preventDefault(); setSearch(q.trim()); }}>
            <input aria-label="search memories" placeholder="search facts" value={q} onInput={(e) => setQ(e.currentTarget.value)} />
            <button type="submit">Search</button>
            <select aria-label="person" value={person} onChange={(e) => setPerson(e.currentTarget.value)}>
              <option value="">everyone</option>
              {props.people.map((p) => <option key={p.id} value={p.id}>{displayName(p)}</option>)}
            </select>
            <label><input type="checkbox" checked={history} onChange={(e) => setHistory(e.currentTarget.checked)} /> history</label>
          </form>
          {error && <p class="error" role="alert">{error}</p>}
          {cut && <p class="muted cut" role="status">{cutNotice(search ? 'matching facts' : 'facts, newest first')}</p>}
          {facts.length === 0 ? <p class="muted">no facts{search ? ` matching “${search}”` : ''}</p> : <FactChains facts={facts} />}
          <h3>Ask</h3>
          <QuestionBox />
        </div>
        <aside>
          <h3>People</h3>
          <ul class="people" aria-label="people">
            {props.people.map((p) => (
              <li key={p.id} data-person={p.id}>
                <span class="dot" style={{ background: speakerColor(p.id) }} /> <span class="person-name">{displayName(p)}</span>
                {' '}<EraseButton person={p} onErased={props.onErased} />
              </li>
            ))}
          </ul>
        </aside>
      </div>
    </section>
  );
}
