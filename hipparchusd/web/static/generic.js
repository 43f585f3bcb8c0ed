// The generic table: plays a game of any kind that has no page module of its own, through the
// protocol's core alone (PROTOCOL.md, "Moves"), as clients/python/bot.py does: whose move it is
// from the `to-move` events (and, for this seat, from a `legal` that is not empty), the legal
// moves as buttons (a list) or as toggles with a confirm (a `pick`), `play`, and the result
// from `game-over`. The view is shown as a readable table of its JSON, whatever the game puts
// in it: it holds only what this seat (or a spectator) may know.

import { el, fill } from "./dom.js";
import { Table } from "./table.js";

/** A key of a view written as words: ``own_pick`` is "own pick". */
function words(key) {
  return String(key).replace(/_/g, " ");
}

function scalar(value) {
  if (value === null || value === undefined) return "—";
  if (value === true) return "yes";
  if (value === false) return "no";
  return String(value);
}

function isScalar(value) {
  return value === null || typeof value !== "object";
}

/** ``value`` (JSON data) as nested tables and lists: an object is a table of its keys, a list
 * of plain values one line, a list of lists or objects a numbered list of them. */
export function jsonNode(value) {
  if (isScalar(value)) return el("span", { class: "json-value", text: scalar(value) });
  if (Array.isArray(value)) {
    if (value.length === 0) return el("span", { class: "json-value empty", text: "none" });
    if (value.every(isScalar)) return el("span", { class: "json-list", text: value.map(scalar).join(", ") });
    return el("ol", { class: "json-items", start: 0 }, value.map((item) => el("li", {}, jsonNode(item))));
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return el("span", { class: "json-value empty", text: "none" });
  return el(
    "table",
    { class: "json-object" },
    el("tbody", {}, entries.map(([key, item]) => el("tr", { "data-key": key }, el("th", { text: words(key) }), el("td", {}, jsonNode(item))))),
  );
}

export class GenericTable extends Table {
  constructor(options) {
    super(options);
    this.root.querySelector("section.table").classList.add("generic-table");
    this.moving = []; // the seats of the last `to-move` event
    this.result = null; // the `game-over` event's data
    this.chosenFor = null; // the pick they were chosen for (its items and count, as a key)
  }

  remember(event) {
    if (event.kind === "to-move") this.moving = event.data.seats;
    if (event.kind === "game-over") {
      this.result = event.data;
      this.moving = [];
    }
  }

  /** A seat asks for its legal moves whenever the game is being played: the view of an unknown
   * game does not say whose move it is, and `legal` answers nothing when the seat need not
   * move. */
  wantsLegal(state) {
    return !!state.view && state.view.seat !== null && state.status === "playing";
  }

  /** The seats of the last `to-move`, with this seat when it has legal moves (after a reload,
   * before any `to-move` came). */
  toMove(view) {
    const seats = new Set(this.snapshot && this.snapshot.status === "playing" ? this.moving : []);
    if (view && view.seat !== null && hasMoves(this.legal)) seats.add(view.seat);
    else if (view && view.seat !== null && this.legal) seats.delete(view.seat);
    return [...seats].sort((a, b) => a - b);
  }

  renderBoard(view) {
    fill(this.board, this.resultPanel(), this.seatsPanel(view), this.movesPanel(view), this.viewPanel(view));
  }

  seatsPanel(view) {
    const moving = this.toMove(view);
    return el(
      "ul",
      { class: "seats", id: "seats" },
      this.names().map((name, seat) =>
        el(
          "li",
          { class: `seat-panel${moving.includes(seat) ? " moving" : ""}`, "data-seat": seat },
          el("b", { text: name }),
          ` seat ${seat}`,
          seat === view.seat ? el("span", { class: "tag", text: "you" }) : null,
          moving.includes(seat) ? el("span", { class: "tag ok", text: "to move" }) : null,
        ),
      ),
    );
  }

  movesPanel(view) {
    if (view.seat === null || this.snapshot.status !== "playing") return null;
    const legal = this.legal;
    const panel = el("div", { class: "moves", id: "moves" });
    if (!hasMoves(legal)) {
      const others = this.toMove(view).filter((seat) => seat !== view.seat);
      panel.append(el("p", { class: "hint", text: others.length ? `Waiting for ${others.map((seat) => this.name(seat)).join(", ")}.` : "Waiting for the other seats." }));
      return panel;
    }
    if (legal.pick !== undefined) return this.pickPanel(panel, legal);
    panel.append(
      el("p", { class: "hint", text: "Your move: choose one." }),
      el(
        "div",
        { class: "move-list" },
        legal.moves.map((move) =>
          el("button", { type: "button", class: "primary legal-move", "data-move": move.move, title: details(move), onclick: () => this.play(move.move), text: move.move }),
        ),
      ),
    );
    return panel;
  }

  /** A choice of ``legal.pick`` distinct items of ``legal.of``, the i-th going to seat
   * ``legal.to[i]`` when the choice has targets: toggles in the order clicked, then confirm. */
  pickPanel(panel, legal) {
    const key = `${legal.pick}:${legal.of.join(",")}`;
    if (this.chosenFor !== key) {
      this.chosen = [];
      this.chosenFor = key;
    }
    const targets = legal.to || [];
    const items = legal.of.map((item) => {
      const index = this.chosen.indexOf(item);
      return el(
        "button",
        { type: "button", class: `pick-item${index >= 0 ? " chosen" : ""}`, "aria-pressed": index >= 0 ? "true" : "false", "data-item": item, onclick: () => this.toggle(item, legal.pick) },
        item,
        index >= 0 && targets.length ? el("span", { class: "badge", text: ` → ${this.name(targets[index])}` }) : null,
      );
    });
    panel.append(
      el("p", { class: "hint", text: `Your move: choose ${legal.pick} of these${new Set(targets).size > 1 ? ", in order" : ""}, then confirm.` }),
      el("div", { class: "move-list" }, items),
      el(
        "div",
        { class: "controls" },
        el("span", { class: "pick-info", text: `${this.chosen.length} of ${legal.pick} chosen` }),
        el("button", { type: "button", class: "primary", id: "pick-confirm", "data-pick": legal.pick, disabled: this.chosen.length !== legal.pick, onclick: () => this.play(this.chosen.join(",")), text: "play these" }),
        el("button", { type: "button", class: "secondary", onclick: () => { this.chosen = []; this.render(); }, text: "clear" }),
      ),
    );
    return panel;
  }

  viewPanel(view) {
    return el("div", { class: "view", id: "view" }, el("h3", { text: view.seat === null ? "The game as a spectator sees it" : "The game as you see it" }), jsonNode(view));
  }

  /** The result from the `game-over` event: the winners, each seat's score, the seat that
   * resigned (out of time, or claimed over while away: PROTOCOL.md section 10), or a game
   * abandoned, aborted or ended by the server's operator; for a game that ended
   * before this page opened, only that it is over (no view of an unknown game says how it
   * ended). */
  resultPanel() {
    if (this.snapshot.status !== "over") return null;
    const r = this.result;
    if (!r) return el("div", { class: "result", id: "game-result" }, el("h3", { text: "Game over" }));
    let headline;
    if (r.abandoned) headline = "Game over: abandoned, nobody won";
    else if (r.operator) headline = "Game over: ended by the server's operator, nobody won";
    else if (r.aborted) headline = "Game over: aborted, no result";
    else headline = `Game over: ${r.winners.map((seat) => this.name(seat)).join(" and ")} win${r.winners.length === 1 ? "s" : ""}`;
    return el(
      "div",
      { class: "result", id: "game-result", "data-winners": (r.winners || []).join(",") },
      el("h3", { class: "match-winner", text: headline }),
      r.resigned !== null && r.resigned !== undefined ? el("p", { text: resignation(r, (seat) => this.name(seat)) }) : null,
      r.scores && r.scores.length
        ? el(
            "table",
            { class: "scoring" },
            el("thead", {}, el("tr", {}, el("th", { text: "" }), el("th", { text: "score" }))),
            el("tbody", {}, r.scores.map((score, seat) => el("tr", { class: r.winners.includes(seat) ? "winner" : "", "data-seat": seat }, el("th", { text: this.name(seat) }), el("td", { class: "score", text: score })))),
          )
        : null,
    );
  }
}

/** How the seat that `resigned` in the `game-over` data `r` did: out of time, claimed over
 * while away, or by its own `resign`; seats named by `name`. */
function resignation(r, name) {
  if (r.timeout !== null && r.timeout !== undefined) return `${name(r.timeout)} ran out of time.`;
  if (r.claimed) return `${name(r.resigned)} was away: the game was claimed.`;
  return `${name(r.resigned)} resigned.`;
}

/** Whether a `legal` answer offers a move: a non-empty list, or a pick. */
function hasMoves(legal) {
  if (!legal) return false;
  if (legal.pick !== undefined) return true;
  return Array.isArray(legal.moves) && legal.moves.length > 0;
}

/** A listed move's description (the game's own fields) as one line, for its tooltip. */
function details(move) {
  return Object.entries(move)
    .filter(([key]) => key !== "move")
    .map(([key, value]) => `${words(key)}: ${isScalar(value) ? scalar(value) : JSON.stringify(value)}`)
    .join("; ");
}
