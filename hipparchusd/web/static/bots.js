// Computer opponents: the daemon's engine seated in a free seat with `bot <game> level=<level>`
// (PROTOCOL.md section 9). The level chosen is kept in localStorage, so that the lobby and the
// tables offer the same one; `ismcts` alone is the search at the daemon's default budget.

import { el } from "./dom.js";

const LEVEL_KEY = "hipparchusd.botLevel";

/** The levels offered: [value, label]. */
export const LEVELS = [
  ["random", "random (a random legal move)"],
  ["heuristic", "heuristic (rule-based)"],
  ["ismcts", "ismcts (search, the daemon's default budget)"],
];
const DEFAULT_LEVEL = "ismcts";

export function botLevel() {
  const stored = localStorage.getItem(LEVEL_KEY);
  return LEVELS.some(([value]) => value === stored) ? stored : DEFAULT_LEVEL;
}

function setBotLevel(level) {
  localStorage.setItem(LEVEL_KEY, level);
}

/** A select of the levels, showing and keeping the chosen one. */
export function levelSelect(id) {
  const level = botLevel();
  const select = el(
    "select",
    { id, class: "bot-level", name: "level", "aria-label": "computer opponent's level" },
    LEVELS.map(([value, label]) => el("option", { value, text: label, selected: value === level })),
  );
  select.addEventListener("change", () => setBotLevel(select.value));
  return select;
}

/** Seat the engine at the chosen level in ``game``'s first free seat: the answer
 * ({game, seat, level}); a refusal rejects with the daemon's ProtocolError. */
export function addBot(client, game, level = botLevel()) {
  return client.request(`bot ${game} level=${level}`);
}
