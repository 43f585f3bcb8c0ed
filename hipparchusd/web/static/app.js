// The page: one WebSocket to the daemon (client.js), a lobby, and a table per game kind.
// Where the page is lives in the URL's hash (#g3: the table of game g3); a seat's token lives
// in localStorage only (never in the URL), so a reload or a new connection takes it back
// with `resume`.
//
// The page knows no game kind: the daemon's pages.json (hipparchusd/web/site.py, from the
// registry) names each kind's page module and styles, which are loaded when a table of that
// kind is first shown; a kind without a page module is played on the generic table.

import { Client, ProtocolError } from "./client.js";
import { addBot, knowLevels, levelSelect, levelsOf } from "./bots.js";
import { el } from "./dom.js";
import { GenericTable } from "./generic.js";

const SEATS_KEY = "hipparchusd.seats";
const NAME_KEY = "hipparchusd.name";

/** Seats this browser holds: game id -> {token, seat, kind}. */
export const seats = {
  all() {
    try {
      return JSON.parse(localStorage.getItem(SEATS_KEY) || "{}");
    } catch {
      return {};
    }
  },
  get(game) {
    return this.all()[game] || null;
  },
  put(game, value) {
    const all = this.all();
    all[game] = value;
    localStorage.setItem(SEATS_KEY, JSON.stringify(all));
  },
  drop(game) {
    const all = this.all();
    delete all[game];
    localStorage.setItem(SEATS_KEY, JSON.stringify(all));
  },
};

const wsUrl = `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/ws`;
const client = new Client(wsUrl);
window.hipparchusClient = client; // for the browser tests: the seq gap count

const main = document.getElementById("main");
const statusNode = document.getElementById("status");
const nameInput = document.getElementById("name");
let current = null; // the table shown, or null for the lobby
let lobbyTimer = null;
let kinds = null; // {kinds, about, options} from `kinds` and `help new`
const following = new Set(); // games this connection holds a seat in or watches
// The events of the game whose table is loading, that came after its snapshot: the table gets
// them once it is shown, so that its log misses none.
let loading = null; // {game, events} or null

nameInput.value = localStorage.getItem(NAME_KEY) || "";
nameInput.addEventListener("change", () => localStorage.setItem(NAME_KEY, nameInput.value.trim()));

client.statusListeners.add((status) => {
  statusNode.textContent = status;
  statusNode.className = `status status-${status}`;
});
client.listeners.add((event) => {
  if (current && event.game === current.game) current.onEvent(event);
  else if (loading && event.game === loading.game) loading.events.push(event);
  else if (event.game === "server" && event.kind === "shutdown") toast(`the daemon is shutting down (${event.data.grace} s)`);
});
client.onReconnect = async (again) => {
  following.clear();
  if (again) toast("reconnected");
  await route();
};

export function toast(text, kind = "info") {
  const box = document.getElementById("toasts");
  const node = el("div", { class: `toast toast-${kind}`, role: "status", text });
  box.append(node);
  setTimeout(() => node.remove(), 5000);
}

function playerName() {
  const name = nameInput.value.trim().replace(/[^A-Za-z0-9_.-]/g, "").slice(0, 32);
  return name || null;
}

