// Hipparchus's cards drawn with SVG and CSS: the Sun, the Moon and the Earth (docs/rules.md).

import { drawing, el } from "../../dom.js";
import { SUIT_NAMES } from "./words.js";

export { SUITS, SUIT_NAMES } from "./words.js";
export const SUIT_ICONS = { S: "sun", M: "moon", E: "earth" };

/** The drawing of a suit's body: "sun", "moon" or "earth". */
export function icon(name, cls = "icon") {
  return drawing(name, cls, (add) => {
    if (name === "sun") {
      for (let i = 0; i < 12; i++) {
        const a = (i * Math.PI) / 6;
        const [x1, y1] = [50 + 30 * Math.cos(a), 50 + 30 * Math.sin(a)];
        const [x2, y2] = [50 + 45 * Math.cos(a), 50 + 45 * Math.sin(a)];
        add("line", { x1, y1, x2, y2, class: "sun-ray" });
      }
      add("circle", { cx: 50, cy: 50, r: 24, class: "sun-disc" });
    } else if (name === "moon") {
      add("path", { d: "M62 10 A40 40 0 1 0 90 64 A32 32 0 1 1 62 10 Z", class: "moon-body" });
    } else {
      add("circle", { cx: 50, cy: 50, r: 40, class: "earth-sea" });
      add("path", { d: "M28 30 q10 -8 20 0 q6 8 -4 14 q-8 6 -2 14 q-10 4 -16 -6 q-6 -12 2 -22 Z", class: "earth-land" });
      add("path", { d: "M60 56 q10 -4 16 4 q2 12 -10 18 q-8 -4 -8 -12 Z", class: "earth-land" });
    }
  });
}

/** A card of suit S, M or E, as a button (``attrs`` added: a handler, ``disabled``...). */
export function hipparchusCard(suit, { class: extra = "", ...attrs } = {}) {
  return el(
    "button",
    { class: `card hcard suit-${suit} ${extra}`.trim(), type: "button", title: SUIT_NAMES[suit], "data-suit": suit, ...attrs },
    el("span", { class: "corner", text: suit }),
    icon(SUIT_ICONS[suit], "face"),
  );
}
