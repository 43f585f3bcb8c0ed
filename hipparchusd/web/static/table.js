// What every table shares: the frame (title, players, whose move, each seat's clock in a timed
// game, the refusal banner, the event log), refreshing the view and the legal moves after
// events, claiming a game over an absent opponent, and the end-of-round summary. A game kind's
// table draws the rest: the kind's own page module (its folder's page/table.js, whose default
// export extends Table) or, for a kind without one, the generic table (generic.js).
//
// The log says each event in words: the lobby's events here (words.js), a game's own through
// its table's ``gameEventLines``; an event no one words is shown by its fields. A table opened
// on a game under way (a reload, a reconnection, a spectator arriving) starts its log with
// what the view tells of the round so far (``replayLines``), since the events before it are
// not sent again.

import { addBot, levelSelect } from "./bots.js";
import { clockText, LOW_MS } from "./clocks.js";
import { el, fill } from "./dom.js";
import { lobbyEventLines, sentence } from "./words.js";

/** Events that say who is at the table, not what happened in the game: a refusal shown in
 * the banner still holds after them. */
const PRESENCE = new Set(["joined", "left", "disconnected", "resumed", "absent"]);

export class Table {
  /** ``kind``: the game's kind (from its snapshot); ``seatHint``: the seat this browser holds,
   * known before the game starts. */
  constructor({ client, game, kind, root, toast, seatHint }) {
    this.client = client;
    this.game = game;
    this.kind = kind;
    this.root = root;
    this.toast = toast;
    this.mine = false;
    this.seatHint = seatHint; // the seat this browser holds, known before the game starts
    this.snapshot = null; // the last `state` answer
    this.legal = null; // the last `legal` answer, or null
    this.refreshing = null;
    this.again = false;
    this.left = false;
    this.busy = false;
    this.summary = null; // the last round's (hand's) end, shown until dismissed
    this.chosen = []; // the items chosen so far for a pick, in the order chosen
    this.logBox = el("ol", { class: "log", id: "log", "aria-live": "polite" });
    this.replayed = false; // whether the log has had the view's account of the round so far
    this.banner = el("div", { class: "banner", id: "banner", role: "alert" });
    this.board = el("div", { class: "board" });
    this.head = el("header", { class: "table-head" });
    this.dialog = el("div", { class: "summary-box", id: "summary" });
    this.botBox = null; // the control adding a computer opponent, made once (keeps its choice)
    this.clockBox = el("div", { class: "clocks", id: "clocks", "aria-live": "off" });
    this.clockAt = 0; // when (performance.now(), ms) the clocks shown were told
    this.noClaim = false; // the server said this game has nothing to claim (the engine plays)
    this.ticker = window.setInterval(() => this.tick(), 200);
    root.replaceChildren(
      el(
        "section",
        { class: `table table-${this.kind}` },
        this.head,
        this.banner,
        el("div", { class: "table-body" }, this.board, el("aside", { class: "side" }, el("h3", { text: "Events" }), this.logBox)),
        this.dialog,
      ),
    );
  }

  leave() {
    this.left = true;
    window.clearInterval(this.ticker);
  }

  get view() {
    return this.snapshot ? this.snapshot.view : null;
  }

  get seat() {
    return this.view ? this.view.seat : null;
  }

  show(snapshot) {
    this.snapshot = snapshot;
    this.clockAt = performance.now();
    this.mine = !!(snapshot.view && snapshot.view.seat !== null);
    this.replay();
    this.render();
  }

  /** Start the log with what the view tells of the round so far (:meth:`replayLines`), once,
   * when the table opens on a game under way. */
  replay() {
    if (this.replayed || !this.view) return;
    this.replayed = true;
    const lines = this.replayLines(this.view);
    if (!lines.length) return;
    this.addLog(["So far, from the table as it stands:", ...lines], { class: "ev ev-replayed" });
  }

  /** The lines of the log that ``view`` tells of its round so far; none by default (a game's
   * table words its own). */
  replayLines(_view) {
    return [];
  }

  /** Fetch the view and, for a seat that must move, the legal moves; then draw. */
  refresh() {
    if (this.refreshing) {
      this.again = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      do {
        this.again = false;
        try {
          const state = await this.client.request(`state ${this.game}`);
          let legal = null;
          const view = state.view;
          if (this.wantsLegal(state)) legal = await this.client.request(`legal ${this.game}`);
          if (this.left) return;
          this.snapshot = state;
          this.clockAt = performance.now();
          this.mine = !!(view && view.seat !== null);
          this.legal = legal;
          this.render();
        } catch (error) {
          if (error.code !== "disconnected") this.refuse(error);
          return;
        }
      } while (this.again);
    })().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  /** Whether to ask for the legal moves with ``state`` (a `state` answer): when this seat is
   * to move in a game being played. */
  wantsLegal(state) {
    const view = state.view;
    return !!view && view.seat !== null && state.status === "playing" && this.toMove(view).includes(view.seat);
  }

