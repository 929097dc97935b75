import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openDatabase } from '../../../graph/sqlite/database.js';
import { SqliteGraphStore } from '../../../graph/sqlite/sqlite-graph-store.js';
import type { GraphStore } from '../../../graph/graph-store.js';
import { firstNames, recentFirstNames } from '../../../pipelines/interaction/session-naming.js';

test("the recogniser's names: the same as sorting every participant by recency, read a page at a time", async () => {
  const db = openDatabase(':memory:');
  const graph = new SqliteGraphStore(db);
  const T = 't_names';
  // Many unnamed callers, first names that repeat (so one page of 100 participants holds fewer than
  // 100 distinct names), multi-word names and aliases.
  const given = ['Ana', 'Ben', 'Clara', 'Dmitri', 'Eva'];
  const people = [];
  for (let i = 0; i < 1_500; i++) {
    const init = i % 3 === 0 ? {} : i % 5 === 0 ? { aliases: [`Alias${i}`] } : { name: i % 2 === 0 ? `${given[i % given.length]} Surname${i}` : `Person${i}` };
    people.push(await graph.createParticipant(T, init));
  }
  for (const p of people.filter((_, i) => i % 97 === 0)) await graph.updateParticipant(T, p.id, { attributes: { seen: true } });
  let read = 0;
  const counted = new Proxy(graph, {
    get(target, key) {
      const value = Reflect.get(target, key) as unknown;
      if (key === 'listParticipants') throw new Error('the whole tenant is read');
      if (key !== 'recentNamedParticipants') return typeof value === 'function' ? value.bind(target) : value;
      return async (...args: Parameters<GraphStore['recentNamedParticipants']>) => {
        const page = await target.recentNamedParticipants(...args);
        read += page.length;
        return page;
      };
    },
  });
  // What the session computed before: every participant, newest updated first.
  const everyone = [...await graph.listParticipants(T)].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  for (const max of [1, 10, 100, 2_000]) {
    read = 0;
    assert.deepEqual(await recentFirstNames(counted, T, max), [...firstNames(everyone)].slice(0, max), `max ${max}`);
    if (max === 100) assert.ok(read >= 100 && read < 500, `${read} participants read for ${max} names`);
  }
  assert.deepEqual(await recentFirstNames(counted, 'nobody', 100), []);
  db.close();
});
