// The table's tiles as real tables lay them: the line (or each arm of the spinner) runs straight to the
// edge of the felt, then turns a corner and comes back (a snake); doubles lie crosswise. Positions are
// worked out in tile units (a tile is 2 × 1), then drawn as one SVG that scales to the felt.
import { svg } from "./dom.js";
import { t } from "./i18n.js";
import { isDouble, norm, pips, tileFace, tileName } from "./tiles.js";

const add = (p, d, k = 1) => ({ x: p.x + d.x * k, y: p.y + d.y * k });
const neg = (d) => ({ x: -d.x, y: -d.y });
const angle = (d) => (d.x === 1 ? -90 : d.x === -1 ? 90 : d.y === 1 ? 0 : 180); // the drawing's down → d
const RIGHT = { x: 1, y: 0 }, LEFT = { x: -1, y: 0 }, DOWN = { x: 0, y: 1 }, UP = { x: 0, y: -1 };

// Whether going along d up to point p stays within the run's bounds.
function within(p, d, b) {
  if (d.x === 1) return p.x <= b.maxX + 1e-9;
  if (d.x === -1) return p.x >= b.minX - 1e-9;
  if (d.y === 1) return p.y <= b.maxY + 1e-9;
  return p.y >= b.minY - 1e-9;
}

// The rectangle a placed tile covers (a tile is 2 × 1; upright or lying).
function rectOf(p) {
  const upright = Math.abs(p.angle) % 180 === 0;
  const w = upright ? 1 : 2, h = upright ? 2 : 1;
  return [p.x - w / 2, p.y - h / 2, p.x + w / 2, p.y + h / 2];
}
const clash = (r, taken) => taken.some((q) => r[0] < q[2] - 1e-6 && q[0] < r[2] - 1e-6 && r[1] < q[3] - 1e-6 && q[1] < r[3] - 1e-6);

// Lay the tiles of one arm from its start (the middle of the open edge) outwards along dir; at the bounds
// or another arm, turn towards `turn` (two corners: a U-turn) and come back. A double lies crosswise, but
// turns a corner like any tile. tiles: [[text, inner pip, outer pip]…];
// taken: the rectangles already covered (grows with this arm's tiles).
function walk(tiles, start, dir, turn, bounds, taken) {
  const out = [];
  let a = start, d = dir, runDir = dir, turning = false;
  const place = (text, inner, outer, c, ang) => {
    const p = { text, inner, outer, x: c.x, y: c.y, angle: ang };
    out.push(p);
    taken.push(rectOf(p));
  };
  const free = (c, ang) => !clash(rectOf({ x: c.x, y: c.y, angle: ang }), taken);
  // A corner into e: a tile whose first half sits at the end, or a double crosswise with the next tile at its end.
  const corner = (text, inner, outer, e) => {
    place(text, inner, outer, add(add(a, d, 0.5), e, 0.5), angle(e));
    a = add(add(a, d, 0.5), e, 1.5);
    d = e;
  };
  for (const [text, inner, outer] of tiles) {
    const double = inner === outer;
    if (turning) { // the second corner: back along the other way
      const e = neg(runDir);
      corner(text, inner, outer, e);
      runDir = e; turning = false;
      continue;
    }
    const len = double ? 1 : 2;
    const c = add(a, d, len / 2);
    const ang = double ? angle(d) + 90 : angle(d);
    const fits = within(add(a, d, len), d, bounds);
    if (fits && free(c, ang)) {
      place(text, inner, outer, c, ang);
      a = add(a, d, len);
      continue;
    }
    const cornerAt = [add(add(a, d, 0.5), turn, 0.5), angle(turn)];
    if (!free(...cornerAt) && free(c, ang)) { // no room to turn: straight on, past the edge
      place(text, inner, outer, c, ang);
      a = add(a, d, len);
      continue;
    }
    corner(text, inner, outer, turn); // the first corner
    turning = true;
  }
  return out;
}

// The index of the lead in a line: as many tiles lie left of it as were played on the left end.
export function leadIndex(history, length) {
  const left = (history || []).filter((h) => /^\d+: \d-\d L\b/.test(h)).length;
  return left < length ? left : Math.floor(length / 2);
}

