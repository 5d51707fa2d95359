// Tiles drawn as SVG: a tile is "a-b". One drawing, upright (the first half on top), turned as needed;
// pips on a 3×3 grid of each half. Also the backs of the tiles a seat holds, and a tile's spoken name.
import { el, svg } from "./dom.js";
import { fill, t } from "./i18n.js";

// The pips of each number, on a 3×3 grid read row by row (an upright tile: the six in two columns).
const PIPS = { 0: [], 1: [4], 2: [2, 6], 3: [2, 4, 6], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8] };
const AT = [27, 50, 73];

export const pips = (p) => p.split("-").map(Number);
export const isDouble = (p) => { const [a, b] = pips(p); return a === b; };

// The tile with the higher half first: "2-5" and "5-2" are the same tile.
export const norm = (p) => { const [a, b] = pips(p); return a >= b ? `${a}-${b}` : `${b}-${a}`; };

// A half's number in words: "branco", "um" … "seis" (es "blanco" … "seis", en "blank" … "six").
export const pipWord = (n) => t(`pip_${n}`);

// How a tile is read out, the higher half first: "carroça de seis", "seis e quatro" (es "doble seis",
// "seis y cuatro"; en "double six", "six-four"): its accessible name in my hand, on the board, in the history.
export function tileName(text) {
  const [a, b] = pips(norm(text));
  return a === b ? fill(t("double_of"), { n: pipWord(a) }) : fill(t("tile_of"), { a: pipWord(a), b: pipWord(b) });
}

function half(n, y) {
  return PIPS[n].map((i) => svg("circle", { class: "pip", cx: AT[i % 3], cy: y + AT[Math.floor(i / 3)], r: 9.5 }));
}

// The upright drawing of a tile in a 100×200 box: a on top, b below.
export function tileFace(a, b) {
  return [
    svg("rect", { class: "face", x: 3, y: 3, width: 94, height: 194, rx: 14 }),
    svg("line", { class: "divider", x1: 16, y1: 100, x2: 84, y2: 100 }),
    ...half(a, 0), ...half(b, 100),
  ];
}

// A tile as its own picture (the hand, the revealed hands, the history): upright, or lying (a on the left).
export function tile(text, { lying = false, cls = "" } = {}) {
  const [a, b] = pips(text);
  const box = lying ? "0 0 200 100" : "0 0 100 200";
  const body = lying ? svg("g", { transform: "rotate(-90) translate(-100 0)" }, tileFace(a, b)) : svg("g", {}, tileFace(a, b));
  return svg("svg", { class: `tile ${lying ? "lying" : "upright"} ${cls}`.trim(), viewBox: box, role: "img",
    "aria-label": tileName(text), "data-tile": norm(text) }, svg("title", {}, tileName(text)), body);
}

// A tile of my hand: a button, the tile drawn inside. One not playable now is aria-disabled, not disabled: it
// still takes the focus, so the keyboard walks the whole hand and a screen reader reads every tile.
export function tileButton(text, { playable, pressed, onclick }) {
  return el("button", { class: `tile${playable ? " playable" : ""}`, "aria-label": tileName(text), title: norm(text),
    "data-tile": norm(text), "aria-pressed": pressed ? "true" : "false", "aria-disabled": playable ? false : "true",
    onclick: (e) => { if (playable) onclick(e); } }, tile(text));
}

// n tiles face down (a seat's hand as the others see it), with the count for screen readers.
export function tileBacks(n, label) {
  return el("span", { class: "backs", role: "img", "aria-label": label },
    Array.from({ length: n }, () => svg("svg", { class: "back", viewBox: "0 0 100 200", "aria-hidden": "true" },
      svg("rect", { x: 3, y: 3, width: 94, height: 194, rx: 14 }), svg("circle", { cx: 50, cy: 100, r: 14 }))));
}