  /** The seats to move in ``view`` (a game's view that says so in ``to_move``). */
  toMove(view) {
    const t = view.to_move;
    if (t === null || t === undefined) return [];
    return Array.isArray(t) ? t : [t];
  }

  onEvent(event) {
    // A seat's name is known from its `joined` event on, before the next state arrives.
    if (event.kind === "joined" && this.snapshot && Array.isArray(this.snapshot.players)) {
      this.snapshot.players[event.data.seat] = event.data.name;
    }
    // A refusal is about the position it was made in: once the game moves on it is stale.
    if (!PRESENCE.has(event.kind)) this.clearBanner();
    this.log(event);
    this.remember(event);
    this.refresh();
  }

  remember(_event) {}

  /** Keep ``event`` (a round's or a game's end) in the summary shown until dismissed, by its
   * kind, and show the summary again. */
  summarize(event) {
    this.summary = { ...(this.summary || {}), [event.kind]: event.data };
    this.renderSummary();
  }

  /** Draw the table: the head, and the board of a game waiting for players or, once it has
   * started, the game's own (:meth:`renderBoard`). */
  render() {
    this.renderHead();
    if (this.view) this.renderBoard(this.view);
    else fill(this.board, this.waitingBoard());
  }

  /** Draw the board of a started game from ``view`` (the game's view for this seat). */
  renderBoard(_view) {}

  /** Draw the summary (``this.summary``) of a round's or a game's end. */
  renderSummary() {}

  /** Choose ``item`` for a pick of ``count`` items (after those already chosen), or, when
   * chosen, no more; then draw again. Ignored while a move is in flight. */
  toggle(item, count) {
    if (this.busy) return;
    const index = this.chosen.indexOf(item);
    if (index >= 0) this.chosen.splice(index, 1);
    else if (this.chosen.length < count) this.chosen.push(item);
    this.render();
  }

  /** Add ``event`` to the log, in words (:meth:`eventLines`); an event with no line (such
   * as ``to-move``, which the head shows) adds none. */
  log(event) {
    const lines = this.eventLines(event);
    if (lines.length) this.addLog(lines, { class: `ev ev-${event.kind}`, "data-seq": event.seq ?? "", "data-kind": event.kind });
  }

  /** One entry of the log, ``lines`` in order, at its end (the log reads from the top down,
   * as the terminal client's does); it keeps the last 200 entries and follows the newest
   * unless the reader has scrolled back. */
  addLog(lines, attrs) {
    const box = this.logBox;
    const following = box.scrollHeight - box.scrollTop - box.clientHeight < 24;
    box.append(el("li", attrs, lines.map((line) => el("span", { class: "line", text: sentence(line, this.names()) }))));
    while (box.children.length > 200) box.firstChild.remove();
    if (following) box.scrollTop = box.scrollHeight;
  }

  /** The lines that say ``event`` in words: the game's own (:meth:`gameEventLines`), else the
   * lobby's (joined, left, disconnected, resumed, game-over; none for to-move), else, for an
   * event nobody words, its kind and fields. */
  eventLines(event) {
    return (
      this.gameEventLines(event) ??
      lobbyEventLines(event.kind, event.data || {}, (seat) => this.label(seat), this.ownSeat) ?? [`${event.kind} ${describe(event.data, this.names())}`.trim()]
    );
  }

  /** The lines of a game's own event, or null for an event the game does not word (the
   * generic table words none). */
  gameEventLines(_event) {
    return null;
  }

  names() {
    return this.snapshot ? this.snapshot.players.map((p, i) => p || `seat ${i}`) : [];
  }

  name(seat) {
    const names = this.names();
    return names[seat] ?? `seat ${seat}`;
  }

  /** The seat this page holds: its view's, or, before the game has started, the one it
   * joined; null for a spectator. */
  get ownSeat() {
    if (this.view) return this.view.seat;
    return this.seatHint ?? null;
  }

  /** How a sentence names ``seat``: "you" for this page's own seat, else the player's name
   * (as the terminal client does). */
  label(seat) {
    return this.ownSeat !== null && seat === this.ownSeat ? "you" : this.name(seat);
  }

