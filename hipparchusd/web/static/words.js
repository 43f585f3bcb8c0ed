// Words for people, shared by every game's table: a count with its noun in the right number,
// and the few words of a sentence that agree with how a seat is named: "you" for the page's
// own seat, else the player's name. They are the terminal client's rules (hipparchusd/wording.py
// and hipparchusd/play/phrases.py), so that the page and the terminal say a thing the same way.
// No DOM here: each game's words module (games/<kind>/page/words.js) builds its sentences from
// these, and the browser tests call them directly.

/** ``count`` and ``noun``, singular for exactly 1 (and -1), else ``plural`` (``noun`` + "s"
 * unless given): "1 card", "0 cards", "3 passes". */
export function counted(count, noun, plural = null) {
  const word = Math.abs(count) === 1 ? noun : plural ?? `${noun}s`;
  return `${count} ${word}`;
}

/** The ending of a present-tense verb after ``name``: "you take", "bob takes". */
export function verbS(name) {
  return name === "you" ? "" : "s";
}

/** "your" for "you", else "bob's". */
export function possessive(name) {
  return name === "you" ? "your" : `${name}'s`;
}

/** ``text`` with its first letter in upper case, unless it starts with one of ``names`` (the
 * players' names, which keep their case: "bot-ismcts takes it", never "Bot-ismcts"); "you"
 * is a word like any other ("You take it"). */
export function sentence(text, names = []) {
  if (names.some((name) => name && name !== "you" && text.startsWith(name))) return text;
  return text.slice(0, 1).toUpperCase() + text.slice(1);
}

/** Seat names joined for a sentence: "alice", "alice and bob". */
export function andNames(names) {
  return names.join(" and ");
}

/** The lines of the events every game sends (PROTOCOL.md section 4, "Events of every
 * game"), as the terminal client writes them, or null for another kind of event.
 * ``label(seat)`` names a seat ("you" for the page's own); ``mine``, the page's seat or
 * null. ``to-move`` has no line: the table shows whose move it is. */
export function lobbyEventLines(kind, data, label, mine) {
  switch (kind) {
    case "joined":
      return [`${label(data.seat)} joined (seat ${data.seat})`];
    case "left":
      return [`seat ${data.seat} left: the seat is free again`];
    case "disconnected":
      return [`${label(data.seat)} disconnected (the seat is kept)`];
    case "resumed":
      return [`${label(data.seat)} is back`];
    case "absent":
      return [`${label(data.seat)} has been away for the whole absence grace`];
    case "to-move":
      return [];
    case "game-over":
      return [gameOverLine(data, label, mine)];
    default:
      return null;
  }
}

/** The ``game-over`` event in a line: "Game over: bob wins (alice resigned). Scores: alice 0,
 * bob 1"; an abandoned game's, an aborted one's and one the server's operator ended have no
 * winners; a flag or a claim says so instead of the resignation it is (PROTOCOL.md section 10). */
export function gameOverLine(data, label, mine) {
  if (data.abandoned) return "Game over: abandoned, nobody won";
  if (data.operator) return "Game over: ended by the server's operator, nobody won";
  if (data.aborted) return "Game over: aborted, no result (a first decision did not come in time)";
  const winners = data.winners || [];
  const verb = (winners.length === 1 && winners[0] === mine) || winners.length > 1 ? "win" : "wins";
  let line = `Game over: ${andNames(winners.map(label))} ${verb}`;
  const resigned = data.resigned !== null && data.resigned !== undefined;
  if (data.timeout !== null && data.timeout !== undefined) line += ` (${label(data.timeout)} ran out of time)`;
  else if (data.claimed && resigned) line += ` (claimed: ${label(data.resigned)} was away)`;
  else if (resigned) line += ` (${label(data.resigned)} resigned)`;
  return `${line}. Scores: ${(data.scores || []).map((score, seat) => `${label(seat)} ${score}`).join(", ")}`;
}
