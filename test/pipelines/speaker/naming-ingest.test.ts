import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, describe, test } from 'node:test';
import { pino } from 'pino';
import { openStores } from '../../../graph/open-stores.js';
import { InteractionIngest } from '../../../pipelines/interaction/ingest.js';
import { DEFAULT_CMUDICT } from '../../../pipelines/speaker/phonetic.js';
import { loadConfig } from '../../../server/config.js';
import { tempDir } from '../../helpers/temp-dir.js';

const noDict = existsSync(process.env.PARLEY_CMUDICT ?? DEFAULT_CMUDICT) ? false : 'pocketsphinx-en-us cmudict not installed';

// Voices as re-identification hands them in: unnamed participants, one utterance at a time, real SQLite.
describe('names bound while utterances are ingested', () => {
  const tmp = tempDir('parley-naming-');
  const stores = openStores(loadConfig({ DATA_DIR: tmp.dir, PARLEY_RUN_JOBS: 'false' }), pino({ level: 'silent' }));
  const ingest = new InteractionIngest({ ...stores, logger: pino({ level: 'silent' }) });
  const voice = async (tenant: string): Promise<string> => (await stores.graph.createParticipant(tenant, {})).id;
  const say = async (tenant: string, session: string, speaker: string, text: string) =>
    (await ingest.ingest(tenant, session, [{ speaker, text }]))[0]!;
  const nameOf = async (tenant: string, id: string) => (await stores.graph.getParticipant(tenant, id))?.name ?? null;
  after(async () => {
    await stores.close(5000);
    tmp.remove();
  });

  test('the three-voice meeting: "i am robert i look after…" names its speaker, and the next turn addresses him', async () => {
    const [a, b, c] = [await voice('t1'), await voice('t1'), await voice('t1')];
    await say('t1', 'm1', c, 'okay lets start with the schedule for next week');
    const intro = await say('t1', 'm1', a, 'i am robert i look after the delivery trucks');
    assert.equal(intro.speaker.name, 'Robert');
    const next = await say('t1', 'm1', b, 'robert can you send me the route for monday');
    assert.deepEqual(next.addressees.map((x) => x.id), [a]);
    assert.equal(await nameOf('t1', b), null);
    assert.equal(await nameOf('t1', c), null);
  });

  test('"my name is alan and biden the warehouse" gives the clean name Alan, no alias', async () => {
    const a = await voice('t2');
    const r = await say('t2', 's1', a, 'my name is alan and biden the warehouse');
    assert.equal(r.speaker.name, 'Alan');
    assert.deepEqual((await stores.graph.getParticipant('t2', a))?.aliases, []);
  });

  test('a named speaker answering "It\'s Tomasz." while Tomasz is present gains no alias', async () => {
    const turns = await ingest.ingest('t9', 's1', [
      { speaker: 'Priya', text: 'Someone keeps leaving dishes overnight.' },
      { speaker: 'Tomasz', text: 'Not me, I was away all weekend.' },
      { speaker: 'Kwame', text: "It's Tomasz." },
    ]);
    const kwame = await stores.graph.getParticipant('t9', turns[2]!.speaker.id);
    assert.equal(kwame?.name, 'Kwame');
    assert.deepEqual(kwame?.aliases, []);
  });

  test('"i\'m tired" and "this is great" name nobody', async () => {
    const a = await voice('t3');
    await say('t3', 's1', a, "i'm tired");
    await say('t3', 's1', a, 'this is great');
    assert.equal(await nameOf('t3', a), null);
  });

  test('a caller, the only other party, addressed as susan is named Susan at once (trial11 F6)', async () => {
    const [agent, caller] = [await voice('t4'), await voice('t4')];
    await say('t4', 'c1', agent, 'hello my name is maria how can i help');
    await say('t4', 'c1', caller, 'hi i have a problem with my order');
    await say('t4', 'c1', agent, 'susan can you read me the order number');
    assert.equal(await nameOf('t4', caller), 'Susan', 'called by a given name by the only other party');
    await say('t4', 'c1', caller, 'yes it is four five six');
    await say('t4', 'c1', agent, 'thanks susan');
    assert.equal(await nameOf('t4', caller), 'Susan');
    assert.equal(await nameOf('t4', agent), 'Maria');
  });

  test('the same call handed in as one batch names the caller the same way', async () => {
    const [agent, caller] = [await voice('t6'), await voice('t6')];
    const turns: [string, string][] = [
      [agent, 'hello my name is maria how can i help'], [caller, 'hi i have a problem with my order'],
      [agent, 'susan can you read me the order number'], [caller, 'yes it is four five six'],
      [agent, 'thanks susan'], [caller, 'is there anything else you need'],
    ];
    const out = await ingest.ingest('t6', 'c1', turns.map(([speaker, text]) => ({ speaker, text })));
    assert.equal(out.length, 6);
    assert.equal(await nameOf('t6', caller), 'Susan');
    assert.equal(await nameOf('t6', agent), 'Maria');
  });

  test('being answered by another voice never gives a present participant\'s name to a second one', async () => {
    const [lead, a, b] = [await voice('t7'), await voice('t7'), await voice('t7')];
    await say('t7', 'm1', a, 'hi this is susan from accounts');
    for (let i = 0; i < 3; i++) {
      await say('t7', 'm1', lead, 'susan can you check the stock');
      await say('t7', 'm1', b, 'sure give me a minute');
    }
    assert.equal(await nameOf('t7', a), 'Susan');
    assert.equal(await nameOf('t7', b), null);
    assert.deepEqual((await stores.graph.getParticipant('t7', b))?.attributes.name_evidence ?? {}, {});
  });

  test('a misheard self-introduction matches the name others used for the speaker', { skip: noDict }, async () => {
    const [lead, driver] = [await voice('t5'), await voice('t5')];
    await say('t5', 'm1', driver, 'morning everyone');
    await say('t5', 'm1', lead, 'robert can you take the north route today');
    const r = await say('t5', 'm1', driver, 'sure i am rubber i look after the trucks');
    assert.equal(r.speaker.name, 'Robert');
  });
});
