import assert from 'node:assert/strict';
import { subscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import { describe, test } from 'node:test';
import { Neo4jGraphStore } from '../../graph/neo4j/neo4j-graph-store.js';
import { NEO4J_SKIP, neo4jTestOptions } from '../helpers/stores.js';

// Every client socket this process opens, with the TCP_NODELAY setting last asked for on it.
const sockets: { socket: Socket; noDelay: boolean }[] = [];
subscribe('net.client.socket', (message) => {
  const { socket } = message as { socket: Socket };
  const entry = { socket, noDelay: false };
  sockets.push(entry);
  const set = socket.setNoDelay.bind(socket);
  socket.setNoDelay = (noDelay = true) => {
    entry.noDelay = noDelay;
    return set(noDelay);
  };
});

describe('Neo4j driver sockets', { skip: NEO4J_SKIP }, () => {
  // With Nagle's algorithm on, a query whose parameters span several of the driver's ~1.4 kB chunks
  // (a query vector, an id pool) waited ~40 ms for the server's delayed ACK, every time.
  test('have Nagle\'s algorithm off, so a query with large parameters is not held back', async () => {
    const options = neo4jTestOptions('test-nodelay');
    const graph = new Neo4jGraphStore(options);
    try {
      const ana = await graph.createParticipant('t1', { name: 'Ana' });
      const ids = [ana.id, ...Array.from({ length: 400 }, (_, i) => `p_missing_${i}`)];
      assert.ok(JSON.stringify(ids).length > 4 * 1400, 'the parameters span several chunks');
      assert.deepEqual((await graph.getParticipants('t1', ids)).map((p) => p.name), ['Ana']);
      const port = Number(new URL(options.uri).port || 7687);
      const bolt = sockets.filter((s) => s.socket.remotePort === port);
      assert.ok(bolt.length > 0, 'the driver connected');
      for (const s of bolt) assert.equal(s.noDelay, true, `TCP_NODELAY on the socket to :${port}`);
    } finally {
      await graph.eraseAll();
      await graph.close();
    }
  });
});
