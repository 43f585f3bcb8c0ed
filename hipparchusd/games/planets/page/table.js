// The planets table: the hand sorted by suit and rank, spread over the panel, the pass (select
// the cards, in order for a split pass, then confirm), the tricks with the legal cards
// highlighted and played by a click, the last trick kept on view with its winner and why it
// won (P5), the shooting choice, points taken this hand and the totals, each hand's end and
// the game's result; the log says each event in words (words.js). The daemon serves this
// folder at games/planets/ (hipparchusd/web/site.py), so the page's shared modules are at
// ../../.

import { cardBack, el, fill } from "../../dom.js";
import { Table } from "../../table.js";
import { andNames, sentence } from "../../words.js";
import { planetCard } from "./cards.js";
import { cardName, cardPoints, eventLines, replayLines, sortCards, trickReason } from "./words.js";

/** The game's result in a line, from the winning seats and the seat that resigned (a
 * ``game-over`` event's, or a finished game's view), seats named by ``name``. */
function gameText(winners, resigned, name) {
  const text = `Game over: ${andNames(winners.map(name))} win${winners.length === 1 ? "s" : ""}`;
  return resigned !== null && resigned !== undefined ? `${text} (${name(resigned)} resigned)` : text;
}

export default class PlanetsTable extends Table {
  constructor(options) {
    super(options);
    this.chosenHand = null; // the hand number the chosen cards (this.chosen) were picked in
    this.broken = false; // whether Jupiter was broken (P11) before the event being logged
  }

  show(snapshot) {
    this.broken = !!(snapshot.view && snapshot.view.jupiter_broken);
    super.show(snapshot);
  }

  gameEventLines(event) {
    const players = this.snapshot ? this.snapshot.players.length : 0;
    return eventLines(event.kind, event.data || {}, (seat) => this.label(seat), { mine: this.ownSeat, players, wasBroken: this.broken });
  }

  replayLines(view) {
    return replayLines(view, (seat) => this.label(seat));
  }

  remember(event) {
    // The point cards each seat takes this hand, from the tricks as they come (for the
    // hand's summary: by then the view is the next hand's).
    if (event.kind === "hand-started") {
      this.taken = null;
      this.broken = false;
    }
    if (event.kind === "trick") {
      this.broken = !!event.data.jupiter_broken;
      this.taken = this.taken || {};
      const won = (this.taken[event.data.winner] = this.taken[event.data.winner] || []);
      won.push(...event.data.cards.filter((card) => cardPoints(card)));
    }
    if (event.kind === "hand-over" || event.kind === "game-over") {
      this.summarize(event);
    }
  }

  renderBoard(view) {
    if (this.chosenHand !== view.hand_number || view.phase !== "pass") {
      this.chosen = [];
      this.chosenHand = view.hand_number;
    }
    const n = view.hand_sizes.length;
    const me = view.seat;
    const order = me === null ? [...Array(n).keys()] : Array.from({ length: n - 1 }, (_, i) => (me + 1 + i) % n);
    fill(this.board,
      el("div", { class: "opponents" }, order.map((seat) => this.seatPanel(seat, view))),
      this.trickPanel(view),
      me === null ? null : this.handPanel(view),
    );
  }

  seatPanel(seat, view) {
    const moving = this.toMove(view).includes(seat);
    const passed = view.phase === "pass" && view.passed.includes(seat);
    return el(
      "div",
      { class: `seat-panel opponent${moving ? " moving" : ""}`, "data-seat": seat },
      el("div", { class: "who" }, el("b", { text: this.name(seat) }), seat === view.dealer ? el("span", { class: "tag", text: "dealer" }) : null, passed ? el("span", { class: "tag ok", text: "passed" }) : null),
      el("div", { class: "backs" }, Array.from({ length: Math.min(view.hand_sizes[seat], 18) }, () => cardBack("tiny"))),
      el("div", { class: "scores" }, el("span", { text: `${view.hand_sizes[seat]} cards` }), el("span", { class: "taken", text: `${view.points_taken[seat]} pts this hand` }), el("span", { class: "total", text: `total ${view.totals[seat]}` })),
    );
  }

