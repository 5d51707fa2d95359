// The table's tiles drawn as one SVG the size of the felt: where each lies comes from layout.js (each arm
// straight to the felt's edge, then round the corner; doubles across), in tile units (a tile is 2 × 1) at
// the largest unit at which the whole hand fits. Each open end shows its pip count just past it.
import { svg } from "./dom.js";
import { fill, t } from "./i18n.js";
import { ghost, layoutBoard } from "./layout.js";
import { isDouble, norm, tileFace, tileName } from "./tiles.js";

// The extent of a placed tile (2 × 1, turned).
function box(p) {
  const upright = Math.abs(p.angle) % 180 === 0;
  return upright ? { w: 1, h: 2 } : { w: 2, h: 1 };
}

// A tile on the table: `tile board-tile`, and its state as `is-…` (is-spinner: A1's opening double; is-last:
// the tile just played). Never a UI widget's class (a board tile named `spinner` once took the loading
// spinner's endless spin): once laid, a tile lies still.
function drawTile(p, states) {
  const cls = ["tile", "board-tile", ...states.filter(Boolean).map((s) => `is-${s}`)].join(" ");
  return svg("g", { class: cls, "data-tile": norm(p.text), role: "img", "aria-label": tileName(p.text),
    transform: `translate(${p.x * 100} ${p.y * 100}) rotate(${p.angle}) translate(-50 -100)` },
  svg("title", {}, tileName(p.text)), tileFace(p.inner, p.outer));
}

// An open end's pip count, in the square just past it: a number in a disc, named for a screen reader
// ("ponta leste: 4").
function drawMark(m, unit) {
  const label = fill(t("end_pips"), { end: t(`end_${m.end}`).toLocaleLowerCase(), n: m.pip });
  return svg("g", { class: "end-mark", "data-end": m.end, role: "img", "aria-label": label },
    svg("title", {}, label),
    svg("circle", { cx: m.x * 100, cy: m.y * 100, r: 44 }),
    svg("text", { x: m.x * 100, y: m.y * 100, "text-anchor": "middle", "dominant-baseline": "central",
      "font-size": Math.round(Math.min(78, Math.max(60, 1100 / unit))) }, String(m.pip))); // 11 px at least, if it fits
}

// The board as an SVG of width × height pixels (the felt's); a line's lead lies at the index the engine gives
// (layout.lead: the tiles laid at L lie left of it). opts: last (the tile
// just played, highlighted), targets ([{end, tile, pip, label, onclick}]: where a picked tile may go,
// pressable), clear (pixels along the bottom to keep free of tiles: the felt's count and boneyard).
export function renderBoard(layout, width, height, opts = {}) {
  const { unit, X, Y, tiles, arms, marks } = layoutBoard(layout, width, height, layout.lead || 0, opts.clear || 0);
  const ghosts = (opts.targets || []).map((g) => ({ ...g, at: ghost(arms, g.end, g.tile, g.pip) })).filter((g) => g.at);
  const last = opts.last ? norm(opts.last) : null;
  const root = svg("svg", { class: "board-svg", viewBox: `${-X * 100} ${-Y * 100} ${X * 200} ${Y * 200}`,
    width: Math.round(2 * X * unit), height: Math.round(2 * Y * unit), role: "group", "aria-label": t("table_tiles"),
    "data-unit": unit.toFixed(2) },
  tiles.map((p) => drawTile(p, [p.spinner && "spinner", norm(p.text) === last && "last"])));
  for (const g of ghosts) {
    const { w, h } = box(g.at);
    const target = svg("g", { class: "target", role: "button", tabindex: 0, "aria-label": g.label, "data-end": g.end,
      onclick: g.onclick, onkeydown: (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); g.onclick(); } } },
    svg("title", {}, g.label),
    svg("rect", { x: (g.at.x - w / 2) * 100 + 4, y: (g.at.y - h / 2) * 100 + 4, width: w * 100 - 8, height: h * 100 - 8, rx: 14 }));
    root.append(target);
  }
  root.append(...marks.map((m) => drawMark(m, unit)));
  return root;
}

export { isDouble };
