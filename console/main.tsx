/** Parley console: live call, who-to-whom graph, memory with history. Served by Parley at /console/. */
import { render } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { ApiError, keyRequired, listParticipants, storedKey, storeKey, type Participant } from './api.ts';
import { GraphView } from './graph.tsx';
import { LiveView } from './live.tsx';
import { MemoryView } from './memory.tsx';

type Tab = 'live' | 'graph' | 'memory';
const TABS: readonly Tab[] = ['live', 'graph', 'memory'];
/** The view named by the URL's hash (#live, #graph, #memory); Live otherwise. */
const tabFromHash = (): Tab => TABS.find((t) => `#${t}` === location.hash) ?? 'live';

function KeyForm(props: { message: string | null; onKey: (key: string) => void }) {
  const [key, setKey] = useState('');
  return (
    <form class="key-form" onSubmit={(ev) => { ev.preventDefault(); if (key.trim()) props.onKey(key.trim()); }}>
      <h2>API key</h2>
      <p class="muted">This Parley server needs an API key. It is kept in this tab's session storage only, and sent as a Bearer token.</p>
      {props.message && <p class="error" role="alert">{props.message}</p>}
      <input type="password" aria-label="API key" autoComplete="off" value={key} onInput={(e) => setKey(e.currentTarget.value)} />
      <button type="submit">Use key</button>
    </form>
  );
}

function App() {
  const [auth, setAuth] = useState<'checking' | 'needed' | 'ok'>('checking');
  const [authMessage, setAuthMessage] = useState<string | null>(null);
  const [tab, setTab] = useState<Tab>(tabFromHash);
  const [sessionId] = useState(() => `console-${new Date().toISOString().replace(/[^0-9]/g, '').slice(0, 14)}-${Math.random().toString(36).slice(2, 6)}`);
  const [people, setPeople] = useState<Participant[]>([]);
  const [erased, setErased] = useState<Set<string>>(new Set());
  const [names, setNames] = useState<Map<string, string | null>>(new Map());
  const [version, setVersion] = useState(0);
  /** Whether this console's own session has started: until then the Graph view shows everyone. */
  const [started, setStarted] = useState(false);

  const refresh = useCallback(async (): Promise<void> => {
    try {
      setPeople(await listParticipants());
      setAuth('ok');
      setVersion((v) => v + 1);
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        setAuth('needed');
        setAuthMessage(storedKey() ? 'that key was refused' : null);
      } else {
        setAuthMessage((err as Error).message);
      }
    }
  }, []);

  useEffect(() => {
    // A server that needs a key and none kept yet: ask for it before any API call (no 401 on the first load).
    void (async () => {
      if (!storedKey() && (await keyRequired()) === true) setAuth('needed');
      else await refresh();
    })();
  }, [refresh]);
  useEffect(() => {
    const onHash = (): void => setTab(tabFromHash());
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);

  if (auth === 'checking') return <p class="muted">connecting…</p>;
  if (auth === 'needed') return <KeyForm message={authMessage} onKey={(k) => { storeKey(k); void refresh(); }} />;

  const onErased = (id: string): void => {
    setErased((s) => new Set([...s, id]));
    void refresh();
  };
  const onRename = (id: string, name: string | null): void => {
    setNames((m) => new Map(m).set(id, name));
    void refresh();
  };
  const tabs: [Tab, string][] = [['live', 'Live'], ['graph', 'Graph'], ['memory', 'Memory']];
  return (
    <>
      <header>
        <h1>Parley</h1>
        <nav>
          {tabs.map(([id, label]) => <a key={id} href={`#${id}`} class={tab === id ? 'active' : ''} aria-current={tab === id ? 'page' : undefined}>{label}</a>)}
        </nav>
        <span class="spacer" />
        {storedKey() && <button class="link" onClick={() => { storeKey(null); setAuth('needed'); setAuthMessage(null); }}>forget key</button>}
      </header>
      <main>
        {/* Live stays mounted (hidden) so the call goes on while the other views are open. */}
        <div hidden={tab !== 'live'}>
          <LiveView sessionId={sessionId} erased={erased} names={names} onRename={onRename} onSpeakersChanged={() => void refresh()} onStarted={() => setStarted(true)} />
        </div>
        {tab === 'graph' && <GraphView sessionId={sessionId} sessionStarted={started} version={version} erased={erased} onErased={onErased} />}
        {tab === 'memory' && <MemoryView people={people} version={version} onErased={onErased} />}
      </main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
