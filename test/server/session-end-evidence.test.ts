import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { GraphStore } from '../../graph/graph-store.js';
import { LiveSession } from '../../server/ws/live-session.js';
import { SessionSpeakers } from '../../server/ws/session-speakers.js';
import type { VoiceTurnsDeps } from '../../server/ws/voice-turns-host.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { RECLUSTER_SCRIPT, SCRIPTED_DECISION, SCRIPTED_RULES, ScriptedEmbedder } from '../helpers/scripted-speakers.js';

/**
 * The end-of-session passes of a live session's speakers (`SessionSpeakers.merge`: the id merge, the pooled claims, the
 * re-clustering, here on) on the server's own stores, with a scripted speaker embedder (`RECLUSTER_SCRIPT`: its seventh
 * turn, X, founds an id online and the re-clustering moves it to the first voice, A, unless something keeps them apart).
 * Each session is its own tenant. Turns are 2.3 s, one every 3 s, unless a test sets a span.
 */
describe('end-of-session passes: evidence read once, the same cannot-links everywhere', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ PARLEY_SPEAKER_RECLUSTER: 'true' }, false);
  });
  after(() => t.close());

  /** Reads of the session's transcript through the graph the passes are given. */
  interface Run { transcriptReads: number; revised: { from: string; into: string }[]; merged: { from: string; into: string }[]; ids: string[] }

  interface SessionOptions {
    spans?: Record<number, [number, number]>;
    texts?: Record<number, string>;
    before?: (ids: string[]) => Promise<void>;
    /** Default `RECLUSTER_SCRIPT`, the embedder 'scripted', no pooled claim, wideband, the session id as tenant. */
    script?: [number, number, number][];
    models?: Record<string, unknown>;
    band?: 'wideband' | 'narrowband';
    tenant?: string;
    config?: Partial<TestApp['config']>;
    /** A live session (of this tenant and id) to run the passes for: it is told of each stored turn, as the server tells it. */
    live?: LiveSession;
  }

  /**
   * The script's turns identified and stored (texts and spans as given, else "turn N" at N·3 s), then `before` (names,
   * extra lines), then the end-of-session passes.
   */
  async function session(id: string, opts: SessionOptions = {}): Promise<Run> {
    const tenant = opts.tenant ?? id;
    const script = opts.script ?? RECLUSTER_SCRIPT;
    const graph = t.app.stores.graph;
    let transcriptReads = 0;
    const counted = new Proxy(graph, {
      get(target, key, receiver) {
        if (key === 'getTranscript') return async (...args: Parameters<GraphStore['getTranscript']>) => { transcriptReads++; return target.getTranscript(...args); };
        const v = Reflect.get(target, key, receiver) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    const models = Object.assign(Object.create(t.app.models) as object, {
      speakerEmbedder: new ScriptedEmbedder(script), speakerDecision: SCRIPTED_DECISION, speakerSessionRules: SCRIPTED_RULES, speakerCentroid: null,
      speakerPooledClaim: null, ...opts.models,
    });
    const revised: { from: string; into: string }[] = [];
    const merged: { from: string; into: string }[] = [];
    const send = ((type: string, payload: Record<string, unknown>) => { (type === 'speaker.revised' ? revised : type === 'speaker.merged' ? merged : []).push(payload as { from: string; into: string }); }) as never;
    const host = opts.live ? Object.assign(opts.live, { send }) : {
      tenant, id, log: t.app.log, pendingExternalId: null, agents: new Set<string>(), send,
      participantForNewVoice: async () => (await graph.createParticipant(tenant, {})).id,
      participantRetired: async () => {}, idsRetired: () => {},
    };
    const speakers = new SessionSpeakers(host, { config: { ...t.config, ...opts.config }, stores: { ...t.app.stores, graph: counted }, models } as unknown as VoiceTurnsDeps);
    await graph.openSession(tenant, id, new Date(0).toISOString());
    const ids: string[] = [];
    for (let i = 0; i < script.length; i++) {
      const assigned = await speakers.identify(new Float32Array(16_000), 2300, opts.band ?? 'wideband');
      ids.push(assigned.participantId);
      const [startMs, endMs] = opts.spans?.[i] ?? [i * 3000, i * 3000 + 2300];
      const [u] = await graph.addUtterances(tenant, [{
        sessionId: id, speakerId: assigned.participantId, addresseeIds: [], text: opts.texts?.[i] ?? `turn ${i}`, startMs, endMs,
        time: new Date(startMs).toISOString(), confidence: 1, audioRef: null,
      }]);
      speakers.stored(assigned, u!.id);
      opts.live?.finalised(`turn_${i}`, { utterance: u!, speaker: { id: assigned.participantId, name: null, confidence: 1, isNew: false }, addressees: [] });
    }
    await opts.before?.(ids);
    transcriptReads = 0;
    await speakers.merge();
    return { transcriptReads, revised, merged, ids };
  }

  // The end-of-session merge relabelled the store, the tracker and the client, but the live session kept the merged-away id
  // as its last speaker (the asker of memory.context, the default of participant.identify) and among its agents.
  test('an end-of-session merge moves the live session\'s last speaker and agents to the survivor', async () => {
    const id = 'merge-live-ids';
    const live = new LiveSession(id, id, 0, t.app.liveSessionDeps, t.app.log, 'ls_merge_live_ids');
    const { merged, ids } = await session(id, {
      live, config: { speakerRecluster: false },
      models: { speakerThresholds: { ...t.app.models.speakerThresholds, mergeTau: 0.3 } },
      before: async (heard) => {
        live.agents = new Set([heard[6]!]);
      },
    });
    assert.deepEqual(merged, [{ from: ids[6], into: ids[0] }], 'X (cosine 0.47 with A) merged into A at the lowered bar');
    assert.equal(live.lastSpeakerId(), ids[0]);
    assert.equal(live.lastNonAgentId(), ids[0]);
    assert.deepEqual([...live.agents], [ids[0]]);
  });

  test('the passes read the session\'s transcript once (the merge, the claims and the re-clustering share it)', async () => {
    const { transcriptReads, revised, ids } = await session('evidence-once');
    assert.equal(new Set(ids).size, 3, 'A, B and X');
    assert.deepEqual(revised.map((r) => [r.from, r.into]), [[ids[6], ids[0]]], 'the re-clustering ran and moved X to A');
    assert.equal(transcriptReads, 1);
  });

  test('the re-clustering never gives a turn to an id that spoke at the same time', async () => {
    // X's turn overlaps A's third (6.0–8.3 s): two people, however alike their voices.
    const { revised, ids } = await session('evidence-overlap', { spans: { 6: [7000, 9300] } });
    assert.equal(new Set(ids).size, 3);
    assert.deepEqual(revised, []);
  });

  test('the re-clustering never joins ids where one addressed the other by name, even in a line it does not cluster', async () => {
    // X is Zed; A says "Zed, …" in a line stored without a voice turn (text only): A and Zed are two people.
    const { revised, ids } = await session('evidence-vocative', {
      before: async ([a, , , , , , x]) => {
        await t.app.stores.graph.updateParticipant('evidence-vocative', x!, { name: 'Zed' });
        await t.app.stores.graph.addUtterances('evidence-vocative', [{
          sessionId: 'evidence-vocative', speakerId: a!, addresseeIds: [], text: 'Zed, can you send me the figures', startMs: 22_000, endMs: 23_500,
          time: new Date(22_000).toISOString(), confidence: 1, audioRef: null,
        }]);
      },
    });
    assert.equal(new Set(ids).size, 3);
    assert.deepEqual(revised, []);
  });
});