  trickPanel(view) {
    const n = view.hand_sizes.length;
    const info = el(
      "div",
      { class: "round-info" },
      el("span", { text: `hand ${view.hand_number}` }),
      el("span", { text: view.pass_name === "none" ? "no pass" : `pass ${view.pass_count} ${view.pass_name}` }),
      el("span", { class: view.jupiter_broken ? "broken" : "", text: view.jupiter_broken ? "Jupiter broken" : "Jupiter not broken" }),
      el("span", { text: `tricks ${view.tricks.length}` }),
    );
    const over = Array.isArray(view.winners);
    let trick = null;
    if (view.phase === "play" && view.trick && view.trick.cards.length) {
      const t = view.trick;
      trick = el("div", { class: "trick current", id: "trick" }, Array.from({ length: n }, (_, i) => this.spot((t.leader + i) % n, t.cards[i])));
    } else if (view.phase === "pass") {
      trick = el("div", { class: "trick", id: "trick" }, el("span", { class: "trick-note", text: `passing: ${view.passed.length} of ${n} seats have passed` }));
    } else if (view.phase === "choice") {
      trick = el("div", { class: "trick", id: "trick" }, el("span", { class: "trick-note", text: `${this.name(view.shoot_pending)} took every point card and chooses` }));
    } else if (view.phase === "play") {
      const next = view.tricks.length ? `trick ${view.tricks.length + 1}: ${this.name(view.tricks[view.tricks.length - 1].winner)} leads` : "Venus 1 leads";
      trick = el("div", { class: "trick", id: "trick" }, el("span", { class: "trick-note", text: next }));
    }
    return el(
      "div",
      { class: "center" },
      info,
      over ? this.resultStrip(gameText(view.winners, view.resigned, (seat) => this.name(seat)), view.winners) : null,
      el("div", { class: "tricks-row" }, trick, this.lastTrick(view)),
    );
  }

  /** A card played to a trick at ``seat``'s place (an empty slot for one still to play). */
  spot(seat, card, cls = "") {
    return el("div", { class: `trick-play ${cls}` }, card ? planetCard(card, { disabled: true, tabindex: "-1" }) : el("span", { class: "card slot" }), el("span", { class: "label", text: this.name(seat) }));
  }

  /** The hand's last finished trick, kept on view: its cards, the winner's marked, and why
   * it went to the winner (P5) with the points it held (P7), in the terminal client's
   * sentence. */
  lastTrick(view) {
    const last = view.tricks[view.tricks.length - 1];
    if (!last || view.phase === "pass") return null;
    const n = view.hand_sizes.length;
    const reason = trickReason(last, n, (seat) => this.label(seat));
    return el(
      "figure",
      { class: "last-trick", id: "last-trick", "data-number": last.number, "data-winner": last.winner },
      el("figcaption", { text: `trick ${last.number}: ${this.name(last.winner)} won it${last.points ? ` (+${last.points})` : ""}` }),
      el("div", { class: "trick last" }, last.cards.map((card, i) => this.spot((last.leader + i) % n, card, (last.leader + i) % n === last.winner ? "winner" : ""))),
      el("p", { class: "reason", id: "trick-reason", text: sentence(reason, this.names()) }),
    );
  }

