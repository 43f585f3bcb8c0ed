// planets in words (docs/planets.md): the cards' names and points, why a trick went to its
// winner (RULINGS P5, P7), how a hand was scored (P8, P9), and each event of the game as a
// line of the table's log, in the terminal client's sentences (its twin is ../tui/follow.py:
// the browser tests hold them to the same words). Everything here is public data. ``label(seat)`` names a seat: "you" for the page's own, else the player's name. No
// DOM: the browser tests call these functions directly.

import { counted, verbS } from "../../words.js";

export const PLANET_NAMES = { E: "Earth", J: "Jupiter", M: "Mars", N: "Neptune", S: "Saturn", V: "Venus" };
export const RANK_NAMES = { M: "Moon", S: "Sun", G: "Galaxy" };
/** Suits and ranks in the order a hand is sorted (docs/planets.md, "Notation"). */
export const SUIT_ORDER = "EJMNSV";
export const RANK_ORDER = "1234567MSG";

/** Where each seat passes to, in words, by the hand's pass name. */
const PASS_WORDS = {
  left: "to the left",
  right: "to the right",
  across: "across",
  split: "split between the others",
  left2: "two seats left",
  right2: "two seats right",
};

/** "VS" is "Venus Sun"; "J4" is "Jupiter 4". */
export function cardName(card) {
  return `${PLANET_NAMES[card[0]]} ${RANK_NAMES[card[1]] || card[1]}`;
}

/** The points a card is worth (P7): each Jupiter 1 to Sun 1, Mars 7 and Neptune 7 seven; a
 * Jupiter Galaxy nothing. */
export function cardPoints(card) {
  if (card === "M7" || card === "N7") return 7;
  return card[0] === "J" && card[1] !== "G" ? 1 : 0;
}

/** ``cards`` sorted as a hand is shown: by suit (E J M N S V), then rank (1-7, Moon, Sun,
 * Galaxy). */
export function sortCards(cards) {
  return [...cards].sort((a, b) => SUIT_ORDER.indexOf(a[0]) - SUIT_ORDER.indexOf(b[0]) || RANK_ORDER.indexOf(a[1]) - RANK_ORDER.indexOf(b[1]));
}

/** This hand's pass in words: "pass 3 cards left", or "no pass". */
export function passWords(name, count) {
  return count ? `pass ${counted(count, "card")} ${name}` : "no pass";
}

/** The pass's direction for a heading: "to the left"; "" for none. */
export function passDirection(name) {
  return PASS_WORDS[name] || (name === "none" ? "" : name);
}

/** Why ``trick`` (a ``trick`` event's data, or a view's finished trick: ``leader``,
 * ``cards`` in play order, ``winner``, ``points``) went to its winner at a table of
 * ``players``: the highest card of the led suit (P5), and the points it held (P7). */
export function trickReason(trick, players, label) {
  const cards = trick.cards.map(String);
  const winner = trick.winner;
  const led = cards[0][0];
  const best = cards[(((winner - trick.leader) % players) + players) % players];
  let text = `${label(winner)} take${verbS(label(winner))} it with ${best}, the highest ${PLANET_NAMES[led]} (the led suit)`;
  const points = trick.points || 0;
  const scoring = cards.filter((card) => cardPoints(card));
  text += points ? `: ${counted(points, "point")} (${scoring.join(", ")})` : ": no points";
  return text;
}

/** A ``hand-over`` event explained: the points each seat took (P7), the shooting choice if
 * any (P8, P13) and the totals (P9, P14). */
export function handOverLines(data, label) {
  const points = data.points || [];
  const added = data.added || [];
  const totals = data.totals || [];
  const lines = points.map((taken, seat) => `${label(seat)}: took ${counted(taken, "point")}, ${added[seat] >= 0 ? "+" : ""}${added[seat]}, total ${totals[seat]}`);
  if (data.shooter !== null && data.shooter !== undefined) {
    const what = data.choice === "self" ? "23 off their own total" : "23 added to every opponent";
    lines.push(`${label(data.shooter)} took every point card and chose ${data.choice}: ${what}`);
  }
  return lines;
}

/** "Jupiter is broken": the line after the trick that first holds a Jupiter card (P11). */
export const JUPITER_BROKEN = "Jupiter is broken: it may be led from now on (P11)";

/** The lines of a planets event (protocol/games/planets.md, "Events") for the log, or null
 * for an event that is not the game's own. ``mine`` is the page's seat (or null), ``players``
 * the table's size, ``wasBroken`` whether Jupiter was broken before this event. */
export function eventLines(kind, data, label, { mine, players, wasBroken }) {
  switch (kind) {
    case "hand-started":
      return [`— Hand ${data.hand_number} —`, `${label(data.dealer)} dealt; ${passWords(data.pass_name, data.pass_count)}`];
    case "hand":
      return data.seat === mine ? [`Your hand: ${data.hand.join(" ")}`] : [];
    case "passed":
      return [`${label(data.seat)} passed`];
    case "received":
      return data.seat === mine ? [`You received ${data.cards.map((card, i) => `${card} from ${label(data.from_seats[i])}`).join(", ")}`] : [];
    case "played":
      return [`${label(data.seat)} played ${data.card}`];
    case "trick": {
      const lines = [`Trick ${data.number}: ${trickReason(data, players, label)}`];
      if (data.jupiter_broken && !wasBroken) lines.push(JUPITER_BROKEN);
      return lines;
    }
    case "shoot-pending":
      return [`${label(data.seat)} took every point card and must choose (P8)`];
    case "hand-over":
      return handOverLines(data, label);
    default:
      return null;
  }
}

/** What a view (``state``, ``watch``, ``resume``) tells of its hand so far, as the log's
 * lines: the hand, its dealer and pass, who has passed (in seat order: the view does not keep
 * the order), the cards this seat received, every finished trick with why it went as it did,
 * when Jupiter broke, the trick in progress and a pending shooting choice. The view holds this
 * hand only: earlier hands, the senders of the cards received and the lobby's events are not
 * in it. */
export function replayLines(view, label) {
  const players = view.hand_sizes.length;
  const lines = [`— Hand ${view.hand_number} —`, `${label(view.dealer)} dealt; ${passWords(view.pass_name, view.pass_count)}`];
  if (view.pass_count) {
    if (view.phase === "pass") for (const seat of view.passed) lines.push(`${label(seat)} passed`);
    else lines.push("every seat passed");
  }
  if (view.received) lines.push(`You received ${view.received.join(", ")}`);
  let broken = false;
  for (const trick of view.tricks) {
    lines.push(`Trick ${trick.number}: ${trickReason(trick, players, label)}`);
    if (!broken && trick.cards.some((card) => card[0] === "J")) {
      broken = true;
      lines.push(JUPITER_BROKEN);
    }
  }
  if (view.trick) view.trick.cards.forEach((card, i) => lines.push(`${label((view.trick.leader + i) % players)} played ${card}`));
  if (view.shoot_pending !== null && view.shoot_pending !== undefined) lines.push(`${label(view.shoot_pending)} took every point card and must choose (P8)`);
  return lines;
}
