/**
 * A participant named by their own introduction ("My name is Priya") who later introduces themself by another name
 * ("I'm Bob") keeps the first name and does not gain the second as an alias (an agent posting everyone as "user").
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Logger } from 'pino';
import { openDatabase } from '../../../graph/sqlite/database.js';
import { SqliteGraphStore } from '../../../graph/sqlite/sqlite-graph-store.js';
import { contradictedSelfName, isNameVariant } from '../../../pipelines/interaction/name-conflict.js';
import { TAUGHT_NAMES } from '../../../pipelines/interaction/participant-attributes.js';
import { ParticipantResolver } from '../../../pipelines/interaction/participant-resolver.js';
import { SessionNaming } from '../../../pipelines/interaction/session-naming.js';
import { applyProfileUpdates } from '../../../pipelines/memory/profile-updates.js';
import { drainConsolidation } from '../../../pipelines/memory/after-consolidation.js';
import { appForSuite, startTestApp } from '../../helpers/app.js';

const T = 't_name_conflict';

/** A logger that keeps the message and the names (kept -> refused) of each `warn`. */
function warnings(): { logger: Pick<Logger, 'warn'>; lines: string[] } {
  const lines: string[] = [];
  const warn = (...args: unknown[]): void => {
    const { name } = args[0] as { name: { kept: string; refused: string } };
    lines.push(`${String(args[1])} ${name.kept} -> ${name.refused}`);
  };
  return { lines, logger: { warn } as unknown as Pick<Logger, 'warn'> };
}

describe('a second, different self-introduction is not learned', () => {
  test('variants and nicknames are one person; a different name is not', () => {
    for (const [a, b] of [['Robert', 'Rob'], ['Robert', 'Bob'], ['Katherine', 'Kate'], ['Priya', 'Pria'], ['Priya Shah', 'Priya'], ['Jon', 'John']]) {
      assert.ok(isNameVariant(a!, b!), `${a} ~ ${b}`);
    }
    for (const [a, b] of [['Priya', 'Bob'], ['Ana', 'Ben'], ['Tom', 'Alice']]) assert.ok(!isNameVariant(a!, b!), `${a} !~ ${b}`);
  });

  test('one-letter edits of two different common first names are two people (rules 50)', () => {
    // On main: each pair was a variant (one edit apart, or the same first three letters).
    for (const [a, b] of [['Mark', 'Mary'], ['Dan', 'Don'], ['Mario', 'Marion'], ['Eric', 'Erica'], ['Mary Jones', 'Mark']]) assert.ok(!isNameVariant(a!, b!), `${a} !~ ${b}`);
    // Spellings of one name, short forms and nicknames stay variants.
    for (const [a, b] of [['Jon', 'John'], ['Marc', 'Mark'], ['Sara', 'Sarah'], ['Katie', 'Katy'], ['Nick', 'Nicholas'], ['Dan', 'Daniel'], ['Mary', 'Molly']]) {
      assert.ok(isNameVariant(a!, b!), `${a} ~ ${b}`);
    }
    const mark = { name: 'user', aliases: ['Mark'], attributes: { [TAUGHT_NAMES]: ['mark'] } };
    assert.equal(contradictedSelfName(mark, 'Mary', "Hi, I'm Mary."), 'Mark');
    const priya = { name: 'user', aliases: ['Priya'], attributes: { [TAUGHT_NAMES]: ['priya'] } };
    assert.equal(contradictedSelfName(priya, 'Bob', "Hi, I'm Bob. I live in York."), 'Priya');
    assert.equal(contradictedSelfName(priya, 'Pri', "I'm Pri"), null, 'a variant');
    assert.equal(contradictedSelfName(priya, 'Bob', 'Please call me Bob.'), null, '"call me …" is a name asked for');
    assert.equal(contradictedSelfName(priya, 'Bob', "Hi, it's Bob from accounts."), null, 'on someone\'s behalf');
    assert.equal(contradictedSelfName({ name: 'Robert Smith', aliases: [], attributes: {} }, 'Alan', "I'm Alan"), null, 'no name of their own introduction');
  });

  test('SessionNaming: Priya keeps her name, Bob is logged and not an alias', async () => {
    const db = openDatabase(':memory:');
    const graph = new SqliteGraphStore(db);
    const { logger, lines } = warnings();
    const naming = new SessionNaming(graph, logger);
    const speaker = await graph.createParticipant(T, {});
    const resolver = new ParticipantResolver(graph, T);
    const first = await naming.selfIntroduction(T, resolver, speaker, "My name is Priya. I'm allergic to peanuts and I live in Leeds.", [speaker]);
    assert.equal(first.name, 'Priya');
    const second = await naming.selfIntroduction(T, resolver, first, "Hi, I'm Bob. I live in York.", [first]);
    const stored = (await graph.getParticipant(T, speaker.id))!;
    assert.equal(stored.name, 'Priya');
    assert.deepEqual(stored.aliases, [], 'Bob is no alias');
    assert.equal(second.name, 'Priya');
    assert.equal(lines.length, 1);
    assert.match(lines[0]!, /not learned.* Priya -> Bob$/);
    const nick = await naming.selfIntroduction(T, resolver, second, 'You can call me Pree.', [second]);
    assert.deepEqual(nick.aliases, ['Pree'], '"call me" still teaches an alias');
    db.close();
  });

  test('profile updates: an extracted name contradicting a self-introduced one is refused and logged', async () => {
    const db = openDatabase(':memory:');
    const graph = new SqliteGraphStore(db);
    const p = await graph.createParticipant(T, { name: 'user' });
    const { logger, lines } = warnings();
    const up = (value: string) => [{ participantId: p.id, attribute: 'name', value, referIds: [], confidence: 0.9 }];
    await applyProfileUpdates(graph, T, up('Priya'), { text: 'My name is Priya.', logger });
    await applyProfileUpdates(graph, T, up('Bob'), { text: "I'm Bob. I live in York.", logger });
    const stored = (await graph.getParticipant(T, p.id))!;
    assert.deepEqual(stored.aliases, ['Priya']);
    assert.equal(lines.length, 1);
    assert.match(lines[0]!, /not learned.* Priya -> Bob$/);
    db.close();
  });

  describe('end to end: an agent posting everyone as "user"', () => {
    const t = appForSuite(() => startTestApp());
    test('the participant keeps Priya and does not gain Bob', async () => {
      const post = async (session: string, text: string) => {
        const res = await t.app.inject({ method: 'POST', url: `/v1/sessions/${session}/utterances`, payload: { utterances: [{ speaker: 'user', text }] } });
        assert.equal(res.statusCode, 201, res.body);
        await drainConsolidation(t.app.stores.queue, 120_000);
      };
      await post('mcp-chat-1', "My name is Priya. I'm allergic to peanuts and I live in Leeds.");
      await post('mcp-chat-3', "Hi, I'm Bob. I live in York.");
      const res = await t.app.inject({ method: 'GET', url: '/v1/participants/user' });
      assert.equal(res.statusCode, 200, res.body);
      const { aliases } = res.json<{ aliases: string[] }>();
      assert.ok(aliases.includes('Priya'), JSON.stringify(aliases));
      assert.ok(!aliases.includes('Bob'), `Bob is no alias of Priya's participant: ${JSON.stringify(aliases)}`);
    });
  });
});
