// Building the page with the DOM: elements, SVG drawings and a card's back. Nothing is built
// from HTML text and nothing carries an inline style or script (the page's
// Content-Security-Policy forbids them), so a name or a move word from the daemon is always
// text, never markup.

const SVG = "http://www.w3.org/2000/svg";

/** An element ``tag`` with ``attrs`` (``class``, ``text``, ``on<event>`` handlers, other
 * attributes; null, undefined and false ones left out) and ``children`` (nodes or text,
 * arrays flattened, null ones left out). */
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

/** An SVG element ``tag`` with ``attrs`` and child nodes. */
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  for (const child of children) node.append(child);
  return node;
}

/** An SVG drawing of 0..100 user units, classes ``cls`` and ``cls-name``, whose shapes
 * ``draw(add)`` adds with ``add(tag, attrs)``. */
export function drawing(name, cls, draw) {
  const root = svg("svg", { viewBox: "0 0 100 100", class: `${cls} ${cls}-${name}`, "aria-hidden": "true" });
  draw((tag, attrs) => root.append(svg(tag, attrs)));
  return root;
}

/** Replace ``node``'s children with ``children``, leaving out null ones. */
export function fill(node, ...children) {
  node.replaceChildren(...children.flat().filter((child) => child !== null && child !== undefined && child !== false));
}

/** A card's back (another seat's hidden card). */
export function cardBack(cls = "") {
  return el("span", { class: `card back ${cls}`, "aria-hidden": "true" });
}
