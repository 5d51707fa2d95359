// Where the tiles on the table lie, as a person lays them on a real table (no DOM here: Node's test runner
// checks it, tests/web/js/board.test.mjs). Worked out in tile units (a tile is 2 × 1) around the spinner or
// the lead at (0, 0), x to the right and y down, in a felt of half-width X and half-height Y units.
//
// Each arm runs straight from the middle towards its edge of the felt and turns a corner only when the next
// tile would not leave room for one more corner. Amazonense (A1): W goes left, N up, E right, S down, each
// turning clockwise, always, into a quarter of the felt of its own (a pinwheel: W takes the top left, N the
// top right, E the bottom right, S the bottom left), so no two arms ever cross. A line (individual,
// Dominousa): a snake, R to the right and back along the rows below, L to the left and back along the rows
// above, turning at the left and right edges. A double lies across its arm (at a corner: across the tile it
// is laid against). When a hand does not fit, the whole layout is drawn at a smaller unit
// (layoutBoard): never past the felt, never over another tile.

const add = (p, d, k = 1) => ({ x: p.x + d.x * k, y: p.y + d.y * k });
const neg = (d) => ({ x: -d.x, y: -d.y });
const cw = (d) => ({ x: -d.y, y: d.x }); // a quarter turn clockwise (y down)
const horizontal = (d) => d.y === 0;
export const RIGHT = { x: 1, y: 0 }, LEFT = { x: -1, y: 0 }, DOWN = { x: 0, y: 1 }, UP = { x: 0, y: -1 };
// The drawing of a tile is upright, its inner half on top: the rotation that points its bottom along d.
const angle = (d) => (d.x === 1 ? -90 : d.x === -1 ? 90 : d.y === 1 ? 0 : 180);
const EPS = 1e-6;

const pipsOf = (text) => text.split("-").map(Number);

// The rectangle [x0, y0, x1, y1] of a tile centred at c whose long side runs along v.
function rectAlong(c, v) {
  const w = horizontal(v) ? 2 : 1, h = horizontal(v) ? 1 : 2;
  return [c.x - w / 2, c.y - h / 2, c.x + w / 2, c.y + h / 2];
}
// The rectangle a drawn tile covers (from its angle).
export function rectOf(p) {
  return rectAlong(p, Math.abs(p.angle) % 180 === 0 ? DOWN : RIGHT);
}
const area = (r) => Math.max(0, r[2] - r[0]) * Math.max(0, r[3] - r[1]);
const meet = (r, q) => [Math.max(r[0], q[0]), Math.max(r[1], q[1]), Math.min(r[2], q[2]), Math.min(r[3], q[3])];
export const overlaps = (r, q) => r[0] < q[2] - EPS && q[0] < r[2] - EPS && r[1] < q[3] - EPS && q[1] < r[3] - EPS;
// Whether r lies within a region: rectangles whose insides do not overlap.
const inside = (r, region) => Math.abs(region.reduce((s, q) => s + area(meet(r, q)), 0) - area(r)) < EPS;

// One arm as it is walked: its region, where its open end is (a: the middle of the end's edge, d: the way
// it faces), how it turns, the rectangles its tiles cover.
function startArm(region, a, d, turn) {
  return { region, a, d, turn, run: d, taken: [], tiles: [], turns: 0 };
}

// The ways one more tile (inner pip `inner` touching) may lie at the arm's end: straight on, or turning the
// corner. A double lies across the way it is laid.
function straight(arm, double) {
  const { a, d } = arm;
  if (double) return { c: add(a, d, 0.5), along: cw(d), a: add(a, d, 1), d };
  return { c: add(a, d, 1), along: d, a: add(a, d, 2), d };
}
// Turning the corner into e: the tile's first half sits just past the end, the rest along e; a double too
// (its long side against the end, so it lies across the tile it is laid against).
function corner(a, d, e) {
  return { c: add(add(a, d, 0.5), e, 0.5), along: e, a: add(add(a, d, 0.5), e, 1.5), d: e };
}
// The way the arm turns next, facing d (a line's snake turns down (R) or up (L), then back).
// prev: the way it faced before d (a snake's second corner goes back the other way).
const nextTurn = (arm, d, prev = arm.run) => (arm.turn === "cw" ? cw(d) : horizontal(d) ? arm.turn : neg(prev));
const mustTurn = (arm, d) => arm.turn !== "cw" && !horizontal(d);

