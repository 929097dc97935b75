import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import type { MemoryItem } from '../../graph/core/events.js';
import { appForSuite, startTestApp } from '../helpers/app.js';
import { connectTwilio, liveCall, twilioCall, twilioMessages } from '../helpers/twilio.js';
import { TestWsClient } from '../helpers/ws-client.js';

const ASK = 'Sam, can I order a red Trek mountain bike with a carbon frame?';

/**
 * trial11 F7: a bike shop's phone line pushed one customer's order (Maria's) to the agent while another customer (Luis)
 * called, because the push searched the whole tenant. `context_scope: participants` keeps a session's pushed context to
 * the people on the call; `all` (the default on /v1/stream) keeps today's behaviour; /v1/twilio defaults to participants.
 */
describe('context_scope: whose memories memory.context pushes', () => {
  const t = appForSuite(() => startTestApp());

  /** Say `lines` in session `id` (after `update`, if any): the confirmed context of its last turn. */
  async function call(id: string, lines: [string, string, string][], update?: Record<string, unknown>): Promise<MemoryItem[]> {
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=${id}`);
    try {
      await c.next('session.started');
      if (update) {
        c.sendJson({ type: 'session.update', session: update });
        const held = Object.fromEntries(Object.entries(update).filter(([, v]) => v !== null));
        assert.deepEqual((await c.nextNew('session.updated')).session, held, 'the setting is echoed (null: removed)');
      }
      let items: MemoryItem[] = [];
      for (const [speaker, to, text] of lines) {
        c.sendJson({ type: 'utterance', speaker, addressees: [to], text });
        const final = await c.nextNew('transcript.final');
        items = (await c.next('memory.context', (e) => e.turn_id === final.turn_id && e.speculative === false)).items as MemoryItem[];
      }
      return items;
    } finally {
      c.close();
    }
  }

  test('two callers: under participants the second caller\'s context never holds the first caller\'s order, under all it does', async () => {
    await call('scope-maria', [
      ['Maria', 'Sam', 'Hi Sam, this is Maria, I ordered the red Trek mountain bike with the carbon frame.'],
      ['Sam', 'Maria', 'Thanks Maria, your red Trek mountain bike with the carbon frame arrives on Friday.'],
    ]);
    await call('scope-luis-earlier', [['Luis', 'Sam', 'Hi Sam, this is Luis, I bought a red Trek helmet and a carbon bottle cage last month.']]);
    await drainConsolidation(t.app.stores.queue, 60_000);
    const maria = (await t.app.stores.graph.findParticipantsByName('default', 'Maria'))[0]!.id;
    const ofMaria = (i: MemoryItem): boolean => i.session_id === 'scope-maria' || [i.speaker, ...i.addressees].some((p) => p.id === maria);

    const all = await call('scope-luis-all', [['Luis', 'Sam', ASK]]);
    assert.ok(all.some(ofMaria), `under all (the default) the tenant is searched: Maria's order is pushed (${JSON.stringify(all.map((i) => i.text))})`);

    const scoped = await call('scope-luis-participants', [['Luis', 'Sam', ASK]], { context_scope: 'participants' });
    assert.deepEqual(scoped.filter(ofMaria).map((i) => i.text), [], 'nothing of Maria reaches Luis\'s call');
    assert.ok(scoped.some((i) => i.session_id === 'scope-luis-earlier'), `Luis's own earlier call is still pushed (${JSON.stringify(scoped.map((i) => i.text))})`);
    assert.equal((await t.app.stores.graph.getSession('default', 'scope-luis-participants'))?.metadata.context_scope, 'participants', 'kept with the session');

    // null clears the session's own scope: the server's default (all) holds again.
    const back = await call('scope-luis-cleared', [['Luis', 'Sam', ASK]], { context_scope: null });
    assert.ok(back.some(ofMaria), 'cleared: the default, all');
  });

  test('a participant merged mid-call: the survivor replaces them among the scope\'s people (reviewC R2)', async () => {
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=scope-merge`);
    try {
      await c.next('session.started');
      c.sendJson({ type: 'session.update', session: { context_scope: 'participants' } });
      await c.nextNew('session.updated');
      c.sendJson({ type: 'utterance', speaker: 'Merged Caller', addressees: ['Sam'], text: 'Hi Sam, I called about my blue bike.' });
      const final = await c.nextNew('transcript.final');
      const merged = (final.speaker as { id: string }).id;
      const survivor = await t.app.stores.graph.createParticipant('default', {});
      const session = t.app.sessions.get('default', 'scope-merge')!;
      session.idsRetired({ from: merged, into: survivor.id });
      const people = (await session.memoryScope())!.people;
      assert.equal(people.has(survivor.id), true, 'the survivor is one of the call\'s people');
      assert.equal(people.has(merged), false, 'the merged id is gone');
    } finally {
      c.close();
    }
  });

  test('a Twilio call\'s session resumed on /v1/stream keeps the Twilio default unless it set its own (reviewC R4)', async () => {
    const graph = t.app.stores.graph;
    for (const [id, metadata, scope] of [
      ['scope-twilio-resumed', { channel: 'twilio' }, 'participants'],
      ['scope-twilio-own', { channel: 'twilio', context_scope: 'all' }, 'all'],
      ['scope-stream-resumed', {}, 'all'],
    ] as const) {
      await graph.openSession('default', id, new Date().toISOString());
      await graph.updateSession('default', id, { metadata });
      const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=${id}`);
      try {
        await c.next('session.started');
        assert.equal(t.app.sessions.get('default', id)?.contextScope, scope, id);
      } finally {
        c.close();
      }
    }
  });

  test('a typed utterance labelled by a role gets the HTTP role-label warning in its transcript.final (reviewC R3)', async () => {
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=scope-role`);
    try {
      await c.next('session.started');
      c.sendJson({ type: 'utterance', speaker: 'caller', addressees: ['Sam'], text: 'Hi, I am calling about my order.' });
      const warnings = (await c.nextNew('transcript.final')).warnings as string[] | undefined;
      assert.equal(warnings?.length, 1);
      assert.match(warnings[0]!, /^speaker "caller" is a role, not a person/);
      c.sendJson({ type: 'utterance', speaker: 'Luis', addressees: ['Sam'], text: 'It is Luis again.' });
      assert.equal((await c.nextNew('transcript.final')).warnings, undefined, 'a name: no warning');
    } finally {
      c.close();
    }
  });

  test('a bad context_scope is a non-fatal PARLEY_ERR_BAD_FRAME naming it; nothing changes', async () => {
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=scope-bad`);
    try {
      await c.next('session.started');
      for (const bad of ['everyone', 1, true]) {
        c.sendJson({ type: 'session.update', session: { context_scope: bad } });
        const error = await c.nextNew('error');
        assert.equal(error.code, 'PARLEY_ERR_BAD_FRAME');
        assert.equal(error.fatal, false);
        assert.match(error.message as string, /context_scope must be one of "all", "participants" \(or null for the server's default\)/);
      }
      assert.equal(c.events.filter((e) => e.type === 'session.updated').length, 0);
      assert.equal(t.app.sessions.get('default', 'scope-bad')?.contextScope, 'all');
    } finally {
      c.close();
    }
  });

  test('a Twilio call defaults to participants; customParameters.context_scope sets it; a bad one refuses the stream', async () => {
    for (const [params, scope] of [[{}, 'participants'], [{ context_scope: 'all' }, 'all'], [{ context_scope: 'participants' }, 'participants']] as const) {
      const live = await liveCall(t, { params });
      try {
        const session = t.app.sessions.get('default', live.call.callSid);
        assert.equal(session?.contextScope, scope, JSON.stringify(params));
        assert.equal((await session?.memoryScope()) === null, scope === 'all');
      } finally {
        live.sse.close();
        live.ws.close();
      }
    }
    // reviewC R1: a returning caller (known by external_id) is one of the call's people before they speak, so the
    // first spoken turn's context, searched before its speaker is identified, holds their memories.
    const caller = await t.app.stores.graph.createParticipant('default', { externalId: 'scope-cust-7' });
    const returning = await liveCall(t, { params: { external_id: 'scope-cust-7' } });
    try {
      const scope = await t.app.sessions.get('default', returning.call.callSid)?.memoryScope();
      assert.deepEqual([...scope?.people ?? []], [caller.id], 'the participant behind the pending external id is in scope');
    } finally {
      returning.sse.close();
      returning.ws.close();
    }
    const c = twilioCall({ context_scope: 'nobody' });
    const { ws, closed } = await connectTwilio(`${t.wsUrl}/v1/twilio`);
    for (const m of twilioMessages(c, Buffer.alloc(320, 0xff)).slice(0, 2)) ws.send(JSON.stringify(m));
    const how = await closed;
    assert.equal(how.code, 1003);
    assert.equal(how.reason, 'PARLEY_ERR_BAD_FRAME: start: customParameters.context_scope must be one of all, participants, not "nobody"');
    assert.equal(await t.app.stores.graph.getSession('default', c.callSid), null);
  });
});

describe('PARLEY_CONTEXT_SCOPE sets the default of both routes', () => {
  const t = appForSuite(() => startTestApp({ PARLEY_ASR: 'none', PARLEY_CONTEXT_SCOPE: 'all' }));

  test('all: a Twilio call too pushes from the whole tenant unless its parameters say otherwise; /v1/stream follows it', async () => {
    for (const [params, scope] of [[{}, 'all'], [{ context_scope: 'participants' }, 'participants']] as const) {
      const live = await liveCall(t, { params });
      try {
        assert.equal(t.app.sessions.get('default', live.call.callSid)?.contextScope, scope, JSON.stringify(params));
      } finally {
        live.sse.close();
        live.ws.close();
      }
    }
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=scope-env`);
    try {
      await c.next('session.started');
      assert.equal(t.app.sessions.get('default', 'scope-env')?.contextScope, 'all');
      c.sendJson({ type: 'session.update', session: { context_scope: 'participants' } });
      await c.nextNew('session.updated');
      assert.equal(t.app.sessions.get('default', 'scope-env')?.contextScope, 'participants');
    } finally {
      c.close();
    }
  });
});
