// The Hipparchus table: the hand in its real order (H1) with its clumps grouped (H2, H3), the
// legal plays highlighted and played by a click (a clump of 4 or more asks how many cards),
// the trick in progress and the last one kept on view with its winner and why it won (H7),
// each seat's won cards by suit (H8), the round wins, the round's end (both hands revealed and
// the scoring, H10, H11) and the match's result; the log says each event in words (words.js).
// The daemon serves this folder at games/hipparchus/ (hipparchusd/web/site.py), so the page's
// shared modules are at ../../.

import { cardBack, el, fill } from "../../dom.js";
import { Table } from "../../table.js";
import { sentence } from "../../words.js";
import { SUIT_ICONS, SUIT_NAMES, SUITS, hipparchusCard, icon } from "./cards.js";
import { eventLines, replayLines, trickReason, wonAfterEach } from "./words.js";

/** The clumps of a hand: [{suit, start (1-based), size}], runs of one suit (H2). */
export function clumps(hand) {
  const out = [];
  for (let i = 0; i < hand.length; i++) {
    const last = out[out.length - 1];
    if (last && last.suit === hand[i]) last.size += 1;
    else out.push({ suit: hand[i], start: i + 1, size: 1 });
  }
  return out;
}

/** A play such as "2S" drawn as that many cards of its suit. */
function playCards(play, cls = "") {
  if (!play) return el("span", { class: "play empty" });
  const count = Number(play.slice(0, -1));
  const suit = play.slice(-1);
  return el(
    "span",
    { class: `play ${cls}`, title: `${count} ${SUIT_NAMES[suit]}`, "data-play": play },
    Array.from({ length: count }, () => hipparchusCard(suit, { tabindex: "-1", disabled: true })),
  );
}

function wonCounts(won, setAside) {
  return el(
    "span",
    { class: "won" },
    SUITS.map((suit, i) =>
      el("span", { class: `won-suit suit-${suit}`, title: `${SUIT_NAMES[suit]} won` }, icon(SUIT_ICONS[suit], "mini"), el("b", { text: won[i] })),
    ),
    setAside && setAside.some((n) => n) ? el("span", { class: "set-aside", text: `set aside ${setAside.join("/")}` }) : null,
  );
}

/** The match's result in a line, from a ``match-over`` event's data or a finished match's
 * view (``winner``, ``round_wins``, ``resigned``), seats named by ``name``. */
function matchText(data, name) {
  if (data.resigned !== null && data.resigned !== undefined) return `${name(data.resigned)} resigned: ${name(data.winner)} wins the match`;
  return `${name(data.winner)} wins the match ${data.round_wins[data.winner]}–${data.round_wins[1 - data.winner]}`;
}

export default class HipparchusTable extends Table {
  remember(event) {
    if (event.kind === "round-over" || event.kind === "match-over") {
      this.summarize(event);
    }
  }

  gameEventLines(event) {
    return eventLines(event.kind, event.data || {}, (seat) => this.label(seat), this.ownSeat);
  }

  replayLines(view) {
    return replayLines(view, (seat) => this.label(seat));
  }

  renderBoard(view) {
    const me = view.seat;
    // A seat sees the other seat above its own hand; a spectator sees seat 1 above seat 0.
    fill(this.board,
      this.seatPanel(me === null ? 1 : 1 - me, view),
      this.trickPanel(view),
      me === null ? this.seatPanel(0, view) : this.handPanel(view),
    );
  }

  seatPanel(seat, view) {
    const size = view.hand_sizes[seat];
    const moving = this.toMove(view).includes(seat);
    return el(
      "div",
      { class: `seat-panel opponent${moving ? " moving" : ""}`, "data-seat": seat },
      el("div", { class: "who" }, el("b", { text: this.name(seat) }), el("span", { class: "meta", text: `seat ${seat} · ${size} cards · rounds won ${view.round_wins[seat]}` })),
      el("div", { class: "backs" }, Array.from({ length: size }, () => cardBack("small"))),
      wonCounts(view.won[seat]),
    );
  }

