/** A person: profile, current facts, persona; and erasure with a confirmation. */
import { Fragment } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { cutNotice, displayName, eraseParticipant, getParticipant, getPersona, listFacts, type Fact, type Participant, type PersonaNode } from './api.ts';
import { speakerColor } from './colors.ts';

export function EraseButton(props: { person: { id: string; name: string | null }; onErased: (id: string) => void }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const erase = async (): Promise<void> => {
    setBusy(true);
    try {
      await eraseParticipant(props.person.id);
      props.onErased(props.person.id);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };
  if (!confirming) {
    return <button class="danger erase" onClick={() => setConfirming(true)}>Erase…</button>;
  }
  return (
    <span class="confirm" role="alertdialog" aria-label={`erase ${displayName(props.person)}`}>
      Erase {displayName(props.person)} everywhere (profile, utterances, memories, persona, voiceprints, audio)? This cannot be undone.
      <button class="danger confirm-erase" disabled={busy} onClick={() => void erase()}>Yes, erase</button>
      <button onClick={() => setConfirming(false)}>Cancel</button>
      {error && <span class="error">{error}</span>}
    </span>
  );
}

export function PersonPanel(props: { id: string; version: number; onErased: (id: string) => void }) {
  const [person, setPerson] = useState<Participant | null>(null);
  const [facts, setFacts] = useState<Fact[]>([]);
  const [cut, setCut] = useState(false);
  const [persona, setPersona] = useState<PersonaNode[]>([]);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let cancelled = false;
    void (async () => {
      try {
        const [p, f, n] = await Promise.all([getParticipant(props.id), listFacts({ participant: props.id }), getPersona(props.id)]);
        if (cancelled) return;
        setPerson(p);
        setFacts(f.items);
        setCut(f.truncated);
        setPersona(n);
        setError(null);
      } catch (err) {
        if (!cancelled) setError((err as Error).message);
      }
    })();
    return () => { cancelled = true; };
  }, [props.id, props.version]);

  if (error) return <aside class="person"><p class="error">{error}</p></aside>;
  // /v1/memories?participant= also returns facts that only mention the person (e.g. said to them).
  const about = facts.filter((f) => f.subject_id === props.id);
  const mentioning = facts.length - about.length;
  if (!person) return <aside class="person">loading…</aside>;
  return (
    <aside class="person" data-person-panel={person.id}>
      <h3 style={{ color: speakerColor(person.id) }}>{displayName(person)}</h3>
      <dl>
        <dt>id</dt><dd><code>{person.id}</code></dd>
        {person.aliases.length > 0 && <><dt>aliases</dt><dd>{person.aliases.join(', ')}</dd></>}
        {Object.entries(person.attributes).map(([k, v]) => <Fragment key={k}><dt>{k}</dt><dd>{typeof v === 'string' ? v : JSON.stringify(v)}</dd></Fragment>)}
        <dt>voiceprints</dt><dd>{person.voiceprint_count}</dd>
        <dt>since</dt><dd>{new Date(person.created_at).toLocaleString()}</dd>
      </dl>
      <h4>Facts</h4>
      {about.length === 0 ? <p class="muted">none yet</p> : (
        <ul class="facts">{about.map((f) => <li key={f.id}><span class="layer">{f.kind}</span> {f.text}</li>)}</ul>
      )}
      {cut && <p class="muted small cut" role="status">{cutNotice('facts, newest first')}</p>}
      {mentioning > 0 && <p class="muted small">and {mentioning} fact{mentioning === 1 ? '' : 's'} about others that mention {displayName(person)} (Memory view)</p>}
      <h4>Persona</h4>
      {persona.length === 0 ? <p class="muted">none yet</p> : (
        <ul class="persona">
          {persona.map((n) => (
            <li key={n.id}>
              <span class="layer">{n.kind}</span> {n.target}{n.label ? ` (${n.label})` : ''}: valence {n.valence.toFixed(2)},
              {' '}{n.evidence_count} observation{n.evidence_count === 1 ? '' : 's'}{n.stable ? ', stable' : ''}
            </li>
          ))}
        </ul>
      )}
      <EraseButton person={person} onErased={props.onErased} />
    </aside>
  );
}
