// A client for the hipparchusd protocol (protocol/PROTOCOL.md), Node.js standard library only.
//
//   const client = await Client.connect('127.0.0.1', 7460); // reads the greeting
//   const { game } = (await client.request('new', 'planets', 'players=4')).fields();
//   const { seat } = (await client.request('join', game, 'name=alice')).fields();
//   for await (const event of client.events()) {
//     if (event.kind === 'to-move' && intList(event.data.seats).includes(Number(seat))) {
//       const legal = parseLegal(await client.request('legal', game)); // moves, or a pick
//       if (canMove(legal)) await client.request('play', game, randomMove(legal));
//     } else if (event.kind === 'game-over') break;
//   }
//
// Every game speaks the same contract: `to-move` names the seats that must move, `legal` lists
// their moves or describes a choice (parseLegal), `play` makes one, `game-over` ends the game.
//
// Every request carries a numeric id; its answer resolves the promise request() returned.
// Events (`*` lines) are queued in arrival order and handed out by nextEvent()/events().
// Text mode only: a response's payload is its lines, an event's data its key=value fields as
// strings (PROTOCOL.md section 6; use splitList/splitLists for list values, "-" is null).
// A `?` answer rejects with a ServerError whose .code is the protocol's error code.

import net from 'node:net';

export const DEFAULT_PORT = 7460;

/** A refused request: `code` is one of PROTOCOL.md's error codes, `message` is for people. */
export class ServerError extends Error {
  constructor(code, message, requestId) {
    super(`${code}: ${message}`);
    this.name = 'ServerError';
    this.code = code;
    this.serverMessage = message;
    this.requestId = requestId;
  }
}

/** The connection closed, or the server broke the protocol. */
export class ConnectionError extends Error {
  constructor(message) {
    super(message);
    this.name = 'ConnectionError';
  }
}

/** `key=value` words (an array, or a line) -> { key: value } (values stay strings). */
export function parseFields(words) {
  if (typeof words === 'string') words = words.split(/[ \t]+/).filter(Boolean);
  const fields = {};
  for (const word of words) {
    const eq = word.indexOf('=');
    if (eq <= 0) throw new ConnectionError(`expected key=value, got ${JSON.stringify(word)}`);
    fields[word.slice(0, eq)] = word.slice(eq + 1);
  }
  return fields;
}

/** A flattened list ("1,0") -> ["1", "0"]; "-" (empty or null) -> []. */
export function splitList(value) {
  return value === '-' ? [] : value.split(',');
}

/** A flattened list of lists ("0,2,1/3,0,0") -> [["0","2","1"], ["3","0","0"]]. */
export function splitLists(value) {
  return value === '-' ? [] : value.split('/').map(splitList);
}

/**
 * A field holding a list of integers (`seats=0,2` of to-move, `winners=` and `scores=` of
 * game-over) -> [0, 2]; "-" (empty or null) and undefined -> [].
 */
export function intList(value) {
  if (value === undefined || value === null) return [];
  return splitList(value).map((word) => {
    if (!/^-?[0-9]+$/.test(word)) throw new ConnectionError(`not an integer list: ${JSON.stringify(value)}`);
    return Number.parseInt(word, 10);
  });
}

/**
 * A `legal` answer (its Response) read the same way for every game (PROTOCOL.md, `legal`):
 * either `{ moves: [word, ...] }` (empty when the seat need not move) or, for a choice,
 * `{ pick: n, items: [item, ...], to: [seat, ...] | null }` (`= pick <n> <item>... [to=...]`),
 * whose move is n distinct items joined by "," (the i-th chosen item goes to seat to[i]).
 */
export function parseLegal(response) {
  const words = response.words();
  if (words[0] !== 'pick') return { moves: words };
  const count = Number.parseInt(words[1], 10);
  if (!/^[0-9]+$/.test(words[1] ?? '')) {
    throw new ConnectionError(`bad pick answer ${JSON.stringify(response.lines)}`);
  }
  let items = words.slice(2);
  let to = null;
  if (items.length > 0 && items[items.length - 1].startsWith('to=')) {
    to = intList(items[items.length - 1].slice(3));
    items = items.slice(0, -1);
  }
  return { pick: count, items, to };
}

/** True when a parseLegal() result offers a move (a non-empty list, or a pick with enough items). */
export function canMove(legal) {
  if (legal.pick !== undefined) return legal.pick > 0 && legal.pick <= legal.items.length;
  return legal.moves.length > 0;
}

/**
 * A uniformly random legal move word from a parseLegal() result, `random` returning floats in
 * [0, 1) like Math.random. For a pick: n distinct items in random order (a partial
 * Fisher-Yates shuffle), joined by ",". Throws a RangeError when there is no move (canMove).
 */