  /** Whether the table shows the latest state and waits for nothing (no move in flight). */
  get settled() {
    return !this.busy && !this.refreshing;
  }

  /** Send a move; a refusal shows its reason in the banner. Until the move is answered and
   * the table redrawn from the state after it, further clicks are ignored (a second click on
   * a stale table would send a move the position no longer allows). */
  async play(move) {
    if (this.busy) return;
    this.busy = true;
    this.clearBanner();
    try {
      await this.client.request(`play ${this.game} ${move}`);
      await this.refresh();
    } catch (error) {
      this.refuse(error);
    } finally {
      this.busy = false;
    }
  }

  /** Show why the daemon refused a request: its message in words (the error's code stays on
   * the banner's ``data-code`` for programs), over the top of the board, so that the table
   * does not move under the pointer; it goes with its close button, the next move, or the next
   * event of the game. */
  refuse(error) {
    this.banner.replaceChildren(
      el("span", { class: "banner-text", text: sentence(error.message || error.code) }),
      el("button", { type: "button", class: "banner-close", "aria-label": "dismiss", title: "dismiss", onclick: () => this.clearBanner(), text: "×" }),
    );
    this.banner.dataset.code = error.code;
    this.banner.classList.add("shown");
  }

  /** Claim the game over an absent opponent (PROTOCOL.md section 10); a refusal shows its
   * reason, and a game the engine plays an absent seat in offers no claim again. */
  async claim() {
    try {
      await this.client.request(`claim ${this.game}`);
    } catch (error) {
      if (/nothing to claim: in this game/.test(error.message)) this.noClaim = true;
      this.refuse(error);
      this.renderHead();
    }
  }

  /** Whether to offer `claim`: this browser's seat plays a game going on, and another seat is
   * absent (away for the whole absence grace, the server said). */
  get claimable() {
    const s = this.snapshot;
    if (!s || !this.mine || s.status !== "playing" || this.noClaim) return false;
    return (s.presence || []).some((p, seat) => p === "absent" && seat !== this.view.seat);
  }

  /** What each seat's clock reads now: what `state` said, run down since for the seats whose
   * clocks run. */
  clockLeft(seat) {
    const clock = this.snapshot && this.snapshot.clock;
    if (!clock) return null;
    let left = clock.left_ms[seat];
    if (clock.running.includes(seat) && this.snapshot.status === "playing") {
      left -= performance.now() - this.clockAt;
    }
    return Math.max(0, Math.round(left));
  }

  /** Draw the clocks of a timed game: each seat's name and time, the running ones marked, a
   * low one warned. */
  renderClocks() {
    const clock = this.snapshot && this.snapshot.clock;
    if (!clock) {
      this.clockBox.replaceChildren();
      return;
    }
    const running = this.snapshot.status === "playing" ? clock.running : [];
    const seats = clock.left_ms.map((_, seat) => {
      const left = this.clockLeft(seat);
      const classes = ["clock"];
      if (running.includes(seat)) classes.push("running");
      if (left < LOW_MS) classes.push("low");
      const presence = (this.snapshot.presence || [])[seat];
      return el(
        "span",
        { class: classes.join(" "), "data-seat": seat, "data-left": left, title: `${clock.control}; lag allowance ${clock.lag_ms[seat]} ms` },
        el("span", { class: "who", text: this.name(seat) }),
        " ",
        el("b", { class: "time", text: clockText(left) }),
        presence === "absent" ? el("span", { class: "absent", text: " absent" }) : null,
      );
    });
    this.clockBox.replaceChildren(el("span", { class: "control", text: clock.control }), ...seats);
  }

  tick() {
    if (this.snapshot && this.snapshot.clock && this.snapshot.status === "playing") this.renderClocks();
  }

  clearBanner() {
    this.banner.classList.remove("shown");
    this.banner.replaceChildren();
    delete this.banner.dataset.code;
  }

  /** The result of a finished game on the table itself (beside the summary dialog, which is
   * dismissed): ``headline``, and the winning ``seats``. */
  resultStrip(headline, seats) {
    return el("div", { class: "result-strip", id: "game-result", "data-winners": seats.join(",") }, el("b", { class: "result-headline", text: headline }));
  }

  async resign() {
    if (!window.confirm("Resign this game?")) return;
    try {
      await this.client.request(`resign ${this.game}`);
    } catch (error) {
      this.refuse(error);
    }
  }