async function route() {
  clearInterval(lobbyTimer);
  const game = location.hash.replace(/^#\/?/, "");
  if (current) {
    current.leave();
    // A spectator leaving the table stops following the game; a seat keeps following it.
    if (!current.mine && !seats.get(current.game)) {
      following.delete(current.game);
      client.request(`unwatch ${current.game}`).catch(() => {});
    }
  }
  current = null;
  if (!game) return showLobby();
  return showTable(game);
}

// -- the table ---------------------------------------------------------------------------------

async function showTable(game) {
  main.replaceChildren(el("p", { class: "loading", text: `opening ${game}…` }));
  const mine = seats.get(game);
  let snapshot;
  try {
    if (following.has(game)) {
      snapshot = await client.request(`state ${game}`);
    } else if (mine) {
      snapshot = await client.request(`resume ${mine.token}`);
    } else {
      snapshot = await client.request(`watch ${game}`);
    }
  } catch (error) {
    if (mine && error.code === "bad-token") seats.drop(game);
    main.replaceChildren(
      el("p", { class: "error", text: `${game}: ${error.message}` }),
      el("p", {}, el("a", { href: "#", text: "back to the lobby" })),
    );
    return;
  }
  following.add(game);
  client.snapshot(game, snapshot.seq);
  // Events are handled in the order they came, each after the answer before it: from here on
  // they are the game's events after the snapshot.
  const waiting = (loading = { game, events: [] });
  let Table;
  try {
    [Table] = await Promise.all([tableOf(snapshot.kind), loadKinds()]);
  } catch (error) {
    main.replaceChildren(el("p", { class: "error", text: `cannot load the table of ${snapshot.kind}: ${error.message}` }));
    return;
  } finally {
    if (loading === waiting) loading = null;
  }
  // The hash may have moved on while the module loaded.
  if (location.hash.replace(/^#\/?/, "") !== game) return;
  current = new Table({ client, game, kind: snapshot.kind, root: main, toast, seatHint: mine ? mine.seat : null });
  window.hipparchusTable = current; // for the browser tests
  current.show(snapshot);
  for (const event of waiting.events) current.onEvent(event);
  await current.refresh();
}

/** The page parts of each kind that has its own: {kind: {module, styles}}, paths relative
 * to the page (pages.json); fetched once. */
let pageIndex = null;
const tables = new Map(); // kind -> its table class, once loaded

async function pagesOf() {
  if (!pageIndex) {
    pageIndex = (async () => {
      const answer = await fetch(new URL("pages.json", document.baseURI), { cache: "no-cache" });
      if (!answer.ok) throw new Error(`pages.json: HTTP ${answer.status}`);
      return (await answer.json()).pages;
    })();
    pageIndex.catch(() => {
      pageIndex = null; // try again next time
    });
  }
  return pageIndex;
}

/** A style sheet of the page's own origin, linked once; resolves once it applies. */
function linkStyle(path) {
  const href = new URL(path, document.baseURI).href;
  const found = [...document.querySelectorAll("link[rel=stylesheet]")].find((link) => link.href === href);
  if (found) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const link = el("link", { rel: "stylesheet", href });
    link.addEventListener("load", () => resolve());
    link.addEventListener("error", () => reject(new Error(`cannot load ${path}`)));
    document.head.append(link);
  });
}

/** The table class for games of ``kind``: its page module's default export, its styles
 * applied, or the generic table for a kind without a page module. */
async function tableOf(kind) {
  if (tables.has(kind)) return tables.get(kind);
  const parts = (await pagesOf())[kind];
  let Table = GenericTable;
  if (parts) {
    const [module] = await Promise.all([import(new URL(parts.module, document.baseURI).href), ...parts.styles.map(linkStyle)]);
    Table = module.default;
  }
  tables.set(kind, Table);
  return Table;
}

// -- the lobby ---------------------------------------------------------------------------------

async function loadKinds() {
  if (kinds) return kinds;
  const [list, help] = await Promise.all([client.request("kinds"), client.request("help new")]);
  kinds = { kinds: list.kinds, about: list.about || {}, options: help.options || {} };
  knowLevels(kinds.about);
  return kinds;
}

async function showLobby() {
  const gamesBox = el("tbody", { id: "games" });
  const form = el("form", { class: "create", id: "create" });
  try {
    await loadKinds(); // the levels the computer-opponent control offers come from `kinds`
  } catch (error) {
    if (!(error instanceof ProtocolError && error.code === "disconnected")) toast(error.message, "error");
    return;
  }
  if (location.hash.replace(/^#\/?/, "") !== "") return; // a table was opened meanwhile
  const levels = levelSelect("lobby-bot-level");
  main.replaceChildren(
    el(
      "section",
      { class: "lobby" },
      el("div", { class: "panel" }, el("h2", { text: "Games" }),
        levels ? el("label", { class: "bot-choice", for: "lobby-bot-level" }, "computer opponents: ", levels) : null,
        el("table", { class: "games" },
          el("thead", {}, el("tr", {}, ...["game", "kind", "status", "players", ""].map((t) => el("th", { text: t })))),
          gamesBox)),
      el("div", { class: "panel" }, el("h2", { text: "New game" }), form),
    ),
  );
  try {
    await Promise.all([fillCreate(form), listGames(gamesBox)]);
  } catch (error) {
    if (!(error instanceof ProtocolError && error.code === "disconnected")) toast(error.message, "error");
  }
  lobbyTimer = setInterval(() => listGames(gamesBox).catch(() => {}), 3000);
}

async function listGames(box) {
  const { games } = await client.request("games");
  const mine = seats.all();
  const rows = games.map((g) => {
    const free = g.players.some((p) => p === null);
    const held = mine[g.game];
    const players = g.players.map((p, i) => el("span", { class: p === null ? "free" : "name", text: p === null ? `seat ${i} free` : p }));
    return el(
      "tr",
      { "data-game": g.game },
      el("td", {}, el("a", { href: `#${g.game}`, text: g.game })),
      el("td", {}, g.kind, g.clock ? el("span", { class: "tag clock-tag", title: "time control", text: g.clock }) : null),
      el("td", { class: `st-${g.status}`, text: g.status }),
      el("td", { class: "players" }, players),
      el(
        "td",
        { class: "actions" },
        held ? el("a", { class: "button", href: `#${g.game}`, text: "take my seat" }) : null,
        !held && free ? el("button", { type: "button", class: "join", onclick: () => join(g.game), text: "join" }) : null,
        free && g.status === "waiting" && levelsOf(g.kind).length
          ? el("button", { type: "button", class: "secondary add-bot", title: "seat the daemon's engine in a free seat (level: above)", onclick: () => lobbyBot(g.game, box), text: "add computer" })
          : null,
        el("a", { class: "button secondary watch", href: `#${g.game}`, text: held ? "open" : "watch" }),
      ),
    );
  });
  box.replaceChildren(...(rows.length ? rows : [el("tr", {}, el("td", { colspan: 5, class: "empty", text: "no games yet: create one" }))]));
}

async function lobbyBot(game, box) {
  const level = document.getElementById("lobby-bot-level")?.value;
  try {
    const answer = await addBot(client, game, level);
    toast(`${game}: the engine (${answer.level}) took seat ${answer.seat}`);
  } catch (error) {
    toast(`${game}: ${error.message}`, "error");
  }
  await listGames(box).catch(() => {});
}

async function join(game) {
  const name = playerName();
  try {
    const answer = await client.request(`join ${game}${name ? ` name=${name}` : ""}`);
    seats.put(game, { token: answer.token, seat: answer.seat });
    following.add(game);
    location.hash = `#${game}`;
  } catch (error) {
    toast(`${game}: ${error.message}`, "error");
  }
}

async function fillCreate(form) {
  const { kinds: names, about, options } = await loadKinds();
  const kindSelect = el("select", { name: "kind", id: "kind" }, names.map((k) => el("option", { value: k, text: k })));
  const fields = el("div", { class: "options" });
  const summary = el("p", { class: "summary" });
  const sit = el("input", { type: "checkbox", name: "sit", id: "sit", checked: true });
  const showOptions = () => {
    const kind = kindSelect.value;
    const info = about[kind] || {};
    summary.textContent = `${info.summary || ""}${info.seats ? ` (${info.seats} seats)` : ""}`;
    fields.replaceChildren(...(options[kind] || []).map(optionField));
  };
  kindSelect.addEventListener("change", showOptions);
  showOptions();
  form.replaceChildren(
    el("label", { for: "kind", class: "option" }, el("span", { class: "key", text: "kind" }), kindSelect),
    summary,
    fields,
    el("label", { class: "sit", for: "sit" }, sit, " take a seat"),
    el("button", { type: "submit", class: "primary", text: "create" }),
  );
  form.onsubmit = async (event) => {
    event.preventDefault();
    const words = [`new ${kindSelect.value}`];
    for (const input of fields.querySelectorAll("input, select")) {
      const value = input.type === "checkbox" ? (input.checked ? input.value : "") : input.value.trim();
      if (value) words.push(`${input.name}=${value}`);
    }
    try {
      const { game } = await client.request(words.join(" "));
      if (sit.checked) await join(game);
      else location.hash = `#${game}`;
    } catch (error) {
      toast(error.message, "error");
    }
  };
}

/** The form's field for one of a kind's ``new`` options (``help new``: ``key``, ``values``,
 * ``summary``, ``default``), chosen by the shape of its values, the same for every kind:
 * - several words (``0|1|random``): a choice of them; when the default is one of them it is
 *   marked so and chosen at first, else a first entry leaves the option out ("default
 *   (what it is)", or "—" when there is none);
 * - one word (``all``, ``reset``): a checkbox that gives the option that value;
 * - anything else (``<integer>``, a deal): free text, the values as its placeholder.
 * An empty choice, an unchecked box and blank text leave the option out of ``new``. */
function optionField(o) {
  const id = `opt-${o.key}`;
  const word = /^[\w.-]+$/;
  const choices = o.values.split("|");
  let input;
  if (choices.length > 1 && choices.every((c) => word.test(c))) {
    const listed = choices.includes(o.default);
    input = el(
      "select",
      { id, name: o.key },
      listed ? null : el("option", { value: "", text: o.default ? `default (${o.default})` : "—" }),
      choices.map((c) => el("option", { value: c === o.default ? "" : c, text: c === o.default ? `${c} (default)` : c, selected: c === o.default, "data-value": c })),
    );
  } else if (word.test(o.values)) {
    input = el("input", { type: "checkbox", id, name: o.key, value: o.values });
    return el("label", { for: id, class: "option flag" }, el("span", { class: "key", text: o.key }), el("span", { class: "flag-box" }, input, ` ${o.key}=${o.values}`), el("small", { text: o.summary }));
  } else {
    input = el("input", { id, name: o.key, placeholder: o.values, autocomplete: "off" });
    return el("label", { for: id, class: "option" }, el("span", { class: "key", text: o.key }), input, el("small", { text: o.default ? `${o.summary} (default: ${o.default})` : o.summary }));
  }
  return el("label", { for: id, class: "option" }, el("span", { class: "key", text: o.key }), input, el("small", { text: o.summary }));
}

window.addEventListener("hashchange", () => {
  if (client.status === "connected" || client.ws?.readyState === WebSocket.OPEN) route();
});
client.connect();