// Every tile's place for a layout, in a felt of half-width X and half-height Y (tile units).
// Also, for each open end, the arm's tiles and how to lay one more (to show where a tile would go).
export function arrange(layout, X, Y, lead = 0) {
  const arms = {};
  if (layout.shape === "spinner") {
    if (!layout.spinner) return { tiles: [], arms };
    const [s] = pips(layout.spinner);
    const inner = 2; // the arms' return legs keep clear of the other arms
    const spec = {
      W: [{ x: -0.5, y: 0 }, LEFT, UP, { minX: -X, maxX: -inner, minY: -Y, maxY: Y }],
      E: [{ x: 0.5, y: 0 }, RIGHT, DOWN, { minX: inner, maxX: X, minY: -Y, maxY: Y }],
      N: [{ x: 0, y: -1 }, UP, RIGHT, { minX: -X, maxX: X, minY: -Y, maxY: -inner }],
      S: [{ x: 0, y: 1 }, DOWN, LEFT, { minX: -X, maxX: X, minY: inner, maxY: Y }],
    };
    const tiles = [{ text: layout.spinner, inner: s, outer: s, x: 0, y: 0, angle: 0, spinner: true }];
    const taken = [rectOf(tiles[0])];
    for (const [end, [start, dir, turn, bounds]] of Object.entries(spec)) {
      const list = (layout.arms[end] || []).map((p) => { const [i, o] = pips(p); return [p, i, o]; });
      arms[end] = { list, start, dir, turn, bounds, taken: taken.slice() };
      tiles.push(...walk(list, start, dir, turn, bounds, taken));
    }
    return { tiles, arms };
  }
  const line = layout.line || [];
  if (!line.length) return { tiles: [], arms };
  const k = Math.min(Math.max(lead, 0), line.length - 1);
  const [a, b] = pips(line[k]);
  const bounds = { minX: -X, maxX: X, minY: -Infinity, maxY: Infinity };
  const half = a === b ? 0.5 : 1;
  const right = line.slice(k + 1).map((p) => { const [i, o] = pips(p); return [p, i, o]; });
  const left = line.slice(0, k).reverse().map((p) => { const [o, i] = pips(p); return [p, i, o]; });
  const tiles = [{ text: line[k], inner: a, outer: b, x: 0, y: 0, angle: a === b ? 0 : -90 }];
  const taken = [rectOf(tiles[0])];
  arms.R = { list: right, start: { x: half, y: 0 }, dir: RIGHT, turn: DOWN, bounds };
  arms.L = { list: left, start: { x: -half, y: 0 }, dir: LEFT, turn: UP, bounds };
  for (const arm of Object.values(arms)) {
    arm.taken = taken.slice();
    tiles.push(...walk(arm.list, arm.start, arm.dir, arm.turn, arm.bounds, taken));
  }
  return { tiles, arms };
}

// Where a tile played at `end` would lie (with its pip `pip` touching).
function ghost(arms, end, text, pip) {
  const arm = arms[end];
  if (!arm) return null;
  const [a, b] = pips(text);
  const other = a === pip ? b : a;
  const placed = walk([...arm.list, [text, pip, other]], arm.start, arm.dir, arm.turn, arm.bounds, arm.taken.slice());
  return placed[placed.length - 1];
}

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

// The board as an SVG sized for a felt of width × height pixels. opts: lead (index in a line),
// last (the tile just played, highlighted), targets ([{end, tile, pip, label, onclick}]: where a picked
// tile may go, pressable).
export function renderBoard(layout, width, height, opts = {}) {
  const unit = Math.max(17, Math.min(38, width / 14));
  const X = Math.max(4, width / unit / 2 - 1.2);
  const Y = Math.max(4, height / unit / 2 - 1.2);
  const { tiles, arms } = arrange(layout, X, Y, opts.lead || 0);
  const ghosts = (opts.targets || []).map((g) => ({ ...g, at: ghost(arms, g.end, g.tile, g.pip) })).filter((g) => g.at);
  let ex = 3, ey = 2; // half extents, kept symmetric: the spinner or the lead stays in the middle
  for (const p of [...tiles, ...ghosts.map((g) => g.at)]) {
    const { w, h } = box(p);
    ex = Math.max(ex, Math.abs(p.x) + w / 2 + 0.3);
    ey = Math.max(ey, Math.abs(p.y) + h / 2 + 0.3);
  }
  const scale = Math.min(unit, width / (2 * ex), height / (2 * ey));
  const last = opts.last ? norm(opts.last) : null;
  const root = svg("svg", { class: "board-svg", viewBox: `${-ex * 100} ${-ey * 100} ${ex * 200} ${ey * 200}`,
    width: Math.floor(2 * ex * scale), height: Math.floor(2 * ey * scale), role: "group", "aria-label": t("table_tiles") },
  tiles.map((p) => drawTile(p, [p.spinner && "spinner", norm(p.text) === last && "last"])));
  for (const g of ghosts) {
    const { w, h } = box(g.at);
    const target = svg("g", { class: "target", role: "button", tabindex: 0, "aria-label": g.label, "data-end": g.end,
      onclick: g.onclick, onkeydown: (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); g.onclick(); } } },
    svg("title", {}, g.label),
    svg("rect", { x: (g.at.x - w / 2) * 100 + 4, y: (g.at.y - h / 2) * 100 + 4, width: w * 100 - 8, height: h * 100 - 8, rx: 14 }));
    root.append(target);
  }
  return root;
}

export { isDouble };
