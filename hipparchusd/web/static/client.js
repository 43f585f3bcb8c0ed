// The protocol over a WebSocket: one protocol line per text message, both ways (PROTOCOL.md
// and hipparchusd/server/websocket.py). A Client sends requests and resolves each with its
// response (responses come in the order of the requests), hands events to its listeners,
// checks each game's seq for gaps, and reconnects with backoff when the socket drops, then
// runs the page's `onReconnect` (which resumes its seats and watches again).

const BACKOFF_MS = [250, 500, 1000, 2000, 4000, 8000];

export class ProtocolError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

export class Client {
  constructor(url) {
    this.url = url;
    this.ws = null;
    this.pending = []; // {resolve, reject} per request sent, in order
    this.lines = null; // the response being read, or null
    this.listeners = new Set();
    this.statusListeners = new Set();
    this.onReconnect = async () => {};
    this.attempt = 0;
    this.closedOnPurpose = false;
    this.lastSeq = new Map(); // game -> last public seq seen
    this.gaps = 0; // events that came after a gap in a game's seq
    this.status = "connecting";
  }

  connect() {
    this.setStatus(this.attempt ? "reconnecting" : "connecting");
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.addEventListener("open", () => this.opened(ws));
    ws.addEventListener("message", (event) => this.received(event.data));
    ws.addEventListener("close", () => this.dropped(ws));
  }

  async opened(ws) {
    if (ws !== this.ws) return;
    try {
      await this.request("format json");
      await this.onReconnect(this.attempt > 0);
      this.attempt = 0;
      this.setStatus("connected");
    } catch (error) {
      console.warn("after connecting:", error.message);
      this.setStatus("connected");
    }
  }

  dropped(ws) {
    if (ws !== this.ws) return;
    const waiting = this.pending;
    this.pending = [];
    this.lines = null;
    for (const { reject } of waiting) reject(new ProtocolError("disconnected", "the connection dropped"));
    if (this.closedOnPurpose) return;
    const delay = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    this.attempt += 1;
    this.setStatus("reconnecting");
    setTimeout(() => this.connect(), delay * (0.75 + Math.random() / 2));
  }

  setStatus(status) {
    this.status = status;
    for (const listener of this.statusListeners) listener(status);
  }

  /** Send one request line; resolves with the JSON payload, rejects with a ProtocolError. */
  request(line) {
    return new Promise((resolve, reject) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
        reject(new ProtocolError("disconnected", "not connected to the daemon"));
        return;
      }
      this.pending.push({ resolve, reject });
      this.ws.send(line);
    });
  }

  received(text) {
    if (typeof text !== "string") return;
    if (this.lines !== null) {
      if (text === "") {
        this.finishResponse(this.lines);
        this.lines = null;
      } else {
        this.lines.push(text);
      }
      return;
    }
    if (text.startsWith("*")) {
      this.event(text);
    } else if (text.startsWith("=") || text.startsWith("?")) {
      this.lines = [text];
    }
  }

  finishResponse(lines) {
    const waiter = this.pending.shift();
    if (!waiter) return;
    const head = lines[0];
    const space = head.indexOf(" ");
    const body = space < 0 ? "" : head.slice(space + 1);
    let data = {};
    try {
      data = body ? JSON.parse(body) : {};
    } catch {
      data = { text: lines.join("\n") }; // before `format json` took effect
    }
    if (head.startsWith("=")) waiter.resolve(data);
    else waiter.reject(new ProtocolError(data.code || "error", data.message || body));
  }

  event(text) {
    let event;
    try {
      event = JSON.parse(text.slice(2));
    } catch {
      return; // the text-mode greeting, before `format json`
    }
    if (event.game !== "server" && typeof event.seq === "number") {
      const last = this.lastSeq.get(event.game);
      // A public event is last + 1; a private one (a seat's hand) repeats the seq before it.
      if (last !== undefined && event.seq > last + 1) {
        this.gaps += 1;
        console.warn(`gap in ${event.game}: seq ${last} then ${event.seq}`);
      }
      if (last === undefined || event.seq > last) this.lastSeq.set(event.game, event.seq);
    }
    for (const listener of this.listeners) listener(event);
  }

  /** A snapshot (state, watch, resume) says where the game's events stand. */
  snapshot(game, seq) {
    this.lastSeq.set(game, seq);
  }

  close() {
    this.closedOnPurpose = true;
    if (this.ws) this.ws.close(1000);
  }
}
