// Hipparchus in words (docs/rules.md): why a trick went as it did (RULINGS H6, H7), how a
// round was scored (H10, H11), and each event of the game as a line of the table's log, in
// the terminal client's sentences (its twin is ../tui/follow.py: the browser tests hold them
// to the same words). Everything here is derived from public data: a trick's
// plays and the won counts (H8, H13). ``label(seat)`` names a seat: "you" for the page's own,
// else the player's name. No DOM: the browser tests call these functions directly.

import { counted, possessive, sentence, verbS } from "../../words.js";

/** The suits in the per-suit order of every list (``won``, ``scores``): Sun, Moon, Earth. */
export const SUITS = ["S", "M", "E"];
export const SUIT_NAMES = { S: "Sun", M: "Moon", E: "Earth" };

/** "1 Sun", "3 Moons". */
export function suitCount(count, letter) {
  return counted(count, SUIT_NAMES[letter]);
}

/** A play's public form ("2E", or "2E@5") as [count, suit letter]. */
export function parsePlayed(play) {
  const cards = String(play).split("@")[0];
  return [Number(cards.slice(0, -1)), cards.slice(-1).toUpperCase()];
}

/** Each seat's won counts by suit before ``trick`` (``{leader, lead, follow, winner}``), from
 * the counts after it: the winner took both plays (H8); a trick without a winner (H6) took
 * nothing. */
export function wonBefore(trick, wonAfter) {
  const before = [[...wonAfter[0]], [...wonAfter[1]]];
  if (trick.winner === null || trick.winner === undefined) return before;
  for (const play of [trick.lead, trick.follow]) {
    const [count, letter] = parsePlayed(play);
    before[trick.winner][SUITS.indexOf(letter)] -= count;
  }
  return before;
}

/** The won counts after each of a round's finished ``tricks`` (a view's ``tricks``, in
 * order), from none won at the round's start: the winner of each takes both plays (H8). */
export function wonAfterEach(tricks) {
  let won = [[0, 0, 0], [0, 0, 0]];
  return tricks.map((trick) => {
    won = [[...won[0]], [...won[1]]];
    if (trick.winner !== null && trick.winner !== undefined) {
      for (const play of [trick.lead, trick.follow]) {
        const [count, letter] = parsePlayed(play);
        won[trick.winner][SUITS.indexOf(letter)] += count;
      }
    }
    return won;
  });
}

/** Why ``trick`` was won (H7), e.g. "same suit: 3 Moons beat 1 Moon (more cards win): bob
 * takes it" or "different suits: bob had won 2 Earths, you 0 Suns before this trick; the
 * lower count wins, so you take it". ``wonAfter`` is both seats' won counts after the trick
 * (the ``trick`` event's ``won``). A trick with no winner was ended by H6. */
export function trickReason(trick, wonAfter, label) {
  const leader = trick.leader;
  const follower = 1 - leader;
  if (trick.winner === null || trick.winner === undefined) {
    const [count, letter] = parsePlayed(trick.lead);
    return `${label(follower)} had no legal answer to ${suitCount(count, letter)}: the led cards are set aside and the round ends (RULINGS H6)`;
  }
  const winner = trick.winner;
  const [leadCount, leadSuit] = parsePlayed(trick.lead);
  const [followCount, followSuit] = parsePlayed(trick.follow);
  if (leadSuit === followSuit) {
    const more = Math.max(leadCount, followCount);
    const fewer = Math.min(leadCount, followCount);
    return `same suit: ${suitCount(more, leadSuit)} beat ${suitCount(fewer, leadSuit)} (more cards win): ${label(winner)} take${verbS(label(winner))} it`;
  }
  const before = wonBefore(trick, wonAfter);
  const leadHad = before[leader][SUITS.indexOf(leadSuit)];
  const followHad = before[follower][SUITS.indexOf(followSuit)];
  const counts = `${label(leader)} had won ${suitCount(leadHad, leadSuit)}, ${label(follower)} ${suitCount(followHad, followSuit)} before this trick`;
  const rule = leadHad === followHad ? "equal counts go to the follower" : "the lower count wins";
  return `different suits: ${counts}; ${rule}, so ${label(winner)} take${verbS(label(winner))} it`;
}