const free = (arm, r) => inside(r, arm.region) && !arm.taken.some((q) => overlaps(r, q));
// Whether, with the end at a facing d, the arm can still turn its next corner (and lay a double across the
// new way: half a unit more room past the corner, unless it turns again at once). This square past the end is also where its pip count goes.
function canTurn(arm, a, d, prev = arm.run) {
  const e = nextTurn(arm, d, prev);
  const k = corner(a, d, e);
  const r = rectAlong(k.c, k.along);
  if (mustTurn(arm, e)) return free(arm, r); // a snake's U-turn: no double is laid along e
  const room = d.x > 0 ? [r[0], r[1], r[2] + 0.5, r[3]] : d.x < 0 ? [r[0] - 0.5, r[1], r[2], r[3]]
    : d.y > 0 ? [r[0], r[1], r[2], r[3] + 0.5] : [r[0], r[1] - 0.5, r[2], r[3]];
  return free(arm, r) && free(arm, room);
}

// Where the next tile goes: straight on while a corner remains possible after it, else round the corner.
// null: no room (the caller draws the whole layout smaller). lenient: the corner even without room for one
// after it (where a picked tile would go, the last tile).
function nextPlace(arm, double, lenient = false) {
  if (!mustTurn(arm, arm.d)) {
    const s = straight(arm, double);
    if (free(arm, rectAlong(s.c, s.along)) && canTurn(arm, s.a, s.d)) return s;
  }
  const k = corner(arm.a, arm.d, nextTurn(arm, arm.d));
  if (free(arm, rectAlong(k.c, k.along)) && (lenient || canTurn(arm, k.a, k.d, arm.d))) return k;
  return null;
}

function lay(arm, [text, inner, outer], place) {
  const p = { text, inner, outer, x: place.c.x, y: place.c.y, angle: angle(place.along), dir: place.d };
  if (horizontal(arm.d) && !horizontal(place.d)) arm.run = arm.d;
  if (place.d.x !== arm.d.x || place.d.y !== arm.d.y) arm.turns++;
  arm.tiles.push(p);
  arm.taken.push(rectAlong(place.c, place.along));
  arm.a = place.a;
  arm.d = place.d;
  return p;
}

// The arms of a layout with their regions: [end, start point, facing, turn, region, tiles], and the tile in
// the middle. Tiles: [text, inner pip, outer pip].
function armsOf(layout, X, Y, lead, B) {
  if (layout.shape === "spinner") {
    if (!layout.spinner) return null;
    const [s] = pipsOf(layout.spinner);
    const middle = { text: layout.spinner, inner: s, outer: s, x: 0, y: 0, angle: 0, spinner: true };
    const list = (end) => (layout.arms?.[end] || []).map((p) => [p, ...pipsOf(p)]);
    // The spinner stands upright in [-0.5, 0.5] × [-1, 1]; each arm's quarter, a double's width included.
    return { middle, arms: [
      ["W", { x: -0.5, y: 0 }, LEFT, [[-X, -1, -0.5, 1], [-X, -Y, -1, -1]], list("W")],
      ["N", { x: 0, y: -1 }, UP, [[-1, -Y, X, -1]], list("N")],
      ["E", { x: 0.5, y: 0 }, RIGHT, [[0.5, -1, X, 1], [1, 1, X, B]], list("E")],
      ["S", { x: 0, y: 1 }, DOWN, [[-X, 1, 1, B]], list("S")],
    ].map(([end, a, d, region, tiles]) => [end, a, d, "cw", region, tiles]) };
  }
  const line = layout.line || [];
  if (!line.length) return null;
  const k = Math.min(Math.max(lead, 0), line.length - 1);
  const [a, b] = pipsOf(line[k]);
  const half = a === b ? 0.5 : 1;
  const middle = { text: line[k], inner: a, outer: b, x: 0, y: 0, angle: a === b ? 0 : -90 };
  const right = line.slice(k + 1).map((p) => [p, ...pipsOf(p)]);
  const left = line.slice(0, k).reverse().map((p) => { const [o, i] = pipsOf(p); return [p, i, o]; });
  return { middle, arms: [
    ["R", { x: half, y: 0 }, RIGHT, DOWN, [[half, -1, X, 1], [-X, 1, X, B]], right],
    ["L", { x: -half, y: 0 }, LEFT, UP, [[-X, -1, -half, 1], [-X, -Y, X, -1]], left],
  ] };
}