  trickPanel(view) {
    const tricks = view.tricks || [];
    const over = view.winner !== null && view.winner !== undefined;
    let current = null;
    // A match that ended (a resignation) with a lead unanswered shows no trick in progress.
    if (view.lead && !over) {
      current = el(
        "div",
        { class: "trick current", id: "trick" },
        el("div", { class: "trick-play" }, el("span", { class: "label", text: `${this.name(view.leader)} led` }), playCards(view.lead)),
        el("div", { class: "trick-play waiting" }, el("span", { class: "label", text: `${this.name(1 - view.leader)}…` }), el("span", { class: "play empty" })),
      );
    } else if (!over && !view.result) {
      current = el("div", { class: "trick", id: "trick" }, el("span", { class: "trick-note", text: `round ${view.round_number}, trick ${tricks.length + 1}: ${this.name(view.leader)} leads` }));
    }
    return el(
      "div",
      { class: "center" },
      el("div", { class: "round-info" }, el("span", { text: `round ${view.round_number}` }), el("span", { text: `rounds won ${this.name(0)} ${view.round_wins[0]} – ${view.round_wins[1]} ${this.name(1)}` }), el("span", { text: `tricks ${tricks.length}` })),
      over ? this.resultStrip(matchText(view, (seat) => this.name(seat)), [view.winner]) : null,
      el("div", { class: "tricks-row" }, current, this.lastTrick(tricks)),
    );
  }

  /** The round's last finished trick, kept on view: both plays, the winner's marked, and why
   * it won (H7, or H6 when the follower had no answer), in the terminal client's sentence. */
  lastTrick(tricks) {
    if (!tricks.length) return null;
    const last = tricks[tricks.length - 1];
    const number = tricks.length;
    const follower = 1 - last.leader;
    const hasWinner = last.winner !== null && last.winner !== undefined;
    const reason = trickReason(last, wonAfterEach(tricks)[number - 1], (seat) => this.label(seat));
    return el(
      "figure",
      { class: "last-trick", id: "last-trick", "data-number": number, "data-winner": hasWinner ? last.winner : "" },
      el("figcaption", { text: hasWinner ? `trick ${number}: ${this.name(last.winner)} won it` : `trick ${number}: set aside` }),
      el(
        "div",
        { class: "trick last" },
        el("div", { class: `trick-play${last.winner === last.leader ? " winner" : ""}` }, el("span", { class: "label", text: `${this.name(last.leader)} led` }), playCards(last.lead)),
        el("div", { class: `trick-play${last.winner === follower ? " winner" : ""}` }, el("span", { class: "label", text: last.follow ? `${this.name(follower)} followed` : `${this.name(follower)}: no answer` }), playCards(last.follow)),
      ),
      el("p", { class: "reason", id: "trick-reason", text: sentence(reason, this.names()) }),
    );
  }

  handPanel(view) {
    const me = view.seat;
    const hand = view.hand && view.hand !== "-" ? view.hand : "";
    const moves = this.legal && this.legal.moves ? this.legal.moves : [];
    const byClump = new Map();
    for (const move of moves) {
      const key = move.clump[0];
      if (!byClump.has(key)) byClump.set(key, []);
      byClump.get(key).push(move);
    }
    const myTurn = this.toMove(view).includes(me);
    const groups = clumps(hand).map((clump) => {
      const legal = byClump.get(clump.start) || [];
      const group = el("div", {
        class: `clump${legal.length ? " legal" : ""}${clump.size >= 4 ? " big" : ""}`,
        "data-start": clump.start,
        "data-size": clump.size,
        "data-suit": clump.suit,
      });
      for (let i = 0; i < clump.size; i++) {
        const position = clump.start + i;
        group.append(
          hipparchusCard(clump.suit, {
            "data-position": position,
            "aria-label": `${SUIT_NAMES[clump.suit]}, card ${position}${legal.length ? ", playable" : ""}`,
            onclick: () => this.clickClump(clump, legal, group),
          }),
        );
      }
      return group;
    });
    return el(
      "div",
      { class: `seat-panel mine${myTurn ? " moving" : ""}`, "data-seat": me },
      el("div", { class: "who" }, el("b", { text: `${this.name(me)} (you)` }), el("span", { class: "meta", text: `${view.hand_sizes[me]} cards · rounds won ${view.round_wins[me]}` }), wonCounts(view.won[me], view.set_aside)),
      el("div", { class: "hand", id: "hand" }, groups.length ? groups : el("span", { class: "empty", text: "no cards" })),
      el("p", { class: "hint", text: this.handHint(view, myTurn) }),
    );
  }