export function randomMove(legal, random = Math.random) {
  if (!canMove(legal)) throw new RangeError('no legal move');
  const below = (n) => Math.floor(random() * n);
  if (legal.pick === undefined) return legal.moves[below(legal.moves.length)];
  const items = [...legal.items];
  for (let i = 0; i < legal.pick; i++) {
    const j = i + below(items.length - i);
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items.slice(0, legal.pick).join(',');
}

/** A successful answer: `lines` is the text payload (possibly empty). */
export class Response {
  constructor(requestId, lines) {
    this.requestId = requestId;
    this.lines = lines;
  }
  /** Every word of the payload, e.g. legal's moves. */
  words() {
    return this.lines.flatMap((line) => line.split(/[ \t]+/).filter(Boolean));
  }
  /** The payload's key=value words as an object. */
  fields() {
    return parseFields(this.words());
  }
}

/** `* <game> <seq> <kind> fields...` or `* server <kind> fields...` -> an event object. */
export function parseEvent(line) {
  const words = line.slice(1).trim().split(/[ \t]+/);
  if (words[0] === 'server') {
    return { game: 'server', seq: null, kind: words[1], data: parseFields(words.slice(2)) };
  }
  const seq = Number.parseInt(words[1], 10);
  if (words.length < 3 || Number.isNaN(seq)) {
    throw new ConnectionError(`malformed event line ${JSON.stringify(line)}`);
  }
  return { game: words[0], seq, kind: words[2], data: parseFields(words.slice(3)) };
}

export class Client {
  /** Connect, wait for `* server hello`, and resolve with the client (greeting in .greeting). */
  static connect(host = '127.0.0.1', port = DEFAULT_PORT) {
    return new Promise((resolve, reject) => {
      const socket = net.createConnection({ host, port });
      const client = new Client(socket);
      client.greetingPromise.then(() => resolve(client), reject);
      socket.once('error', reject);
    });
  }

  constructor(socket) {
    this.socket = socket;
    this.nextId = 1;
    this.pending = new Map(); // request id -> { resolve, reject }
    this.events_ = []; // events not yet handed out
    this.eventWaiters = []; // nextEvent() calls waiting for an event
    this.buffer = '';
    this.response = null; // the response being read: { head, lines }
    this.closed = null; // the reason, once the connection is gone
    this.greeting = null;
    this.greetingPromise = new Promise((resolve, reject) => {
      this.greetingWaiter = { resolve, reject };
    });
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => this.onData(chunk));
    socket.on('close', () => this.fail(new ConnectionError('the server closed the connection')));
    socket.on('error', (err) => this.fail(new ConnectionError(err.message)));
  }

  onData(chunk) {
    this.buffer += chunk;
    let newline;
    while ((newline = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, newline).replace(/\r$/, '');
      this.buffer = this.buffer.slice(newline + 1);
      try {
        this.onLine(line);
      } catch (err) {
        this.fail(err);
        this.socket.destroy();
        return;
      }
    }
  }

  onLine(line) {
    if (this.response !== null) {
      // Inside a response: it runs up to the next empty line.
      if (line === '') this.finishResponse();
      else this.response.lines.push(line);
      return;
    }
    if (line.startsWith('*')) {
      const event = parseEvent(line);
      if (this.greeting === null) {
        if (event.game !== 'server' || event.kind !== 'hello') {
          throw new ConnectionError(`expected the greeting, got ${JSON.stringify(line)}`);
        }
        this.greeting = event.data;
        this.greetingWaiter.resolve();
      } else {
        const waiter = this.eventWaiters.shift();
        if (waiter) waiter.resolve(event);
        else this.events_.push(event);
      }
    } else if (line.startsWith('=') || line.startsWith('?')) {
      const space = line.indexOf(' ');
      const head = space < 0 ? line : line.slice(0, space);
      const rest = space < 0 ? '' : line.slice(space + 1);
      this.response = { head, lines: rest ? [rest] : [] };
    } else if (line.trim() !== '') {
      throw new ConnectionError(`unexpected line ${JSON.stringify(line)}`);
    }
  }

  finishResponse() {
    const { head, lines } = this.response;
    this.response = null;
    // Answers come in request order. One without an id answers a line whose id the server
    // could not read (e.g. line-too-long): it belongs to the oldest request still waiting.
    let id = Number.parseInt(head.slice(1), 10);
    if (Number.isNaN(id)) id = this.pending.keys().next().value;
    const waiter = this.pending.get(id);
    if (!waiter) throw new ConnectionError(`answer for an id nobody asked: ${head}`);
    this.pending.delete(id);
    if (head.startsWith('?')) {
      const payload = lines.join(' ');
      const space = payload.indexOf(' ');
      const code = space < 0 ? payload : payload.slice(0, space);
      waiter.reject(new ServerError(code, space < 0 ? '' : payload.slice(space + 1), id));
    } else {
      waiter.resolve(new Response(id, lines));
    }
  }

  fail(err) {
    if (this.closed) return;
    this.closed = err;
    this.greetingWaiter.reject(err);
    for (const waiter of this.pending.values()) waiter.reject(err);
    this.pending.clear();
    for (const waiter of this.eventWaiters) waiter.reject(err);
    this.eventWaiters = [];
  }

  /** Send `<id> command args...`; resolves with a Response, rejects with a ServerError. */
  request(command, ...args) {
    for (const word of [command, ...args]) {
      if (typeof word !== 'string' || word === '' || /[ \t\r\n]/.test(word)) {
        return Promise.reject(new TypeError(`not a single protocol word: ${JSON.stringify(word)}`));
      }
    }
    if (this.closed) return Promise.reject(this.closed);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.socket.write(`${[id, command, ...args].join(' ')}\n`);
    });
  }

  /** The next event (queued ones first); rejects with ConnectionError once the connection is gone. */
  nextEvent() {
    if (this.events_.length > 0) return Promise.resolve(this.events_.shift());
    if (this.closed) return Promise.reject(this.closed);
    return new Promise((resolve, reject) => this.eventWaiters.push({ resolve, reject }));
  }

  /** Async iterator over events; ends when the connection closes. */
  async *events() {
    for (;;) {
      try {
        yield await this.nextEvent();
      } catch (err) {
        if (err instanceof ConnectionError) return;
        throw err;
      }
    }
  }

  close() {
    this.socket.end();
  }
}