// Every tile's place in a felt of half-width X and half-height Y (units), down to B below the middle (Y
// unless the felt's bottom is kept clear), or null if the hand does not fit (lenient: lay it anyway, the
// last resort). Each tile: {text, inner, outer, x, y, angle, dir, end}; the
// spinner or lead has spinner/lead set. arms: per end, the walked arm (for where a tile would go).
export function arrange(layout, X, Y, lead = 0, lenient = false, B = Y) {
  const spec = armsOf(layout, X, Y, lead, B);
  if (!spec) return { tiles: [], arms: {} };
  const tiles = [{ ...spec.middle, lead: layout.shape !== "spinner" }];
  const arms = {};
  for (const [end, a, d, turn, region, list] of spec.arms) {
    const arm = startArm(region, a, d, turn);
    arms[end] = arm;
    for (const tile of list) {
      const place = nextPlace(arm, tile[1] === tile[2], lenient) || (lenient ? straight(arm, tile[1] === tile[2]) : null);
      if (!place) return null;
      tiles.push({ ...lay(arm, tile, place), end });
    }
    // room at the end for one more tile, a double or not (and so for the end's pip count, just past it)
    if (!lenient && !(nextPlace(arm, false) && nextPlace(arm, true))) return null;
  }
  return { tiles, arms };
}

// Where a tile `text` played at `end` (its pip `pip` touching) would lie, or null.
export function ghost(arms, end, text, pip) {
  const arm = arms[end];
  if (!arm) return null;
  const [a, b] = pipsOf(text);
  const place = nextPlace(arm, a === b, true);
  if (!place) return null;
  return { text, inner: pip, outer: a === pip ? b : a, x: place.c.x, y: place.c.y, angle: angle(place.along), dir: place.d };
}

// The square just past an open end, where its pip count is shown: its centre.
export function markAt(arms, end) {
  const arm = arms[end];
  return arm ? add(arm.a, arm.d, 0.5) : null;
}

export const MAX_UNIT = 38;
export const MIN_UNIT = 4;

// The layout for a felt of width × height pixels: the largest unit (pixels per tile unit, 38 at most, less
// on a narrow felt) at which every tile and every open end's pip count lies inside the felt, the tiles
// apart. On the cross, a somewhat smaller unit (down to 70 % of the first) if it spares an arm its third
// corner (out to the edge, along it, along the next: no arm curls up while the felt has room); `clear` pixels along the felt's bottom kept free (where the table view shows its count and
// boneyard). Returns {unit, X, Y, B, tiles, arms, marks: [{end, pip, x, y}]} (tile units; the felt is
// [-X, X] × [-Y, Y], the tiles within [-X, X] × [-Y, B]).
export function layoutBoard(layout, width, height, lead = 0, clear = 0) {
  const margin = 4; // pixels kept clear along the felt's edge
  const first = Math.min(MAX_UNIT, Math.max(17, width / 14));
  const curled = (f) => layout.shape === "spinner" && Object.values(f.arms).some((arm) => arm.turns > 2);
  let unit = first, found = null, fit = null, X = 0, Y = 0, B = 0;
  for (;;) {
    X = (width / 2 - margin) / unit;
    Y = (height / 2 - margin) / unit;
    B = Math.max(1.5, (height / 2 - margin - clear) / unit);
    const last = unit * 0.92 < MIN_UNIT;
    found = X >= 1.5 && Y >= 1.5 ? arrange(layout, X, Y, lead, last, B) : null;
    if (found && !fit) fit = { found, unit, X, Y, B };
    if ((found && !curled(found)) || last || (fit && unit * 0.92 < first * 0.7)) break;
    unit *= 0.92;
  }
  if (fit && (!found || curled(found))) ({ found, unit, X, Y, B } = fit); // curled up at every size: the largest
  found = found || { tiles: [], arms: {} };
  const ends = layout.ends || {};
  const marks = Object.keys(found.arms).filter((end) => Number.isInteger(ends[end]))
    .map((end) => ({ end, pip: ends[end], ...markAt(found.arms, end) }));
  return { unit, X, Y, B, tiles: found.tiles, arms: found.arms, marks };
}