  /** What the seat's hand panel says under the hand: its move, the match's result once it
   * is over, or that the other seat is to play. */
  handHint(view, myTurn) {
    if (view.winner !== null && view.winner !== undefined) return `${matchText(view, (seat) => this.name(seat))}.`;
    if (myTurn) return "Your move: click a highlighted clump.";
    if (view.result) return "The round is over.";
    return `Waiting for ${this.name(1 - view.seat)}.`;
  }

  clickClump(clump, legal, group) {
    for (const old of this.board.querySelectorAll(".chooser")) old.remove();
    if (legal.length === 1) return this.play(legal[0].move);
    if (legal.length > 1) {
      const chooser = el(
        "div",
        { class: "chooser", role: "group", "aria-label": "how many cards" },
        el("span", { text: "play" }),
        legal
          .sort((a, b) => a.count - b.count)
          .map((move) => el("button", { type: "button", class: "primary choose", "data-count": move.count, onclick: () => this.play(move.move), text: `${move.count}` })),
        el("button", { type: "button", class: "secondary", onclick: () => chooser.remove(), text: "×" }),
      );
      group.append(chooser);
      return undefined;
    }
    // Not a legal play (or not this seat's move): send it anyway, so that the daemon says why.
    const count = clump.size <= 3 ? clump.size : 1;
    return this.play(`${count}${clump.suit}@${clump.start}`);
  }

  renderSummary() {
    const s = this.summary;
    if (!s) return;
    const round = s["round-over"];
    const match = s["match-over"];
    const parts = [];
    if (round) {
      const revealed = round.revealed || { hands: ["-", "-"], face_down: "-" };
      const cards = (text) => (text && text !== "-" ? [...text].map((suit) => hipparchusCard(suit, { disabled: true, tabindex: "-1" })) : [el("span", { class: "empty", text: "none" })]);
      parts.push(
        el("h3", { text: `Round ${round.round_number}: ${this.name(round.result.winner)} wins${round.result.by_tie_break ? " (by the tie-break)" : ""}` }),
        el(
          "table",
          { class: "scoring" },
          el("thead", {}, el("tr", {}, el("th", { text: "" }), el("th", { text: "cards left" }), ...SUITS.map((suit) => el("th", {}, icon(SUIT_ICONS[suit], "mini"), " won / pts")), el("th", { text: "total" }))),
          el(
            "tbody",
            {},
            [0, 1].map((seat) =>
              el(
                "tr",
                { class: round.result.winner === seat ? "winner" : "" },
                el("th", { text: this.name(seat) }),
                el("td", {}, el("span", { class: "revealed" }, cards(revealed.hands[seat]))),
                ...SUITS.map((_, i) => el("td", { text: `${round.won[seat][i]} / ${round.result.scores[seat][i]}` })),
                el("td", { class: "total", text: round.result.totals[seat] }),
              ),
            ),
          ),
        ),
        el("p", { class: "face-down" }, "face down: ", cards(revealed.face_down)),
        el("p", { text: `rounds won: ${this.name(0)} ${round.round_wins[0]} – ${round.round_wins[1]} ${this.name(1)}` }),
      );
    }
    if (match) parts.push(el("h3", { class: "match-winner", id: "match-winner", text: matchText(match, (seat) => this.name(seat)) }));
    this.showSummary(el("div", {}, parts));
  }
}