  handPanel(view) {
    const me = view.seat;
    const hand = sortCards(view.hand || []);
    const myTurn = this.toMove(view).includes(me);
    const legal = this.legal;
    const panel = el("div", { class: `seat-panel mine${myTurn ? " moving" : ""}`, "data-seat": me });
    const who = el(
      "div",
      { class: "who" },
      el("b", { text: `${this.name(me)} (you)` }),
      me === view.dealer ? el("span", { class: "tag", text: "dealer" }) : null,
      el("span", { class: "meta", text: `${view.points_taken[me]} pts this hand · total ${view.totals[me]}` }),
    );
    const handBox = el("div", { class: "hand sorted", id: "hand" });
    // Each card sits in a slot as wide as the card, which shrinks (the cards then overlap)
    // only when the hand does not fit the panel; a gap marks where a suit begins.
    let lastSuit = null;
    const put = (node, card) => {
      handBox.append(el("span", { class: `hand-slot${lastSuit !== null && card[0] !== lastSuit ? " new-suit" : ""}` }, node));
      lastSuit = card[0];
    };
    const controls = el("div", { class: "controls", id: "controls" });
    let hint = "";
    if (view.phase === "pass" && legal && legal.pick) {
      const targets = legal.to || [];
      hint = `Pass ${legal.pick}: click the cards${new Set(targets).size > 1 ? " in order" : ""}, then confirm.`;
      for (const card of hand) {
        const index = this.chosen.indexOf(card);
        const node = planetCard(card, {
          class: `selectable${index >= 0 ? " chosen" : ""}`,
          "aria-pressed": index >= 0 ? "true" : "false",
          onclick: () => this.toggle(card, legal.pick),
        });
        if (index >= 0) node.append(el("span", { class: "badge", text: `→ ${this.name(targets[index])}` }));
        put(node, card);
      }
      const names = [...new Set(targets)].map((seat) => this.name(seat)).join(" and ");
      controls.append(
        el("span", { class: "pass-info", text: `to ${names}: ${this.chosen.length} of ${legal.pick} chosen` }),
        el("button", { type: "button", class: "primary", id: "pass-confirm", "data-pick": legal.pick, disabled: this.chosen.length !== legal.pick, onclick: () => this.play(this.chosen.join(",")), text: "pass these cards" }),
        el("button", { type: "button", class: "secondary", onclick: () => { this.chosen = []; this.render(); }, text: "clear" }),
      );
    } else if (view.phase === "choice" && myTurn) {
      hint = "You took every point card: choose.";
      for (const card of hand) put(planetCard(card, { disabled: true }), card);
      controls.append(
        el("button", { type: "button", class: "primary", id: "shoot-self", onclick: () => this.play("self"), text: "−23 for me" }),
        el("button", { type: "button", class: "primary", id: "shoot-others", onclick: () => this.play("others"), text: "+23 for every other seat" }),
      );
    } else {
      const playable = new Set(legal && legal.moves ? legal.moves.map((m) => m.move) : []);
      for (const card of hand) put(planetCard(card, { class: playable.has(card) ? "legal" : "", onclick: () => this.play(card) }), card);
      if (Array.isArray(view.winners)) hint = `${gameText(view.winners, view.resigned, (seat) => this.name(seat))}.`;
      else if (view.phase === "pass") hint = view.my_pass ? `You passed ${view.my_pass.join(" ")}; waiting for the others.` : "";
      else if (myTurn) hint = "Your move: click a highlighted card.";
      else if (view.phase === "play") hint = `Waiting for ${andNames(this.toMove(view).map((seat) => this.name(seat)))}.`;
      if (view.received && view.tricks.length === 0) hint += ` Received: ${view.received.map(cardName).join(", ")}.`;
    }
    panel.append(who, handBox, controls, el("p", { class: "hint", text: hint }));
    return panel;
  }

  renderSummary() {
    const s = this.summary;
    const hand = s["hand-over"];
    const over = s["game-over"];
    const n = hand ? hand.totals.length : over ? over.scores.length : 0;
    const parts = [];
    if (hand) {
      const shot = hand.shooter !== null && hand.shooter !== undefined;
      parts.push(
        el("h3", { text: `Hand ${hand.hand_number} is over${shot ? `: ${this.name(hand.shooter)} took every point card and chose ${hand.choice}` : ""}` }),
        el(
          "table",
          { class: "scoring" },
          el("thead", {}, el("tr", {}, ["", "point cards taken", "points", "added", "total"].map((t) => el("th", { text: t })))),
          el(
            "tbody",
            {},
            Array.from({ length: n }, (_, seat) =>
              el(
                "tr",
                {},
                el("th", { text: this.name(seat) }),
                el("td", {}, el("span", { class: "revealed" }, sortCards((this.taken && this.taken[seat]) || []).map((card) => planetCard(card, { disabled: true, tabindex: "-1" })))),
                el("td", { text: hand.points[seat] }),
                el("td", { text: hand.added[seat] }),
                el("td", { class: "total", text: hand.totals[seat] }),
              ),
            ),
          ),
        ),
      );
    }
    if (over) parts.push(el("h3", { class: "match-winner", id: "match-winner", text: gameText(over.winners, over.resigned, (seat) => this.name(seat)) }));
    this.showSummary(el("div", {}, parts));
  }
}
