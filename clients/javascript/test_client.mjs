// Unit tests of hipparchus_client.mjs against a scripted server: `node --test clients/javascript/`.
// The server writes its lines one byte at a time, so every line arrives split across reads.

import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import {
  Client,
  Response,
  ServerError,
  canMove,
  intList,
  parseFields,
  parseLegal,
  randomMove,
  splitList,
  splitLists,
} from './hipparchus_client.mjs';

const HELLO = '* server hello name=hipparchusd version=0.1.0 protocol=1\n';

/** A one-connection server: sends HELLO, then answers the n-th request line with script[n]. */
async function scriptedServer(script) {
  const received = [];
  const server = net.createServer((socket) => {
    let buffer = '';
    const drip = async (text) => {
      for (const ch of text) {
        socket.write(ch);
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    let queue = drip(HELLO);
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      buffer += chunk;
      let nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        received.push(buffer.slice(0, nl));
        buffer = buffer.slice(nl + 1);
        const reply = script[received.length - 1];
        queue = queue.then(() => drip(reply ?? ''));
      }
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: server.address().port, received };
}

test('greeting, ids, payload words and events kept in order', async () => {
  const { server, port, received } = await scriptedServer([
    '* g1 2 joined seat=1 name=bob\n=1 1S@1 2S@1\n1M@3\n\n* g1 4 turn seat=0 lead=-\n',
  ]);
  const client = await Client.connect('127.0.0.1', port);
  assert.deepEqual(client.greeting, { name: 'hipparchusd', version: '0.1.0', protocol: '1' });
  const response = await client.request('legal', 'g1');
  assert.deepEqual(received, ['1 legal g1']);
  assert.deepEqual(response.words(), ['1S@1', '2S@1', '1M@3']);
  const joined = await client.nextEvent();
  const turn = await client.nextEvent();
  assert.deepEqual([joined.kind, joined.seq, joined.data.name], ['joined', 2, 'bob']);
  assert.deepEqual([turn.kind, turn.data.seat, turn.data.lead], ['turn', '0', '-']);
  client.close();
  server.close();
});

test('a refusal rejects with the error code; an id-less answer is the waiting request\'s', async () => {
  const { server, port } = await scriptedServer([
    '?1 illegal-move 3E@1 is not a play of your hand\n\n',
    '? line-too-long request lines are limited to 4096 bytes\n\n',
    '=3 game=g1\nkind=hipparchus\n\n',
  ]);
  const client = await Client.connect('127.0.0.1', port);
  await assert.rejects(client.request('play', 'g1', '3E@1'), (err) => {
    assert.ok(err instanceof ServerError);
    assert.equal(err.code, 'illegal-move');
    assert.equal(err.serverMessage, '3E@1 is not a play of your hand');
    return true;
  });
  await assert.rejects(client.request('name'), (err) => err.code === 'line-too-long');
  assert.deepEqual((await client.request('state', 'g1')).fields(), { game: 'g1', kind: 'hipparchus' });
  await assert.rejects(client.request('join', 'two words'), TypeError);
  client.close();
  server.close();
});

test('text forms of PROTOCOL.md section 6', () => {
  assert.deepEqual(parseFields('seat=0 trick.lead=2E'), { seat: '0', 'trick.lead': '2E' });
  assert.deepEqual(splitList('1,0'), ['1', '0']);
  assert.deepEqual(splitList('-'), []);
  assert.deepEqual(splitLists('0,2,1/3,0,0'), [['0', '2', '1'], ['3', '0', '0']]);
  assert.throws(() => parseFields(['noequals']));
});

test('legal answers of any game: a list of moves, or a pick of n items', () => {
  const list = parseLegal(new Response(1, ['1S@1 2S@1 1M@3']));
  assert.deepEqual(list, { moves: ['1S@1', '2S@1', '1M@3'] });
  assert.equal(canMove(parseLegal(new Response(1, []))), false);
  const pick = parseLegal(new Response(1, ['pick 3 E1 J3 M7 V1 to=1,2,3']));
  assert.deepEqual(pick, { pick: 3, items: ['E1', 'J3', 'M7', 'V1'], to: [1, 2, 3] });
  assert.deepEqual(parseLegal(new Response(1, ['pick 1 self others'])).to, null);
  // A scripted generator: a partial Fisher-Yates shuffle of the items, its first n joined.
  const draws = [0.99, 0.0, 0.5];
  const move = randomMove(pick, () => draws.shift());
  assert.equal(move, 'V1,J3,E1'); // swaps 0<->3, 1<->1, 2<->3
  for (let i = 0; i < 50; i++) {
    const chosen = randomMove(pick).split(',');
    assert.equal(new Set(chosen).size, 3);
    assert.ok(chosen.every((card) => pick.items.includes(card)));
  }
  assert.equal(randomMove(list, () => 0.4), '2S@1');
  assert.throws(() => randomMove({ pick: 5, items: ['a'], to: null }), RangeError);
  assert.deepEqual(intList('0,2'), [0, 2]);
  assert.deepEqual(intList('-'), []);
  assert.deepEqual(intList('-23,0'), [-23, 0]);
  assert.throws(() => intList('a,b'));
  assert.throws(() => parseLegal(new Response(1, ['pick x a b'])));
});