/** A round's end explained (``data``: a ``round-over`` event's, or a view's ``won`` and
 * ``result``): per suit who won more and what it scores (H10), the totals and the winner (H11's
 * tie-break when it decided). */
export function roundLines(data, label) {
  const result = data.result || {};
  const won = data.won || [[0, 0, 0], [0, 0, 0]];
  const scores = result.scores || [[0, 0, 0], [0, 0, 0]];
  const lines = SUITS.map((letter, index) => {
    const [a, b] = [won[0][index], won[1][index]];
    const name = SUIT_NAMES[letter];
    let how;
    if (a === b) how = "equal: nobody scores";
    else {
      const more = a > b ? 0 : 1;
      const got = scores[more][index];
      how = `${label(more)} won more and score${verbS(label(more))} ${got} (${possessive(label(1 - more))} ${counted(got, name)})`;
    }
    return `${name}: ${label(0)} won ${a}, ${label(1)} won ${b}; ${how}`;
  });
  const totals = result.totals || [0, 0];
  let line = `Totals: ${label(0)} ${totals[0]}, ${label(1)} ${totals[1]}`;
  if (result.winner !== null && result.winner !== undefined) {
    line += `: ${label(result.winner)} win${verbS(label(result.winner))} the round`;
    if (result.by_tie_break) line += " (equal totals: the follower of the last full trick wins, RULINGS H11)";
  }
  lines.push(line);
  return lines;
}

/** A finished trick's line of the log: "Trick 3: bob won it. Same suit: ..." (a player's
 * name that starts the reason keeps its case). */
export function trickLine(number, trick, wonAfter, label) {
  const reason = sentence(trickReason(trick, wonAfter, label), [label(0), label(1)]);
  const won = trick.winner === null || trick.winner === undefined ? "" : `${label(trick.winner)} won it. `;
  return `Trick ${number}: ${won}${reason}`;
}

/** "bob played 2 Moons (11 cards left)". */
function playedLine(seat, play, handSize, label) {
  const [count, letter] = parsePlayed(play);
  return `${label(seat)} played ${suitCount(count, letter)} (${counted(handSize, "card")} left)`;
}

/** The lines of a Hipparchus event (protocol/games/hipparchus.md, "Events") for the log, or
 * null for an event that is not the game's own. ``mine`` is the page's seat, or null. */
export function eventLines(kind, data, label, mine) {
  switch (kind) {
    case "round-started":
      return [`— Round ${data.round_number} —`, `${label(data.leader)} lead${verbS(label(data.leader))}`];
    case "hand":
      return data.seat === mine ? [`Your hand: ${data.hand}`] : [];
    case "turn":
      return [];
    case "played":
      return [playedLine(data.seat, data.play, data.hand_size, label)];
    case "trick":
    case "no-follow":
      return [trickLine(data.number, data.trick, data.won, label)];
    case "round-over":
      return roundLines(data, label);
    case "match-over":
      return data.resigned !== null && data.resigned !== undefined ? [`${label(data.resigned)} resigned`] : [];
    default:
      return null;
  }
}

/** What a view (``state``, ``watch``, ``resume``) tells of its round so far, as the log's
 * lines: the round and its first leader, every finished trick with why it went as it did (the
 * won counts rebuilt trick by trick, H8), the lead in progress, and the round's scoring once
 * it is over. The view holds this round only: earlier rounds and the events of the lobby are
 * not in it. */
export function replayLines(view, label) {
  const tricks = view.tricks || [];
  const first = tricks.length ? tricks[0].leader : view.leader;
  const lines = [`— Round ${view.round_number} —`, `${label(first)} lead${verbS(label(first))}`];
  if (view.seat !== null && view.seat !== undefined && view.hand && view.hand !== "-" && !tricks.length && !view.lead) {
    lines.push(`Your hand: ${view.hand}`);
  }
  const won = wonAfterEach(tricks);
  tricks.forEach((trick, index) => lines.push(trickLine(index + 1, trick, won[index], label)));
  if (view.lead) lines.push(playedLine(view.leader, view.lead, view.hand_sizes[view.leader], label));
  if (view.result) lines.push(...roundLines(view, label));
  if (view.resigned !== null && view.resigned !== undefined) lines.push(`${label(view.resigned)} resigned`);
  return lines;
}
