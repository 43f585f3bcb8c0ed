// planets' cards drawn with SVG and CSS: six planet suits (Earth, Jupiter, Mars, Neptune,
// Saturn, Venus) with ranks 1-7, Moon, Sun and Galaxy (docs/planets.md). Each card names its
// suit as well as drawing it (the suit's letter in its corner, its name at the foot), so that
// no two suits are told apart by colour alone.

import { drawing, el } from "../../dom.js";
import { PLANET_NAMES, RANK_NAMES, cardPoints } from "./words.js";

const EARTH_LAND = "M28 30 q10 -8 20 0 q6 8 -4 14 q-8 6 -2 14 q-10 4 -16 -6 q-6 -12 2 -22 Z";

/** The drawing of a planet (its letter) or of a rank's body ("moon", "sun", "galaxy"). */
export function icon(name, cls = "icon") {
  return drawing(name, cls, (add) => {
    switch (name) {
      case "sun":
        for (let i = 0; i < 8; i++) {
          const a = (i * Math.PI) / 4;
          add("line", { x1: 50 + 32 * Math.cos(a), y1: 50 + 32 * Math.sin(a), x2: 50 + 46 * Math.cos(a), y2: 50 + 46 * Math.sin(a), class: "pip-ray" });
        }
        add("circle", { cx: 50, cy: 50, r: 26, class: "pip-sun" });
        break;
      case "moon":
        add("path", { d: "M60 8 A42 42 0 1 0 92 62 A30 30 0 1 1 60 8 Z", class: "pip-moon" });
        break;
      case "galaxy":
        add("path", { d: "M50 50 m-4 0 a4 4 0 1 1 8 0 a10 10 0 1 1 -18 2 a18 18 0 1 1 34 -4 a26 26 0 1 1 -48 8", class: "pip-galaxy" });
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
        add("path", { d: EARTH_LAND, class: "planet-land" });
        break;
      case "N":
        // Neptune: a pale cyan disc with a thin band and its dark spot, unlike Earth's blue
        // sea and green land.
        add("circle", { cx: 50, cy: 50, r: 40, class: "planet-N" });
        add("path", { d: "M14 40 H86", class: "planet-N-band" });
        add("ellipse", { cx: 60, cy: 60, rx: 11, ry: 7, class: "planet-N-spot" });
        break;
      default:
        add("circle", { cx: 50, cy: 50, r: 40, class: `planet-${name}` });
        add("circle", { cx: 38, cy: 36, r: 10, class: "planet-shine" });
    }
  });
}

/** A card such as "JS" (Jupiter Sun) or "M7", as a button (``attrs`` added). */
export function planetCard(card, { class: extra = "", ...attrs } = {}) {
  const [suit, rank] = card;
  const rankName = RANK_NAMES[rank];
  const title = `${PLANET_NAMES[suit]} ${rankName || rank}`;
  const points = cardPoints(card);
  const pip = rankName ? icon(rankName.toLowerCase(), "pip") : el("span", { class: "rank-big", text: rank });
  return el(
    "button",
    { class: `card pcard psuit-${suit}${points ? " counts" : ""} ${extra}`.trim(), type: "button", title, "aria-label": title, "data-card": card, ...attrs },
    el("span", { class: "corner" }, el("b", { class: "rank", text: rankName ? rankName[0] : rank }), el("span", { class: "suit-letter", text: suit })),
    el("span", { class: "middle" }, icon(suit, "planet"), pip),
    el("span", { class: "suit-name", text: PLANET_NAMES[suit] }),
    points ? el("span", { class: "points", text: `${points}` }) : null,
  );
}