  /** The board of a game waiting for players: who sits where, and a control that seats the
   * daemon's engine in a free seat at a chosen level. */
  waitingBoard() {
    const players = this.snapshot.players;
    const free = players.some((p) => p === null);
    const select = this.botBox === null ? levelSelect("bot-level", this.kind) : null;
    if (this.botBox === null && select !== null) {
      const button = el("button", { type: "button", class: "primary", id: "add-bot", text: "add computer opponent" });
      button.addEventListener("click", () => this.addBot(select.value, button));
      this.botBox = el("div", { class: "bot-control", id: "bot-control" }, el("label", { for: "bot-level", text: "level" }), select, button);
    }
    return el(
      "div",
      { class: "waiting" },
      el("p", { text: `waiting for players: ${players.map((p, i) => p || `seat ${i} free`).join(", ")}` }),
      free && this.snapshot.status === "waiting" ? this.botBox : null,
    );
  }

  /** Seat the engine in the first free seat; a refusal shows its reason in the banner. */
  async addBot(level, button) {
    if (button.disabled) return;
    button.disabled = true;
    this.clearBanner();
    try {
      await addBot(this.client, this.game, level);
      await this.refresh();
    } catch (error) {
      if (error.code !== "disconnected") this.refuse(error);
    } finally {
      button.disabled = false;
    }
  }

  renderHead() {
    const s = this.snapshot;
    const view = this.view;
    const moving = view ? this.toMove(view) : [];
    let turn;
    if (s.status === "waiting") turn = "waiting for players";
    else if (s.status === "over" && s.operator) turn = "game over: ended by the server's operator";
    else if (s.status === "over" && s.aborted) turn = "game over: aborted, no result";
    else if (s.status === "over" && s.timeout !== undefined) turn = `game over: ${this.name(s.timeout)} ran out of time`;
    else if (s.status === "over" && s.claimed) turn = "game over: claimed over an absent seat";
    else if (s.status === "over") turn = "game over";
    else if (this.mine && moving.includes(view.seat)) turn = "your move";
    else turn = `to move: ${moving.map((seat) => this.name(seat)).join(", ") || "—"}`;
    fill(this.head,
      el("a", { href: "#", class: "back", text: "← lobby" }),
      el("h2", {}, `${s.game} `, el("small", { text: s.kind })),
      el("span", { class: "role", text: this.roleText() }),
      view && view.fixed_deal ? el("span", { class: "tag", title: "the deal was fixed at creation (seed or deal)", text: "fixed deal" }) : null,
      el("span", { class: `turn${this.mine && moving.includes(view.seat) ? " mine" : ""}`, id: "turn", text: turn }),
      this.mine && s.status === "playing" ? el("button", { type: "button", class: "secondary small resign", onclick: () => this.resign(), text: "resign" }) : null,
      this.claimable ? el("button", { type: "button", class: "primary small claim", id: "claim", onclick: () => this.claim(), text: "claim the game" }) : null,
      this.clockBox,
    );
    this.renderClocks();
  }

  roleText() {
    const seat = this.mine ? this.view.seat : this.seatHint;
    if (seat === null || seat === undefined) return "spectating";
    return `you are ${this.name(seat)} (seat ${seat})`;
  }

  showSummary(node) {
    this.dialog.replaceChildren(
      el("div", { class: "summary-inner" }, node, el("button", { type: "button", class: "primary", id: "summary-close", onclick: () => this.closeSummary(), text: "continue" })),
    );
    this.dialog.classList.add("shown");
  }

  closeSummary() {
    this.summary = null;
    this.dialog.classList.remove("shown");
    this.dialog.replaceChildren();
  }
}

/** A one-line text of an event's data for the log. */
export function describe(data, names) {
  if (!data) return "";
  const parts = [];
  for (const [key, value] of Object.entries(data)) {
    if (value === null || value === undefined) continue;
    let text;
    if ((key === "seat" || key === "leader" || key === "winner" || key === "shooter" || key === "dealer") && typeof value === "number") text = names[value] ?? value;
    else if (Array.isArray(value) && value.some(Array.isArray)) text = value.map((v) => (Array.isArray(v) ? v.join(",") : v)).join("/");
    else if (Array.isArray(value)) text = value.map((v) => (typeof v === "object" && v !== null ? JSON.stringify(v) : v)).join(",");
    else if (typeof value === "object") text = Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => `${k}:${Array.isArray(v) ? v.join(",") : v}`).join(" ");
    else text = value;
    parts.push(`${key}=${text}`);
  }
  return parts.join(" ");
}
