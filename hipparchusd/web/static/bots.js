// Computer opponents: the daemon's engine seated in a free seat with `bot <game> level=<level>`
// (PROTOCOL.md section 9). The levels offered are the ones `kinds` lists for each kind, weakest
// first, so that a level the daemon gains appears here without a change to the page. The level
// chosen is kept in localStorage, so that the lobby and the tables offer the same one.

import { el } from "./dom.js";

const LEVEL_KEY = "hipparchusd.botLevel";

/** What a level is, for the levels the engine ships; a level not named here shows its name. */
const ABOUT_LEVEL = {
  random: "a random legal move",
  heuristic: "rule-based",
  sampler: "plays out sampled deals",
  ismcts: "search, default budget",
};
/** The level preferred when the stored choice is not offered: the engine's default search. */
const PREFERRED_LEVEL = "ismcts";

/** kind -> its levels, weakest first, as `kinds` gave them. */
const levelsByKind = new Map();

/** Keep each kind's levels from `kinds`' JSON ``about`` ({kind: {levels: [...]}}). */
export function knowLevels(about) {
  for (const [kind, facts] of Object.entries(about || {})) {
    levelsByKind.set(kind, Array.isArray(facts.levels) ? facts.levels : []);
  }
}

/** The levels of ``kind`` (weakest first), or of every known kind in order when none is given. */
export function levelsOf(kind = null) {
  if (kind !== null) return levelsByKind.get(kind) || [];
  const all = [];
  for (const levels of levelsByKind.values()) {
    for (const level of levels) if (!all.includes(level)) all.push(level);
  }
  return all;
}

function chosenLevel(levels) {
  const stored = localStorage.getItem(LEVEL_KEY);
  if (levels.includes(stored)) return stored;
  if (levels.includes(PREFERRED_LEVEL)) return PREFERRED_LEVEL;
  return levels.length ? levels[levels.length - 1] : null;
}

function label(level) {
  return ABOUT_LEVEL[level] ? `${level} (${ABOUT_LEVEL[level]})` : level;
}

/** A select of ``kind``'s levels (every kind's when null), showing and keeping the chosen one;
 * null when the daemon offers no level for it. */
export function levelSelect(id, kind = null) {
  const levels = levelsOf(kind);
  if (!levels.length) return null;
  const level = chosenLevel(levels);
  const select = el(
    "select",
    { id, class: "bot-level", name: "level", "aria-label": "computer opponent's level" },
    levels.map((value) => el("option", { value, text: label(value), selected: value === level })),
  );
  select.addEventListener("change", () => localStorage.setItem(LEVEL_KEY, select.value));
  return select;
}

/** Seat the engine at ``level`` in ``game``'s first free seat: the answer ({game, seat,
 * level}); a refusal rejects with the daemon's ProtocolError. */
export function addBot(client, game, level) {
  return client.request(`bot ${game} level=${level}`);
}
