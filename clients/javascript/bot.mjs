#!/usr/bin/env node
// A bot that plays uniformly random legal moves in any game the daemon serves (Node.js, no npm
// dependencies).
//
//   node bot.mjs [--host H] [--port P] [--name NAME] [--seed N]
//                (--create [--kind KIND] [--option KEY=VALUE ...] | --game ID)
//
// --create makes a game (`new <kind> <options>`, `hipparchus` unless --kind says otherwise;
// --seed N adds seed=N unless an --option gives one) and takes a seat; --game joins that game.
// It prints `game=<id> seat=<n>` once seated, then follows the generic contract alone
// (PROTOCOL.md): whenever a `to-move` event names its seat it asks `legal` (a list of moves, or
// a `pick` of n items) and plays one at random. At `game-over` it prints the event's fields,
// `winners=<seats> scores=<per seat> resigned=<seat or ->` (Hipparchus's scores are the round
// wins), then exits 0. Errors go to standard error with exit status 1. To make it play well,
// replace choose() (see README.md).

import { parseArgs } from 'node:util';
import { Client, DEFAULT_PORT, canMove, intList, parseLegal, randomMove } from './hipparchus_client.mjs';

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

/** The bot's whole strategy: one of the legal moves (see parseLegal), at random. */
function choose(legal, random) {
  return randomMove(legal, random);
}

const USAGE =
  'usage: node bot.mjs [--host H] [--port P] [--name NAME] [--seed N] ' +
  '(--create [--kind KIND] [--option KEY=VALUE ...] | --game ID)';

function usage(message) {
  console.error(`bot: ${message}`);
  console.error(USAGE);
  process.exit(2);
}

async function play(options) {
  const random = makeRandom(options.seed);
  const client = await Client.connect(options.host, Number(options.port));
  let game = options.game;
  if (options.create) {
    const words = [...options.option];
    const given = new Set(words.map((word) => word.slice(0, word.indexOf('='))));
    if (options.seed !== undefined && !given.has('seed')) words.push(`seed=${options.seed}`);
    game = (await client.request('new', options.kind, ...words)).fields().game;
  }
  const seat = Number((await client.request('join', game, `name=${options.name}`)).fields().seat);
  console.log(`game=${game} seat=${seat}`);
  for await (const event of client.events()) {
    if (event.game !== game) continue; // a server event or another game
    const data = event.data;
    if (event.kind === 'to-move' && intList(data.seats).includes(seat)) {
      // The event may be older than our last move (in a simultaneous move, others' moves
      // announce the seats still to move): `legal` answers for now, empty once we have moved.
      const legal = parseLegal(await client.request('legal', game));
      if (canMove(legal)) {
        try {
          await client.request('play', game, choose(legal, random));
        } catch (err) {
          // Losing a race with the end of the game (a resignation) is not an error.
          if (err.code !== 'not-your-turn' && err.code !== 'game-over') throw err;
        }
      }
    } else if (event.kind === 'game-over') {
      const winners = intList(data.winners).join(',');
      const scores = intList(data.scores).join(',');
      console.log(`winners=${winners} scores=${scores} resigned=${data.resigned ?? '-'}`);
      await client.request('quit');
      client.close();
      return 0;
    }
  }
  console.error('bot: the server closed the connection before the game ended');
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
      kind: { type: 'string' },
      option: { type: 'string', short: 'o', multiple: true, default: [] },
      name: { type: 'string', default: 'jsbot' },
      seed: { type: 'string' },
    },
  }).values;
} catch (err) {
  usage(err.message);
}
if (parsed.create === (parsed.game !== undefined)) usage('give exactly one of --create and --game ID');
if (parsed.game !== undefined && (parsed.kind !== undefined || parsed.option.length > 0)) {
  usage('--kind and --option go with --create');
}
parsed.kind ??= 'hipparchus';
if (parsed.seed !== undefined && !/^-?[0-9]+$/.test(parsed.seed)) usage('--seed takes an integer');
for (const option of parsed.option) {
  if (!/^[^=\s]+=\S+$/.test(option)) usage(`--option wants KEY=VALUE, not ${JSON.stringify(option)}`);
}

play(parsed).then(
  (status) => process.exit(status),
  (err) => {
    console.error(`bot: ${err.message}`);
    process.exit(1);
  },
);
