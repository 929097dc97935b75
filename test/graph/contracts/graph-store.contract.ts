import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';
import type { GraphStore, NewUtterance } from '../../../graph/graph-store.js';
import type { Utterance } from '../../../graph/types.js';
import { nameWords } from '../../../graph/name-words.js';
import { contractSuite } from './contract-suite.js';

export interface GraphStoreFixture {
  store: GraphStore;
  cleanup(): Promise<void>;
}

function utterance(sessionId: string, speakerId: string, text: string, extra: Partial<NewUtterance> = {}): NewUtterance {
  return {
    sessionId, speakerId, text, addresseeIds: [], startMs: null, endMs: null,
    time: '2026-11-01T10:00:00.000Z', confidence: null, audioRef: null, ...extra,
  };
}

/** The behaviour every GraphStore implementation must show. `skip` names why it cannot run here. */
export function graphStoreContract(name: string, factory: () => Promise<GraphStoreFixture>, skip?: string): void {
  contractSuite(`GraphStore contract: ${name}`, skip, () => {
    let fx: GraphStoreFixture;
    beforeEach(async () => {
      fx = await factory();
    });
    afterEach(async () => {
      await fx.cleanup();
    });

    test('external ids: unique per tenant, found exactly, cleared by null, kept through a merge', async () => {
      const a = await fx.store.createParticipant('t1', { name: 'Ana', externalId: '+15550100' });
      assert.equal(a.externalId, '+15550100');
      assert.equal((await fx.store.getParticipantByExternalId('t1', '+15550100'))?.id, a.id);
      assert.equal(await fx.store.getParticipantByExternalId('t2', '+15550100'), null, 'per tenant');
      const other = await fx.store.createParticipant('t2', { externalId: '+15550100' });
      assert.equal(other.externalId, '+15550100', 'another tenant may hold the same external id');
      await assert.rejects(fx.store.createParticipant('t1', { externalId: '+15550100' }), { code: 'PARLEY_ERR_CONFLICT' });
      const b = await fx.store.createParticipant('t1', { name: 'Ben' });
      assert.equal(b.externalId, null);
      await assert.rejects(fx.store.updateParticipant('t1', b.id, { externalId: '+15550100' }), { code: 'PARLEY_ERR_CONFLICT' });
      assert.equal((await fx.store.updateParticipant('t1', b.id, { externalId: 'crm:7' }))?.externalId, 'crm:7');
      assert.equal((await fx.store.updateParticipant('t1', b.id, { name: 'Benny' }))?.externalId, 'crm:7', 'a patch without it keeps it');
      await assert.rejects(fx.store.mergeParticipants('t1', b.id, a.id), { code: 'PARLEY_ERR_CONFLICT' }, 'two known people are never merged');
      assert.equal((await fx.store.updateParticipant('t1', a.id, { externalId: null }))?.externalId, null);
      await fx.store.mergeParticipants('t1', b.id, a.id);
      assert.equal((await fx.store.getParticipant('t1', a.id))?.externalId, 'crm:7', 'into takes the merged one\'s external id');
      assert.equal((await fx.store.getParticipantByExternalId('t1', 'crm:7'))?.id, a.id);
    });

    test('one utterance given to another speaker: only it moves, the speaker leaves its addressees; a refused move changes nothing', async () => {
      const [ana, ben] = [await fx.store.createParticipant('t1', { name: 'Ana' }), await fx.store.createParticipant('t1', { name: 'Ben' })];
      const dee = await fx.store.createParticipant('t2', { name: 'Dee' });
      const [hello, still] = await fx.store.addUtterances('t1', [utterance('s1', ana.id, 'Hello Ben.', { addresseeIds: [ben.id] }), utterance('s1', ana.id, 'Still me.')]);
      const moved = await fx.store.setUtteranceSpeaker('t1', hello!.id, ben.id);
      assert.deepEqual([moved?.speakerId, moved?.addresseeIds, moved?.text, moved?.seq], [ben.id, [], 'Hello Ben.', hello!.seq]);
      assert.deepEqual((await fx.store.getTranscript('t1', 's1')).map((u) => u.speakerId), [ben.id, ana.id]);
      assert.deepEqual((await fx.store.queryInteractions('t1', { speakerId: ben.id })).map((u) => u.id), [hello!.id]);
      assert.deepEqual((await fx.store.queryInteractions('t1', { speakerId: ana.id })).map((u) => u.id), [still!.id]);
      assert.deepEqual(await fx.store.queryInteractions('t1', { addresseeId: ben.id }), [], 'nobody addresses themself');
      for (const [tenant, speaker] of [['t1', 'p_nobody'], ['t1', dee.id]] as const) {
        await assert.rejects(fx.store.setUtteranceSpeaker(tenant, still!.id, speaker), { code: 'PARLEY_ERR_NOT_FOUND' });
      }
      assert.deepEqual(await fx.store.getUtterance('t1', still!.id), still, 'a refused move changes nothing');
      assert.equal(await fx.store.setUtteranceSpeaker('t1', 'u_missing', ben.id), null);
      assert.equal(await fx.store.setUtteranceSpeaker('t2', still!.id, dee.id), null, 'another tenant\'s utterance is not found');
      assert.equal((await fx.store.getUtterance('t1', still!.id))?.speakerId, ana.id);
      assert.deepEqual(await fx.store.pendingMoves('t1'), [hello!.id], 'the stored move is pending until its re-indexing is queued');
      assert.deepEqual(await fx.store.pendingMoves('t2'), [], 'per tenant');
      await fx.store.clearPendingMoves('t2', [hello!.id]);
      assert.deepEqual(await fx.store.pendingMoves('t1'), [hello!.id], 'another tenant clears nothing');
      await fx.store.clearPendingMoves('t1', [hello!.id, 'u_missing']);
      assert.deepEqual(await fx.store.pendingMoves('t1'), []);
      assert.equal((await fx.store.getUtterance('t1', hello!.id))?.speakerId, ben.id, 'clearing changes nothing else');
    });

    test('an utterance keeps the stream turn that stored it; one stored without a turn has none', async () => {
      const ana = await fx.store.createParticipant('t1', { name: 'Ana' });
      const [withTurn, without] = await fx.store.addUtterances('t1', [
        utterance('s1', ana.id, 'Typed in a live session.', { id: 'client-1', turnId: 'turn_7' }),
        utterance('s1', ana.id, 'Posted over HTTP.'),
      ]);
      assert.equal(withTurn?.turnId, 'turn_7');
      assert.equal(without?.turnId, undefined);
      assert.equal((await fx.store.getUtterance('t1', 'client-1'))?.turnId, 'turn_7');
      assert.deepEqual((await fx.store.getTranscript('t1', 's1')).map((u) => u.turnId), ['turn_7', undefined]);
    });

    test('an utterance keeps the recogniser and rate that heard it; text and old rows have none (trial12 F12)', async () => {
      const ana = await fx.store.createParticipant('t1', { name: 'Ana' });
      const [room, phone, typed] = await fx.store.addUtterances('t1', [
        utterance('s1', ana.id, 'niacin learn shit', { id: 'heard-room', confidence: 0.11, heardBy: { asr: 'pocketsphinx', sampleRate: 16000 } }),
        utterance('s1', ana.id, 'I live in Leeds', { id: 'heard-phone', confidence: 0.11, heardBy: { asr: 'moonshine', sampleRate: 8000 } }),
        utterance('s1', ana.id, 'Typed.'),
      ]);
      assert.deepEqual(room?.heardBy, { asr: 'pocketsphinx', sampleRate: 16000 });
      assert.deepEqual(phone?.heardBy, { asr: 'moonshine', sampleRate: 8000 });
      assert.equal(typed?.heardBy, undefined);
      assert.deepEqual((await fx.store.getUtterance('t1', 'heard-phone'))?.heardBy, { asr: 'moonshine', sampleRate: 8000 });
      assert.deepEqual((await fx.store.getTranscript('t1', 's1')).map((u) => u.heardBy),
        [{ asr: 'pocketsphinx', sampleRate: 16000 }, { asr: 'moonshine', sampleRate: 8000 }, undefined]);
    });

    test('sessions open once and keep their settings', async () => {
      const first = await fx.store.openSession('t1', 's1', '2026-11-01T10:00:00.000Z');
      const again = await fx.store.openSession('t1', 's1', '2026-11-02T10:00:00.000Z');
      assert.equal(again.startedAt, first.startedAt);
      await fx.store.updateSession('t1', 's1', { metadata: { language: 'en' }, lastEventSeq: 7 });
      await fx.store.updateSession('t1', 's1', { lastEventSeq: 3 });
      const s = await fx.store.getSession('t1', 's1');
      assert.deepEqual(s?.metadata, { language: 'en' });
      assert.equal(s?.lastEventSeq, 7, 'lastEventSeq never goes back');
      assert.equal(s?.endedAt, null);
      assert.equal(await fx.store.getSession('t2', 's1'), null, 'sessions are per tenant');
    });

    test('a session keeps where its latest audio stream begins, set and replaced only when given', async () => {
      const opened = await fx.store.openSession('t1', 's-stream', '2026-11-01T10:00:00.000Z');
      assert.equal(opened.audioStreamMs, null, 'no stream before the first');
      await fx.store.updateSession('t1', 's-stream', { audioStreamMs: 0 });
      assert.equal((await fx.store.getSession('t1', 's-stream'))?.audioStreamMs, 0, 'a stream from 0 is kept as 0, not as none');
      await fx.store.updateSession('t1', 's-stream', { audioStreamMs: 12_345.5 });
      await fx.store.updateSession('t1', 's-stream', { metadata: { language: 'en' }, lastEventSeq: 4 });
      assert.equal((await fx.store.getSession('t1', 's-stream'))?.audioStreamMs, 12_345.5, 'other updates leave it as it is');
    });

    test('an audio stream taken over: the earlier holder stores no turn and records no stream start; others still store', async () => {
      const ana = await fx.store.createParticipant('t1', { name: 'Ana' });
      assert.equal((await fx.store.openSession('t1', 's-own', '2026-11-01T10:00:00.000Z')).streamOwner, null);
      const turn = (text: string): NewUtterance => utterance('s-own', ana.id, text, { startMs: 0, endMs: 900 });
      // Nobody holds the stream yet (a session of an older version): a turn is stored.
      await fx.store.addUtterances('t1', [turn('before any owner')], { streamOwner: 'server-a' });
      await fx.store.takeAudioStream('t1', 's-own', 'server-a');
      assert.equal((await fx.store.getSession('t1', 's-own'))?.streamOwner, 'server-a');
      assert.equal(await fx.store.startAudioStream('t1', 's-own', 'server-a', 900), true);
      await fx.store.addUtterances('t1', [turn('said on server a')], { streamOwner: 'server-a' });

      // A reconnect to another server takes it over: server A's next turn and stream start are refused, nothing written.
      await fx.store.takeAudioStream('t1', 's-own', 'server-b');
      await assert.rejects(fx.store.addUtterances('t1', [turn('stored twice if a resend of it were stored too')], { streamOwner: 'server-a' }),
        { code: 'PARLEY_ERR_SESSION_BUSY', message: /taken over/ });
      assert.equal(await fx.store.startAudioStream('t1', 's-own', 'server-a', 5000), false);
      assert.equal((await fx.store.getSession('t1', 's-own'))?.audioStreamMs, 900, 'the refused start wrote nothing');
      assert.equal(await fx.store.startAudioStream('t1', 's-own', 'server-b', 1800), true);
      await fx.store.addUtterances('t1', [turn('said on server b')], { streamOwner: 'server-b' });
      // Utterances with no stream (typed, posted over HTTP) are not its to refuse.
      await fx.store.addUtterances('t1', [turn('posted over HTTP')]);
      assert.deepEqual((await fx.store.getTranscript('t1', 's-own')).map((u) => u.text),
        ['before any owner', 'said on server a', 'said on server b', 'posted over HTTP']);
      assert.equal((await fx.store.getSession('t1', 's-own'))?.audioStreamMs, 1800);
    });

    test('a stream start records its conversation clock (start_time and where it counts from), or none', async () => {
      await fx.store.openSession('t1', 's-clock', '2026-11-01T10:00:00.000Z');
      assert.equal((await fx.store.getSession('t1', 's-clock'))?.streamClock, null, 'none before a stream');
      await fx.store.takeAudioStream('t1', 's-clock', 'server-a');
      const clock = { startTime: Date.parse('2026-03-11T09:30:00.000Z'), baseMs: 0 };
      assert.equal(await fx.store.startAudioStream('t1', 's-clock', 'server-a', 0, clock), true);
      assert.deepEqual((await fx.store.getSession('t1', 's-clock'))?.streamClock, clock);
      await fx.store.takeAudioStream('t1', 's-clock', 'server-b');
      assert.equal(await fx.store.startAudioStream('t1', 's-clock', 'server-a', 900, null), false);
      assert.deepEqual((await fx.store.getSession('t1', 's-clock'))?.streamClock, clock, 'a refused start leaves it');
      assert.equal(await fx.store.startAudioStream('t1', 's-clock', 'server-b', 12_736), true);
      assert.equal((await fx.store.getSession('t1', 's-clock'))?.streamClock, null, 'a stream without start_time has none');
    });

    test('a takeover racing turns being stored: what it reads after taking over is all the earlier holder ever stores', async () => {
      const ana = await fx.store.createParticipant('t1', { name: 'Ana' });
      await fx.store.openSession('t1', 's-race', '2026-11-01T10:00:00.000Z');
      await fx.store.takeAudioStream('t1', 's-race', 'server-a');
      const writes = Array.from({ length: 12 }, (_, i) => fx.store.addUtterances('t1',
        [utterance('s-race', ana.id, `turn ${i}`, { startMs: i * 1000, endMs: i * 1000 + 900 })], { streamOwner: 'server-a' }).then(() => 'stored', (err: { code?: string }) => err.code));
      await fx.store.takeAudioStream('t1', 's-race', 'server-b');
      // What a server resuming the session reads once it holds the stream: it names the rest for a resend.
      const read = (await fx.store.getTranscript('t1', 's-race')).map((u) => u.text);
      const outcomes = await Promise.all(writes);
      assert.deepEqual((await fx.store.getTranscript('t1', 's-race')).map((u) => u.text), read, 'no turn of server A landed after the takeover');
      assert.equal(outcomes.filter((o) => o === 'stored').length, read.length);
      assert.ok(outcomes.every((o) => o === 'stored' || o === 'PARLEY_ERR_SESSION_BUSY'), outcomes.join(', '));
    });

    test('idleSessions: open sessions of every tenant last active before the time, longest idle first; never ended or never streamed ones', async () => {
      const at = (minutes: number): string => new Date(Date.UTC(2026, 11, 5, 10, minutes)).toISOString();
      for (const [tenant, id] of [['t1', 'idle-a'], ['t2', 'idle-b'], ['t1', 'idle-recent'], ['t1', 'idle-ended'], ['t1', 'idle-never']] as const) {
        await fx.store.openSession(tenant, id, at(0));
      }
      await fx.store.updateSession('t1', 'idle-a', { activeAt: at(5) });
      await fx.store.updateSession('t2', 'idle-b', { activeAt: at(3) });
      await fx.store.updateSession('t1', 'idle-recent', { activeAt: at(40) });
      await fx.store.updateSession('t1', 'idle-ended', { activeAt: at(1) });
      await fx.store.endSession('t1', 'idle-ended', at(2));
      // Marked active after its end (a late mark): still ended, not idle. Ended by an update: the same.
      await fx.store.updateSession('t1', 'idle-ended', { activeAt: at(4) });
      await fx.store.openSession('t1', 'idle-patched', at(0));
      await fx.store.updateSession('t1', 'idle-patched', { activeAt: at(2) });
      await fx.store.updateSession('t1', 'idle-patched', { endedAt: at(6) });
      await fx.store.updateSession('t1', 'idle-a', { metadata: { kept: true } });
      assert.equal((await fx.store.getSession('t1', 'idle-a'))?.activeAt, at(5), 'other updates leave it');
      assert.equal((await fx.store.getSession('t1', 'idle-never'))?.activeAt, null);
      assert.deepEqual(await fx.store.idleSessions(at(30), 10), [{ tenant: 't2', id: 'idle-b' }, { tenant: 't1', id: 'idle-a' }]);
      assert.deepEqual(await fx.store.idleSessions(at(30), 1), [{ tenant: 't2', id: 'idle-b' }]);
    });

    test('event numbers reserved but not sent are given back only by their holder', async () => {
      await fx.store.openSession('t1', 's-seq', '2026-11-01T10:00:00.000Z');
      await fx.store.updateSession('t1', 's-seq', { lastEventSeq: 107 });
      await fx.store.releaseEventSeq('t1', 's-seq', 107, 9);
      assert.equal((await fx.store.getSession('t1', 's-seq'))?.lastEventSeq, 9, 'the unused reservation is given back');
      await fx.store.updateSession('t1', 's-seq', { lastEventSeq: 210 });
      await fx.store.releaseEventSeq('t1', 's-seq', 109, 12);
      assert.equal((await fx.store.getSession('t1', 's-seq'))?.lastEventSeq, 210, 'a newer reservation is never taken back');
      await fx.store.releaseEventSeq('t1', 's-seq', 210, 300);
      assert.equal((await fx.store.getSession('t1', 's-seq'))?.lastEventSeq, 210, 'a release never raises the numbering');
    });

    test('endSession: of several ends at once one holds; later ends find it; none for an unknown session', async () => {
      await fx.store.openSession('t1', 's1', '2026-11-01T10:00:00.000Z');
      const times = Array.from({ length: 8 }, (_, i) => `2026-11-01T11:00:0${i}.000Z`);
      const ends = await Promise.all(times.map((at) => fx.store.endSession('t1', 's1', at)));
      assert.equal(ends.filter((e) => e?.ended).length, 1, 'exactly one call ends it');
      const held = ends.find((e) => e?.ended)!.endedAt;
      assert.deepEqual(ends.map((e) => e?.endedAt), times.map(() => held), 'every call answers the same end');
      assert.deepEqual(await fx.store.endSession('t1', 's1', '2026-11-02T00:00:00.000Z'), { endedAt: held, ended: false });
      assert.equal((await fx.store.getSession('t1', 's1'))?.endedAt, held);
      assert.equal(await fx.store.endSession('t1', 'nope', '2026-11-02T00:00:00.000Z'), null);
      assert.equal(await fx.store.endSession('t2', 's1', '2026-11-02T00:00:00.000Z'), null, 'sessions are per tenant');
    });

    test('participants: create, find by name or alias, patch, list', async () => {
      const ana = await fx.store.createParticipant('t1', { name: 'Ana', aliases: ['Annie'] });
      await fx.store.createParticipant('t1', { name: 'Ben' });
      assert.equal((await fx.store.findParticipantsByName('t1', 'annie'))[0]?.id, ana.id);
      assert.equal((await fx.store.findParticipantsByName('t1', 'ANA'))[0]?.id, ana.id);
      const patched = await fx.store.updateParticipant('t1', ana.id, { attributes: { city: 'Porto' } });
      assert.deepEqual(patched?.attributes, { city: 'Porto' });
      assert.equal(patched?.name, 'Ana');
      assert.equal((await fx.store.listParticipants('t1')).length, 2);
      assert.equal(await fx.store.updateParticipant('t1', 'p_missing', { name: 'x' }), null);
    });

    test('createNamedParticipant: concurrent calls for one new name make one participant; a held name creates none', async () => {
      const made = await Promise.all(['Quinn', 'quinn', 'QUINN', 'Quinn', 'Quinn', 'Quinn'].map((n) => fx.store.createNamedParticipant('t1', n)));
      assert.equal(made.filter((m) => m.created).length, 1, 'exactly one call creates');
      const ids = new Set(made.flatMap((m) => m.participants.map((p) => p.id)));
      assert.equal(ids.size, 1, `one participant for every call: ${[...ids].join(', ')}`);
      assert.equal((await fx.store.findParticipantsByName('t1', 'Quinn')).length, 1);
      const ana = await fx.store.createParticipant('t1', { name: 'Ana', aliases: ['Annie'] });
      const other = await fx.store.createParticipant('t1', { name: 'Annie' });
      const held = await fx.store.createNamedParticipant('t1', 'annie');
      assert.equal(held.created, false);
      assert.deepEqual(held.participants.map((p) => p.id).sort(), [ana.id, other.id].sort(), 'every holder');
      const elsewhere = await fx.store.createNamedParticipant('t2', 'Quinn');
      assert.equal(elsewhere.created, true, 'names are per tenant');
    });

    test('participants listed a page at a time: oldest first, after a (createdAt, id) key, at most limit', async () => {
      const made = [];
      for (const name of ['P1', 'P2', 'P3', 'P4', 'P5']) made.push(await fx.store.createParticipant('tp', { name }));
      // Participants made within one millisecond share a creation time and the id orders them, so the
      // expected order is computed from the key, not assumed to be the order of creation.
      const byKey = (a: { createdAt: string; id: string }, b: { createdAt: string; id: string }) =>
        a.createdAt === b.createdAt ? (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) : a.createdAt < b.createdAt ? -1 : 1;
      const order = [...made].sort(byKey).map((p) => p.name);
      const all = await fx.store.listParticipants('tp');
      assert.deepEqual(all.map((p) => p.name), order);
      const first = await fx.store.listParticipants('tp', { limit: 2 });
      assert.deepEqual(first.map((p) => p.name), order.slice(0, 2));
      const second = await fx.store.listParticipants('tp', { after: first[1]!, limit: 2 });
      assert.deepEqual(second.map((p) => p.name), order.slice(2, 4));
      // A page stays right when a participant before the key is deleted meanwhile.
      await fx.store.deleteParticipant('tp', all[0]!.id);
      assert.deepEqual((await fx.store.listParticipants('tp', { after: second[1]!, limit: 2 })).map((p) => p.name), order.slice(4));
      assert.deepEqual(await fx.store.listParticipants('tp', { after: all[4]!, limit: 2 }), []);
      // Same creation time: the id breaks the tie, so no participant is skipped or served twice.
      const tied = [...all.slice(1)].sort(byKey);
      const paged = [];
      for (let after: { createdAt: string; id: string } | undefined; ;) {
        const page = await fx.store.listParticipants('tp', { ...(after ? { after } : {}), limit: 1 });
        if (page.length === 0) break;
        paged.push(page[0]!.id);
        after = page[0]!;
      }
      assert.deepEqual(paged, tied.map((p) => p.id));
    });

    test('participants by the words of their names: whole words, any case, aliases, possessives, oldest first', async () => {
      // Creation times have millisecond resolution: a pause lets "oldest first" be defined.
      const pause = () => new Promise((r) => setTimeout(r, 3));
      const ana = await fx.store.createParticipant('t1', { name: 'Ana Silva', aliases: ['Annie'] });
      await pause();
      const ben = await fx.store.createParticipant('t1', { name: "Ben O'Brien" });
      await pause();
      const elo = await fx.store.createParticipant('t1', { name: 'Élodie' });
      await pause();
      const anon = await fx.store.createParticipant('t1', {});
      await fx.store.createParticipant('t2', { name: 'Ana' });
      const ids = async (words: string[], tenant = 't1') => (await fx.store.findParticipantsByWords(tenant, words)).map((p) => p.id);
      assert.deepEqual(await ids(['silva']), [ana.id], 'a word of a multi-word name');
      assert.deepEqual(await ids(['ANNIE']), [ana.id], 'an alias, any case');
      assert.deepEqual(await ids(nameWords("What did Ben O'Brien's sister and Ana's friend say?")), [ana.id, ben.id], 'possessives, once each, oldest first');
      assert.deepEqual(await ids(['élodie']), [elo.id], 'folded beyond ASCII');
      assert.deepEqual(await ids(['an', 'silv', 'obrie', 'anasilva']), [], 'whole words only');
      assert.deepEqual(await ids([]), []);
      assert.deepEqual(await ids(['ana'], 't3'), [], 'tenants apart');
      assert.deepEqual((await fx.store.findParticipantsByWords('t1', ['obrien']))[0], await fx.store.getParticipant('t1', ben.id), 'the stored record');
      assert.deepEqual((await fx.store.findParticipantsByName('t1', 'ana SILVA')).map((p) => p.id), [ana.id], 'by name: the whole name');
      assert.deepEqual(await fx.store.findParticipantsByName('t1', 'silva'), [], 'by name: a word of it is not the name');
      assert.deepEqual((await fx.store.findParticipantsByName('t1', 'ÉLODIE')).map((p) => p.id), [elo.id]);
      await fx.store.updateParticipant('t1', ana.id, { aliases: ['Nan'] });
      assert.deepEqual(await ids(['annie']), [], 'a replaced alias is gone');
      assert.deepEqual(await ids(['nan', 'silva']), [ana.id]);
      await fx.store.updateParticipant('t1', anon.id, { name: 'Cy Silva' });
      assert.deepEqual(await ids(['silva']), [ana.id, anon.id], 'a name given later');
      await fx.store.mergeParticipants('t1', ben.id, elo.id);
      assert.deepEqual(await ids(['obrien', 'élodie']), [elo.id], 'the merged name is an alias of the survivor');
      await fx.store.deleteParticipant('t1', anon.id);
      assert.deepEqual(await ids(['cy', 'silva']), [ana.id], 'an erased participant is not found');
    });

    test('recently updated named participants: newest first, in pages, unnamed ones skipped', async () => {
      const pause = () => new Promise((r) => setTimeout(r, 5));
      const ana = await fx.store.createParticipant('t1', { name: 'Ana' });
      await pause();
      const ben = await fx.store.createParticipant('t1', { aliases: ['Benny'] });
      await pause();
      await fx.store.createParticipant('t1', {});
      await pause();
      const cy = await fx.store.createParticipant('t1', { name: 'Cy' });
      await fx.store.createParticipant('t2', { name: 'Dee' });
      await pause();
      const names = async (limit: number, offset?: number) => (await fx.store.recentNamedParticipants('t1', limit, offset)).map((p) => p.id);
      assert.deepEqual(await names(10), [cy.id, ben.id, ana.id]);
      await fx.store.updateParticipant('t1', ana.id, { attributes: { city: 'Porto' } });
      assert.deepEqual(await names(2), [ana.id, cy.id], 'an update makes a participant recent');
      assert.deepEqual(await names(2, 2), [ben.id], 'the next page');
      assert.deepEqual(await names(0), []);
      assert.deepEqual((await fx.store.recentNamedParticipants('t1', 1))[0], await fx.store.getParticipant('t1', ana.id), 'the stored record');
    });

    test('participants by ids in one call: those that exist, each once, this tenant only', async () => {
      const ana = await fx.store.createParticipant('t1', { name: 'Ana' });
      const ben = await fx.store.createParticipant('t1', { name: 'Ben', aliases: ['Benny'] });
      const other = await fx.store.createParticipant('t2', { name: 'Cy' });
      const found = await fx.store.getParticipants('t1', [ben.id, 'p_missing', ana.id, ben.id, other.id]);
      assert.deepEqual(found.map((p) => p.name).sort(), ['Ana', 'Ben']);
      assert.deepEqual(found.find((p) => p.id === ben.id), await fx.store.getParticipant('t1', ben.id), 'the same record getParticipant returns');
      assert.deepEqual(await fx.store.getParticipants('t1', []), []);
    });

    test('participants named in a text: name or alias, any case, oldest first; other tenants never', async () => {
      const ana = await fx.store.createParticipant('t1', { name: 'Ana', aliases: ['Annie'] });
      // Creation times have millisecond resolution: let "oldest first" be defined.
      await new Promise((resolve) => setTimeout(resolve, 3));
      const emile = await fx.store.createParticipant('t1', { name: 'Émile Zola' });
      const ben = await fx.store.createParticipant('t1', { name: 'Ben' });
      await fx.store.createParticipant('t1', { name: 'X' });
      await fx.store.createParticipant('t2', { name: 'Annie' });
      const ids = async (text: string): Promise<string[]> => (await fx.store.findParticipantsInText('t1', text)).map((p) => p.id);
      assert.deepEqual(await ids('thanks annie, and ÉMILE ZOLA too'), [ana.id, emile.id]);
      assert.deepEqual(await ids('émile zola wrote that'), [emile.id]);
      assert.deepEqual(await ids('nobody here'), []);
      assert.deepEqual(await ids('x marks the spot'), [], 'one-letter names are never matched');
      assert.deepEqual(await ids('Benefits'), [], 'whole words only');
      assert.deepEqual(await ids("Ben's and l'Annie's notes"), [ana.id, ben.id], 'possessives and elisions');
      assert.deepEqual(await ids('Émile said so'), [], 'the whole name, not one of its words');
      const al = await fx.store.createParticipant('t1', { name: "Al O'Neil", aliases: ['Al'] });
      assert.deepEqual(await ids('AL came'), [al.id], 'two characters');
      assert.deepEqual(await ids("ask al o'neil"), [al.id]);
      assert.deepEqual(await ids('a salad'), []);
      assert.deepEqual((await fx.store.findParticipantsByName('t1', 'émile zola')).map((p) => p.id), [emile.id]);
    });

    test('a transcript seq is never reused: erasing the last speaker leaves a gap, not a number to hand out again', async () => {
      const ana = await fx.store.createParticipant('t1', { name: 'Ana' });
      const ben = await fx.store.createParticipant('t1', { name: 'Ben' });
      await fx.store.addUtterances('t1', [utterance('s-gap', ana.id, 'One'), utterance('s-gap', ben.id, 'Two'), utterance('s-gap', ben.id, 'Three')]);
      await fx.store.deleteParticipant('t1', ben.id);
      const [next] = await fx.store.addUtterances('t1', [utterance('s-gap', ana.id, 'Four')]);
      assert.equal(next?.seq, 4, 'numbers 2 and 3 belonged to the erased utterances');
      assert.deepEqual((await fx.store.getTranscript('t1', 's-gap')).map((u) => u.seq), [1, 4]);
      // Each session counts on its own, and so does each tenant.
      assert.equal((await fx.store.addUtterances('t1', [utterance('s-other', ana.id, 'Hi')]))[0]?.seq, 1);
      assert.equal((await fx.store.addUtterances('t2', [utterance('s-gap', 'p_x', 'Hi')]))[0]?.seq, 1);
    });

    test('a transcript lists turns in the order they were said (time, ties by seq), however late each was stored, page by page', async () => {
      const caller = await fx.store.createParticipant('t1', { name: 'Cal' });
      const agent = await fx.store.createParticipant('t1', { name: 'Ada' });
      // A call centre: the caller's voice turns are stored as heard; the agent's text turn, said between them, is posted
      // after them with its own time, and a second agent turn shares a time with a caller turn (then: the order stored).
      await fx.store.addUtterances('t1', [
        utterance('s-said', caller.id, 'hello, my card was charged twice', { time: '2026-11-01T10:00:00.000Z' }),
        utterance('s-said', caller.id, 'yes, on Monday', { time: '2026-11-01T10:00:20.000Z' }),
      ]);
      await fx.store.addUtterances('t1', [
        utterance('s-said', agent.id, 'sorry to hear that, was it this week?', { time: '2026-11-01T10:00:10.000Z' }),
        utterance('s-said', agent.id, 'I will refund one', { time: '2026-11-01T10:00:20.000Z' }),
      ]);
      const said = ['hello, my card was charged twice', 'sorry to hear that, was it this week?', 'yes, on Monday', 'I will refund one'];
      const all = await fx.store.getTranscript('t1', 's-said');
      assert.deepEqual(all.map((u) => u.text), said);
      assert.deepEqual(all.map((u) => u.seq), [1, 3, 2, 4]);
      // Pages of one: each starts after the last one's place, so none is skipped or repeated.
      const paged: string[] = [];
      let after: { time: string; seq: number } | undefined;
      for (;;) {
        const [u] = await fx.store.getTranscript('t1', 's-said', { limit: 1, ...(after ? { after } : {}) });
        if (!u) break;
        paged.push(u.text);
        after = { time: u.time, seq: u.seq };
      }
      assert.deepEqual(paged, said);
    });

    test('utterances keep order, edges and spans; queried as who said what to whom', async () => {
      const ana = await fx.store.createParticipant('t1', { name: 'Ana' });
      const ben = await fx.store.createParticipant('t1', { name: 'Ben' });
      const cy = await fx.store.createParticipant('t1', { name: 'Cy' });
      const stored = await fx.store.addUtterances('t1', [
        utterance('s1', ana.id, 'Ben, I will send you the draft', { addresseeIds: [ben.id], startMs: 0, endMs: 1200, confidence: 0.9 }),
        utterance('s1', ben.id, 'Thanks Ana', { addresseeIds: [ana.id], time: '2026-11-01T10:00:05.000Z' }),
        utterance('s1', cy.id, 'Hi both', { addresseeIds: [ana.id, ben.id, cy.id], time: '2026-11-01T10:00:09.000Z' }),
      ]);
      assert.deepEqual(stored.map((u) => u.seq), [1, 2, 3]);
      assert.deepEqual(stored[2]?.addresseeIds, [ana.id, ben.id].sort(), 'a speaker never addresses themself');
      assert.equal(stored[0]?.startMs, 0);
      assert.equal(stored[0]?.confidence, 0.9);

      const transcript = await fx.store.getTranscript('t1', 's1');
      assert.deepEqual(transcript.map((u) => u.text), ['Ben, I will send you the draft', 'Thanks Ana', 'Hi both']);
      const toBen = await fx.store.queryInteractions('t1', { addresseeId: ben.id });
      assert.deepEqual(toBen.map((u) => u.speakerId).sort(), [ana.id, cy.id].sort());
      const anaToBen = await fx.store.queryInteractions('t1', { speakerId: ana.id, addresseeId: ben.id });
      assert.equal(anaToBen.length, 1);
      assert.equal((await fx.store.recentUtterances('t1', 's1', 2)).map((u) => u.text).join('|'), 'Thanks Ana|Hi both');
      // The turns before one utterance, however many came after it (a batch stored at once).
      assert.equal((await fx.store.recentUtterances('t1', 's1', 2, 3)).map((u) => u.text).join('|'), 'Ben, I will send you the draft|Thanks Ana');
      assert.equal((await fx.store.recentUtterances('t1', 's1', 5, 2)).map((u) => u.text).join('|'), 'Ben, I will send you the draft');
      assert.deepEqual(await fx.store.recentUtterances('t1', 's1', 5, 1), []);
      // A transcript read a page at a time: after a place in it (time, seq), at most `limit`.
      const at = (u: Utterance) => ({ time: u.time, seq: u.seq });
      assert.deepEqual((await fx.store.getTranscript('t1', 's1', { limit: 2 })).map((u) => u.seq), [1, 2]);
      assert.deepEqual((await fx.store.getTranscript('t1', 's1', { after: at(stored[1]!), limit: 2 })).map((u) => u.seq), [3]);
      assert.deepEqual((await fx.store.getTranscript('t1', 's1', { after: at(stored[0]!) })).map((u) => u.text), ['Thanks Ana', 'Hi both']);
      assert.deepEqual(await fx.store.getTranscript('t1', 's1', { after: at(stored[2]!), limit: 5 }), []);
      assert.equal((await fx.store.getUtterance('t1', stored[1]!.id))?.text, 'Thanks Ana');
    });

    test('interactions read a page at a time by offset: newest first, ties (one time, one seq) in a fixed order', async () => {
      const ana = await fx.store.createParticipant('t1', { name: 'Ana' });
      const time = '2026-11-02T10:00:00.000Z';
      // Three sessions at one time: their first utterances tie on time and seq.
      for (const s of ['p1', 'p2', 'p3']) {
        await fx.store.addUtterances('t1', [utterance(s, ana.id, `${s} one`, { time }), utterance(s, ana.id, `${s} two`, { time })]);
      }
      const whole = (await fx.store.queryInteractions('t1', { speakerId: ana.id })).map((u) => u.id);
      assert.equal(whole.length, 6);
      const paged: string[] = [];
      for (let offset = 0; offset < 8; offset += 4) {
        paged.push(...(await fx.store.queryInteractions('t1', { speakerId: ana.id, limit: 4, offset })).map((u) => u.id));
      }
      assert.deepEqual(paged, whole, 'pages of 4 read the same list, nothing twice');
      assert.deepEqual(await fx.store.queryInteractions('t1', { speakerId: ana.id, offset: 6 }), []);
    });

    test('tenants never see each other', async () => {
      const a = await fx.store.createParticipant('tA', { name: 'Ana' });
      await fx.store.addUtterances('tA', [utterance('s1', a.id, 'secret')]);
      assert.deepEqual(await fx.store.listParticipants('tB'), []);
      assert.deepEqual(await fx.store.getTranscript('tB', 's1'), []);
      assert.equal(await fx.store.getParticipant('tB', a.id), null);
      assert.deepEqual(await fx.store.queryInteractions('tB', {}), []);
      assert.equal(await fx.store.deleteParticipant('tB', a.id), null);
      assert.equal((await fx.store.getTranscript('tA', 's1')).length, 1);
    });

    test('merge relabels utterances and edges and keeps names as aliases', async () => {
      const a1 = await fx.store.createParticipant('t1', { name: 'Ana' });
      const a2 = await fx.store.createParticipant('t1', { name: 'Annie' });
      const ben = await fx.store.createParticipant('t1', { name: 'Ben' });
      await fx.store.addUtterances('t1', [
        utterance('s1', a2.id, 'hello Ben', { addresseeIds: [ben.id] }),
        utterance('s1', ben.id, 'hi', { addresseeIds: [a2.id, a1.id] }),
      ]);
      await fx.store.mergeParticipants('t1', a2.id, a1.id);
      assert.equal(await fx.store.getParticipant('t1', a2.id), null);
      const merged = await fx.store.getParticipant('t1', a1.id);
      assert.deepEqual(merged?.aliases, ['Annie']);
      const t = await fx.store.getTranscript('t1', 's1');
      assert.equal(t[0]?.speakerId, a1.id);
      assert.deepEqual(t[1]?.addresseeIds, [a1.id]);
    });

    test('a merge never leaves a person addressing themself', async () => {
      const a1 = await fx.store.createParticipant('t1', { name: 'Ana' });
      const a2 = await fx.store.createParticipant('t1', {});
      await fx.store.addUtterances('t1', [
        utterance('s9', a1.id, 'are you there', { addresseeIds: [a2.id] }),
        utterance('s9', a2.id, 'yes I am', { addresseeIds: [a1.id] }),
      ]);
      await fx.store.mergeParticipants('t1', a2.id, a1.id);
      const t = await fx.store.getTranscript('t1', 's9');
      assert.deepEqual(t.map((u) => [u.speakerId, u.addresseeIds]), [[a1.id, []], [a1.id, []]]);
      assert.deepEqual(await fx.store.queryInteractions('t1', { addresseeId: a1.id }), []);
    });

    test('deleting a participant erases their utterances and edges', async () => {
      const ana = await fx.store.createParticipant('t1', { name: 'Ana' });
      const ben = await fx.store.createParticipant('t1', { name: 'Ben' });
      await fx.store.addUtterances('t1', [
        utterance('s1', ana.id, 'one', { addresseeIds: [ben.id] }),
        utterance('s1', ben.id, 'two', { addresseeIds: [ana.id] }),
      ]);
      const [first] = await fx.store.getTranscript('t1', 's1');
      assert.deepEqual(await fx.store.deleteParticipant('t1', ana.id), [first!.id]);
      assert.equal(await fx.store.deleteParticipant('t1', ana.id), null);
      const t = await fx.store.getTranscript('t1', 's1');
      assert.deepEqual(t.map((u) => u.text), ['two']);
      assert.deepEqual(t[0]?.addresseeIds, []);
      assert.deepEqual(await fx.store.queryInteractions('t1', { addresseeId: ana.id }), []);
    });

    test('retired ids: a merged-away id names its survivor through chains of merges; an erased one is known by its hash only', async () => {
      const a = await fx.store.createParticipant('t1', { name: 'Ana' });
      const b = await fx.store.createParticipant('t1', { name: 'Bea' });
      const c = await fx.store.createParticipant('t1', { name: 'Cy' });
      assert.equal(await fx.store.retiredParticipant('t1', a.id), null, 'a participant that exists is not retired');
      assert.equal(await fx.store.retiredParticipant('t1', 'p_never'), null);
      await fx.store.mergeParticipants('t1', a.id, b.id);
      assert.deepEqual(await fx.store.retiredParticipant('t1', a.id), { mergedInto: b.id });
      assert.equal(await fx.store.retiredParticipant('t2', a.id), null, 'per tenant');
      await fx.store.mergeParticipants('t1', b.id, c.id);
      assert.deepEqual(await fx.store.retiredParticipant('t1', a.id), { mergedInto: c.id }, 'a chain leads to the last survivor');
      assert.deepEqual(await fx.store.retiredParticipant('t1', b.id), { mergedInto: c.id });
      await fx.store.deleteParticipant('t1', c.id);
      for (const id of [a.id, b.id, c.id]) {
        assert.deepEqual(await fx.store.retiredParticipant('t1', id), { erased: true }, 'erasing the survivor erases what was merged into it');
      }
      const d = await fx.store.createParticipant('t1', { name: 'Dee' });
      await fx.store.deleteParticipant('t1', d.id);
      assert.deepEqual(await fx.store.retiredParticipant('t1', d.id), { erased: true });
    });

    test('a failing batch stores nothing', async () => {
      const ana = await fx.store.createParticipant('t1', { name: 'Ana' });
      const [first] = await fx.store.addUtterances('t1', [utterance('s1', ana.id, 'kept')]);
      await assert.rejects(
        fx.store.addUtterances('t1', [utterance('s1', ana.id, 'new'), utterance('s1', ana.id, 'dup', { id: first!.id })]),
      );
      assert.deepEqual((await fx.store.getTranscript('t1', 's1')).map((u) => u.text), ['kept']);
    });

    test('pending merges of one participant: from or into them, or into one merged into them since; none of others', async () => {
      const [a, b, c, d, e] = await Promise.all(['Ana', 'Ben', 'Cy', 'Dee', 'Eli'].map((name) => fx.store.createParticipant('t1', { name })));
      await fx.store.mergeParticipants('t1', a!.id, b!.id);
      await fx.store.mergeParticipants('t1', b!.id, c!.id);
      await fx.store.mergeParticipants('t1', d!.id, e!.id);
      const pairs = async (id: string, tenant = 't1') => (await fx.store.pendingMergesOf(tenant, id)).map((m) => `${m.fromId}>${m.intoId}`).sort();
      const ab = `${a!.id}>${b!.id}`;
      const bc = `${b!.id}>${c!.id}`;
      assert.deepEqual(await pairs(c!.id), [ab, bc].sort(), 'the merge into Ben, merged into Cy since, is owed to Cy');
      assert.deepEqual(await pairs(a!.id), [ab]);
      assert.deepEqual(await pairs(b!.id), [ab, bc].sort());
      assert.deepEqual(await pairs(e!.id), [`${d!.id}>${e!.id}`]);
      assert.deepEqual(await pairs(c!.id, 't2'), [], 'per tenant');
      await fx.store.endMerge('t1', a!.id, b!.id);
      assert.deepEqual(await pairs(c!.id), [bc]);
      assert.deepEqual((await fx.store.pendingMerges('t1')).length, 2, 'the whole list agrees');
    });

    test('a pending merge\'s lease is renewed, and an erasure plan recorded on it, only for that pair', async () => {
      const [a, b, c] = await Promise.all(['Ana', 'Ben', 'Cy'].map((name) => fx.store.createParticipant('t1', { name })));
      await fx.store.mergeParticipants('t1', a!.id, b!.id);
      const [begun] = await fx.store.pendingMerges('t1');
      assert.equal(begun?.erasure, undefined, 'none recorded when the merge begins');
      const at = new Date(Date.parse(begun!.touchedAt) + 60_000).toISOString();
      assert.equal(await fx.store.renewMerge('t1', a!.id, b!.id, at), true);
      assert.deepEqual(await fx.store.pendingMerges('t1'), [{ ...begun!, touchedAt: at }], 'only its lease moves');
      const later = new Date(Date.parse(at) + 60_000).toISOString();
      assert.equal(await fx.store.renewMerge('t1', a!.id, b!.id, later, '{"factIds":["f1"]}'), true);
      assert.equal(await fx.store.renewMerge('t1', a!.id, b!.id, later), true);
      assert.deepEqual(await fx.store.pendingMerges('t1'), [{ ...begun!, touchedAt: later, erasure: '{"factIds":["f1"]}' }], 'a renewal without a plan keeps it');
      assert.equal(await fx.store.renewMerge('t1', a!.id, c!.id, later), false, 'another pair: none pending');
      assert.equal(await fx.store.renewMerge('t2', a!.id, b!.id, later), false, 'another tenant');
      await fx.store.endMerge('t1', a!.id, b!.id);
      assert.equal(await fx.store.renewMerge('t1', a!.id, b!.id, later), false, 'ended: nothing to renew');
      assert.deepEqual(await fx.store.pendingMerges('t1'), []);
    });
  });
}
