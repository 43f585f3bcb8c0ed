// Cards drawn with SVG and CSS: Hipparchus's Sun, Moon and Earth, and planets' six planet
// suits with ranks 1-7, Moon, Sun and Galaxy. Everything is built with the DOM (no inline
// style or script: the page's Content-Security-Policy forbids them).

const SVG = "http://www.w3.org/2000/svg";

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  for (const child of children) node.append(child);
  return node;
}

/** An SVG icon of 0..100 user units: "sun", "moon", "earth", "galaxy" or a planet letter. */
export function icon(name, cls = "icon") {
  const root = svg("svg", { viewBox: "0 0 100 100", class: `${cls} ${cls}-${name}`, "aria-hidden": "true" });
  const add = (tag, attrs) => root.append(svg(tag, attrs));
  switch (name) {
    case "sun": {
      for (let i = 0; i < 12; i++) {
        const a = (i * Math.PI) / 6;
        const [x1, y1] = [50 + 30 * Math.cos(a), 50 + 30 * Math.sin(a)];
        const [x2, y2] = [50 + 45 * Math.cos(a), 50 + 45 * Math.sin(a)];
        add("line", { x1, y1, x2, y2, class: "sun-ray" });
      }
      add("circle", { cx: 50, cy: 50, r: 24, class: "sun-disc" });
      break;
    }
    case "moon":
      add("path", { d: "M62 10 A40 40 0 1 0 90 64 A32 32 0 1 1 62 10 Z", class: "moon-body" });
      break;
    case "earth":
      add("circle", { cx: 50, cy: 50, r: 40, class: "earth-sea" });
      add("path", { d: "M28 30 q10 -8 20 0 q6 8 -4 14 q-8 6 -2 14 q-10 4 -16 -6 q-6 -12 2 -22 Z", class: "earth-land" });
      add("path", { d: "M60 56 q10 -4 16 4 q2 12 -10 18 q-8 -4 -8 -12 Z", class: "earth-land" });
      break;
    case "galaxy":
      add("path", { d: "M50 50 m-4 0 a4 4 0 1 1 8 0 a10 10 0 1 1 -18 2 a18 18 0 1 1 34 -4 a26 26 0 1 1 -48 8", class: "galaxy-arm" });
      break;
    case "J":
      add("circle", { cx: 50, cy: 50, r: 40, class: "planet-J" });
      add("path", { d: "M14 38 H86 M11 52 H89 M16 66 H84", class: "planet-band" });
      break;
    case "S":
      add("ellipse", { cx: 50, cy: 52, rx: 46, ry: 12, class: "planet-ring" });
      add("circle", { cx: 50, cy: 50, r: 28, class: "planet-S" });
      add("path", { d: "M4 52 A46 12 0 0 0 96 52", class: "planet-ring-front" });
      break;
    case "E":
      add("circle", { cx: 50, cy: 50, r: 40, class: "planet-E" });
      add("path", { d: "M28 30 q10 -8 20 0 q6 8 -4 14 q-8 6 -2 14 q-10 4 -16 -6 q-6 -12 2 -22 Z", class: "earth-land" });
      break;
    default:
      add("circle", { cx: 50, cy: 50, r: 40, class: `planet-${name}` });
      add("circle", { cx: 38, cy: 36, r: 10, class: "planet-shine" });
  }
  return root;
}

export const HIPPARCHUS_SUITS = { S: "sun", M: "moon", E: "earth" };
export const HIPPARCHUS_NAMES = { S: "Sun", M: "Moon", E: "Earth" };

/** A Hipparchus card of suit S, M or E. */
export function hipparchusCard(suit, { class: extra = "", ...attrs } = {}) {
  const name = HIPPARCHUS_SUITS[suit];
  return el(
    "button",
    { class: `card hcard suit-${suit} ${extra}`.trim(), type: "button", title: HIPPARCHUS_NAMES[suit], "data-suit": suit, ...attrs },
    el("span", { class: "corner", text: suit }),
    icon(name, "face"),
  );
}

/** A card's back (another seat's hidden card). */
export function cardBack(cls = "") {
  return el("span", { class: `card back ${cls}`, "aria-hidden": "true" });
}

export const PLANET_NAMES = { E: "Earth", J: "Jupiter", M: "Mars", N: "Neptune", S: "Saturn", V: "Venus" };
export const RANK_NAMES = { M: "Moon", S: "Sun", G: "Galaxy" };
export const SUIT_ORDER = "EJMNSV";
export const RANK_ORDER = "1234567MSG";

/** The points a planets card is worth (23 a hand: each Jupiter 1, Mars 7 and Neptune 7). */
export function planetPoints(card) {
  if (card[0] === "J") return 1;
  if (card === "M7" || card === "N7") return 7;
  return 0;
}

export function sortPlanets(cards) {
  return [...cards].sort(
    (a, b) => SUIT_ORDER.indexOf(a[0]) - SUIT_ORDER.indexOf(b[0]) || RANK_ORDER.indexOf(a[1]) - RANK_ORDER.indexOf(b[1]),
  );
}

/** A planets card such as "JS" (Jupiter Sun) or "M7". */
export function planetCard(card, { class: extra = "", ...attrs } = {}) {
  const [suit, rank] = card;
  const rankName = RANK_NAMES[rank];
  const title = `${PLANET_NAMES[suit]} ${rankName || rank}`;
  const points = planetPoints(card);
  const pip = rankName ? icon(rankName.toLowerCase(), "pip") : el("span", { class: "rank-big", text: rank });
  return el(
    "button",
    { class: `card pcard psuit-${suit}${points ? " counts" : ""} ${extra}`.trim(), type: "button", title, "data-card": card, ...attrs },
    el("span", { class: "corner" }, el("b", { text: rankName ? rankName[0] : rank }), icon(suit, "corner-icon")),
    el("span", { class: "middle" }, icon(suit, "planet"), pip),
    points ? el("span", { class: "points", text: `${points}` }) : null,
  );
}
