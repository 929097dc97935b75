import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { GraphStore } from '../../../graph/graph-store.js';
import { openDatabase } from '../../../graph/sqlite/database.js';
import { SqliteGraphStore } from '../../../graph/sqlite/sqlite-graph-store.js';
import { mentionedParticipants } from '../../../pipelines/interaction/addressee.js';
import { ParticipantResolver } from '../../../pipelines/interaction/participant-resolver.js';

const T = 't_resolver_many';
/** Participants of a call centre, many sharing the words of their names. */
const CALLERS = 2_000;

/** The graph store, counting the participants `findParticipantsInText` returns. */
function counting(graph: GraphStore): { graph: GraphStore; returned: () => number } {
  let returned = 0;
  const proxy = new Proxy(graph, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (key !== 'findParticipantsInText' || typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        const out = await (value as (...a: unknown[]) => Promise<unknown[]>).apply(target, args);
        returned += out.length;
        return out;
      };
    },
  });
  return { graph: proxy, returned: () => returned };
}

test('the people an utterance names are those a read of every participant finds, and only they are read', async () => {
  const db = openDatabase(':memory:');
  const store = new SqliteGraphStore(db);
  const names = ['Ana', 'Ana Costa', 'Costa', "Ben O'Hara", 'Ben', 'Benedict', 'Al', 'Jo Ann', 'Émile Zola', 'Zoë', null];
  for (let i = 0; i < CALLERS; i++) {
    const name = names[i % names.length];
    // Most callers share a word with others; a few are told apart by a number or hold an alias.
    const numbered = name !== null && i >= names.length ? `${name} ${i % 97}` : name;
    await store.createParticipant(T, { ...(numbered === null ? {} : { name: numbered }), aliases: i % 13 === 0 ? ['Annie', `Caller ${i % 5}`] : [] });
  }
  const everyone = await store.listParticipants(T);
  const speaker = everyone[1]!.id;
  const texts = [
    "Ana's draft is with Ben O'Hara", 'ana costa 12 and costa 40 called', 'Benefits for Benedict 3', 'al, jo ann 7 and zoë 5',
    "l'Ana est là, ÉMILE ZOLA 8 aussi", 'caller 3 asked annie', 'Ben 44? Ben 96! Al 1.', 'nobody by name here', "Jo Ann's and O'Hara's",
    'a salad of costas', 'Ben’s cat', 'Al-Costa 5',
  ];
  const { graph, returned } = counting(store);
  const resolver = new ParticipantResolver(graph, T);
  let found = 0;
  for (const text of texts) {
    const now = await resolver.mentionedIn(text, speaker);
    const wanted = mentionedParticipants(text, everyone.filter((p) => p.id !== speaker));
    assert.deepEqual(now, wanted, text);
    found += wanted.length;
  }
  assert.ok(found > texts.length * 10, `${found} mentions: the texts name many callers`);
  // The speaker, when named, is read and then set aside: at most one more per text.
  assert.ok(returned() <= found + texts.length, `${returned()} participants read for ${found} mentions`);
  db.close();
});

test('byIds reads the ids it has not seen in one call, keeps their order and skips unknown ids', async () => {
  const db = openDatabase(':memory:');
  const store = new SqliteGraphStore(db);
  const made = [];
  for (let i = 0; i < 30; i++) made.push(await store.createParticipant(T, { name: `Caller ${i}` }));
  const calls: string[] = [];
  const graph = new Proxy(store, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(key));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  }) as GraphStore;
  const resolver = new ParticipantResolver(graph, T);
  const ids = [made[7]!.id, 'p_nobody', made[2]!.id, made[7]!.id, ...made.slice(10, 20).map((p) => p.id)];
  const got = await resolver.byIds(ids);
  assert.deepEqual(got.map((p) => p.name), ['Caller 7', 'Caller 2', 'Caller 7', ...made.slice(10, 20).map((p) => p.name)]);
  assert.deepEqual(calls, ['getParticipants']);
  // Seen ones are not read again; only the new id is.
  calls.length = 0;
  await resolver.byIds([made[2]!.id, made[25]!.id]);
  assert.deepEqual(calls, ['getParticipants']);
  calls.length = 0;
  assert.equal((await resolver.byIds([made[2]!.id, made[25]!.id])).length, 2);
  assert.deepEqual(calls, []);
  db.close();
});
