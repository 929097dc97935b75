import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { namesInFacts } from '../../pipelines/interaction/erase-participant.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { deployments } from '../helpers/deployments.js';

describe('the names by which a fact names an erased person', () => {
  test('their full name, aliases and given name; never a surname or another word of the name alone', () => {
    assert.deepEqual(namesInFacts({ names: ['Rose Park', 'Rosie'], living: [] }).sort(), ['Rose', 'Rose Park', 'Rosie']);
    assert.deepEqual(namesInFacts({ names: ['Anna Maria de la Cruz'], living: [] }).sort(), ['Anna', 'Anna Maria de la Cruz']);
    assert.deepEqual(namesInFacts({ names: ['Quillon'], living: [] }), ['Quillon']);
    assert.deepEqual(namesInFacts({ names: ['', 'Q'], living: [] }), [], 'an unnamed person with a one-letter alias');
  });

  test('a given name, or a one-word alias, that is also a month, weekday, function word or title does not count alone', () => {
    assert.deepEqual(namesInFacts({ names: ['May Chen', 'On', 'June', 'Doc Chen'], living: [] }).sort(), ['Doc Chen', 'May Chen']);
    assert.deepEqual(namesInFacts({ names: ['Dr Park'], living: [] }), ['Dr Park']);
  });

  test('a title is not part of the name a fact uses: what follows it is, and a kin title is followed by a given name', () => {
    assert.deepEqual(namesInFacts({ names: ['Aunt Rose'], living: [] }).sort(), ['Aunt Rose', 'Rose']);
    assert.deepEqual(namesInFacts({ names: ['Aunt Rose Miller'], living: [] }).sort(), ['Aunt Rose Miller', 'Rose', 'Rose Miller']);
    assert.deepEqual(namesInFacts({ names: ['Dr Alan Grant'], living: [] }).sort(), ['Alan', 'Alan Grant', 'Dr Alan Grant']);
    assert.deepEqual(namesInFacts({ names: ['Dr. Park'], living: [] }), ['Dr. Park'], 'a lone word after a formal title is a surname');
    assert.deepEqual(namesInFacts({ names: ['Aunt May'], living: [] }), ['Aunt May'], 'a given name that is a month does not count alone');
  });

  test('none that a living participant also goes by or holds as a word of their names', () => {
    assert.deepEqual(namesInFacts({ names: ['Ben Smith', 'Benny'], living: ['Ben Jones'] }).sort(), ['Ben Smith', 'Benny']);
    assert.deepEqual(namesInFacts({ names: ['Rose Park', 'Rosie'], living: ['Rosie'] }).sort(), ['Rose', 'Rose Park']);
  });
});

for (const deployment of deployments('erase-names')) describe(`erasure by name words, ${deployment.name}`, { skip: deployment.skip }, () => {
  let t: TestApp;
  const { tenant, headers } = deployment;
  before(async () => {
    t = await startTestApp(deployment.env, false);
  });
  after(async () => {
    await t?.close();
    await deployment.cleanup();
  });
  const send = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) => {
    const res = await t.app.inject({ method, url, headers, ...(payload ? { payload: payload as object } : {}) });
    return { status: res.statusCode, body: res.body, json: () => res.json() as Record<string, unknown> };
  };
  /** Another person's facts, stored as consolidation writes them (names resolved). */
  const storeFacts = async (speakerId: string, texts: string[]): Promise<void> => {
    const at = new Date().toISOString();
    await t.app.stores.memory.addFacts(tenant, texts.map((content) => ({
      content, speakerId, subjectId: speakerId, addresseeIds: [], kind: 'statement', slot: null, value: null, time: at,
      referIds: [], validFrom: at, supersedes: null, confidence: 0.9, sessionId: 'erase-names-facts', source: 'test',
    })));
  };
  const texts = async (): Promise<string[]> =>
    (await t.app.stores.memory.listFacts(tenant, { includeHistory: true, limit: 1000 })).filter((f) => f.sessionId === 'erase-names-facts').map((f) => f.content).sort();

  test('erasing "Rose Park" takes the facts naming Rose, Rose Park or her alias, and leaves "Central Park" and the month "May"', async () => {
    const posted = await send('POST', '/v1/sessions/erase-names/utterances', { utterances: [
      { speaker: 'Rose Park', text: 'Good morning.' },
      { speaker: 'Cara', text: 'Good morning to you.' },
      { speaker: 'May Chen', text: 'Hello both.' },
    ] });
    assert.equal(posted.status, 201, posted.body);
    const id = async (ref: string): Promise<string> => {
      const res = await send('GET', `/v1/participants/${encodeURIComponent(ref)}`);
      assert.equal(res.status, 200, res.body);
      return res.json().id as string;
    };
    const [rose, cara, may] = [await id('Rose Park'), await id('Cara'), await id('May Chen')];
    assert.equal((await send('PATCH', `/v1/participants/${rose}`, { aliases: ['Rosie'] })).status, 200);
    const kept = ['Cara walks in Central Park every morning', 'Cara moves to Lisbon in May', 'Cara parks her car near the station'];
    await storeFacts(cara, [...kept, 'Cara lent Rose her bike', 'Cara met Rose Park at the market', 'Cara calls Rosie every Sunday',
      'Cara owes May Chen ten euros']);

    const erased = await send('DELETE', `/v1/participants/${rose}`);
    assert.equal(erased.status, 200, erased.body);
    assert.deepEqual(await texts(), [...kept, 'Cara owes May Chen ten euros'].sort());

    const erasedMay = await send('DELETE', `/v1/participants/${may}`);
    assert.equal(erasedMay.status, 200, erasedMay.body);
    assert.deepEqual(await texts(), [...kept].sort(), '"in May" is the month, not May Chen');
  });

  test('erasing Maya takes Sarah\'s persona node "daughter maya" (GET /v1/participants/Sarah/persona) and leaves her others', async () => {
    const posted = await send('POST', '/v1/sessions/erase-names-persona/utterances', { utterances: [
      { speaker: 'Sarah', text: 'My daughter is coming home.' }, { speaker: 'Maya', text: 'Hi mum.' },
    ] });
    assert.equal(posted.status, 201, posted.body);
    const sarah = (await send('GET', '/v1/participants/Sarah')).json().id as string;
    const maya = (await send('GET', '/v1/participants/Maya')).json().id as string;
    const ev = { participantId: sarah, kind: 'affect' as const, valence: 0.9, label: 'joy', strength: 0.8, sessionId: 'erase-names-persona', time: new Date().toISOString() };
    await t.app.stores.memory.addPersonaEvidence(tenant, { ...ev, target: 'daughter maya', utteranceId: 'u_persona_1' });
    await t.app.stores.memory.addPersonaEvidence(tenant, { ...ev, target: 'gardening', utteranceId: 'u_persona_2' });
    const targets = async (): Promise<string[]> => {
      const res = await send('GET', '/v1/participants/Sarah/persona');
      assert.equal(res.status, 200, res.body);
      return (res.json().persona as Array<{ target: string }>).map((n) => n.target).sort();
    };
    assert.deepEqual(await targets(), ['daughter maya', 'gardening']);
    const erased = await send('DELETE', `/v1/participants/${maya}`);
    assert.equal(erased.status, 200, erased.body);
    assert.deepEqual(await targets(), ['gardening'], 'the node naming Maya goes, Sarah\'s others stay');
  });
});
