#!/usr/bin/env node
// A Hipparchus bot that plays uniformly random legal moves (Node.js, no npm dependencies).
//
//   node bot.mjs [--host H] [--port P] (--create | --game ID) [--name NAME] [--seed N]
//
// Prints `game=<id> seat=<n>` once seated and `winner=<n> round_wins=<a>,<b>` when the match
// is over (exit 0). Errors go to standard error with exit status 1. To make it play well,
// replace choose() (see README.md).

import { parseArgs } from 'node:util';
import { Client, DEFAULT_PORT, splitList } from './hipparchus_client.mjs';

/** A small seedable generator (mulberry32), so that --seed makes a run reproducible. */
function makeRandom(seed) {
  if (seed === undefined) return Math.random;
  let state = Number(seed) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The bot's whole strategy: one of the legal moves (canonical notation), at random. */
function choose(moves, random) {
  return moves[Math.floor(random() * moves.length)];
}

function usage(message) {
  console.error(`bot: ${message}`);
  console.error('usage: node bot.mjs [--host H] [--port P] (--create | --game ID) [--name NAME] [--seed N]');
  process.exit(2);
}

async function play(options) {
  const random = makeRandom(options.seed);
  const client = await Client.connect(options.host, Number(options.port));
  let game = options.game;
  if (options.create) {
    const extra = options.seed === undefined ? [] : [`seed=${options.seed}`];
    game = (await client.request('new', 'hipparchus', ...extra)).fields().game;
  }
  const { seat } = (await client.request('join', game, `name=${options.name}`)).fields();
  console.log(`game=${game} seat=${seat}`);
  for await (const event of client.events()) {
    if (event.game !== game) continue; // a server event or another game
    const data = event.data;
    if (event.kind === 'turn' && data.seat === seat) {
      const moves = (await client.request('legal', game)).words();
      if (moves.length > 0) await client.request('play', game, choose(moves, random));
    } else if (event.kind === 'played' && data.seat !== seat) {
      console.log(`opponent played ${data.play}`);
    } else if (event.kind === 'round-over') {
      console.log(`round ${data.round_number} won by seat ${data['result.winner']} (scores ${data['result.totals']})`);
    } else if (event.kind === 'match-over') {
      console.log(`winner=${data.winner} round_wins=${splitList(data.round_wins).join(',')}`);
      await client.request('quit');
      client.close();
      return 0;
    }
  }
  console.error('bot: the server closed the connection before the match ended');
  return 1;
}

let parsed;
try {
  parsed = parseArgs({
    options: {
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: String(DEFAULT_PORT) },
      create: { type: 'boolean', default: false },
      game: { type: 'string' },
      name: { type: 'string', default: 'jsbot' },
      seed: { type: 'string' },
    },
  }).values;
} catch (err) {
  usage(err.message);
}
if (parsed.create === (parsed.game !== undefined)) usage('give exactly one of --create and --game ID');
if (parsed.seed !== undefined && !/^-?[0-9]+$/.test(parsed.seed)) usage('--seed takes an integer');

play(parsed).then(
  (status) => process.exit(status),
  (err) => {
    console.error(`bot: ${err.message}`);
    process.exit(1);
  },
);
