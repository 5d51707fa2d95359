// The table's layout (capicua/web/static/js/layout.js) under Node's test runner: for 1,000 random hands of
// each game, at the felt's sizes on a phone and on a desktop, computed from the layout function itself.
// Run by tests/web/test_client_modules.py (node --test). Seeded: a failure names its seed and reproduces.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { layoutBoard, overlaps, rectOf, ghost } from "../../../capicua/web/static/js/layout.js";

// The felt's board box (.felt .board) in pixels, measured in the table view: a phone (360 × 740) and a
// desktop (1280 × 800) at a table of four, and a desktop at a table of two (a wider felt).
const FELTS = { phone: [328, 437], desktop: [516, 442], "desktop, two players": [900, 442] };
const HANDS = 1000;
// The strip along the felt's bottom the table view keeps clear for its pills (views/table/felt.js).
const CLEAR = 26;

// A small seeded generator (mulberry32).
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// A chain of n tiles from pip `from` outwards, as a layout writes an arm: "inner-outer"; doubles often.
function chain(rnd, from, n) {
  const out = [];
  let pip = from;
  for (let i = 0; i < n; i++) {
    const other = rnd() < 0.3 ? pip : Math.floor(rnd() * 7);
    out.push(`${pip}-${other}`);
    pip = other;
  }
  return out;
}
const outerOf = (arm, pip) => (arm.length ? Number(arm[arm.length - 1].split("-")[1]) : pip);

// A random Amazonense cross: the spinner and up to 27 tiles more (a double-six set), spread unevenly over
// the arms (N and S open once W and E have a tile, as A1 has it); sometimes all on one or two arms.
function spinnerHand(rnd) {
  const s = Math.floor(rnd() * 7);
  const total = Math.floor(rnd() * 28);
  const weights = [0, 1, 2, 3].map(() => (rnd() < 0.25 ? 0 : rnd() ** 2));
  if (weights.every((w) => w === 0)) weights[0] = 1;
  const counts = [0, 0, 0, 0];
  for (let i = 0; i < total; i++) {
    const open = counts[0] && counts[1] ? [0, 1, 2, 3] : [0, 1];
    const sum = open.reduce((x, k) => x + weights[k] + 0.01, 0);
    let r = rnd() * sum, k = open[0];
    for (const j of open) { r -= weights[j] + 0.01; if (r <= 0) { k = j; break; } }
    counts[k]++;
  }
  const arms = {};
  ["W", "E", "N", "S"].forEach((end, i) => { arms[end] = chain(rnd, s, counts[i]); });
  const ends = { W: outerOf(arms.W, s), E: outerOf(arms.E, s) };
  if (counts[0] && counts[1]) Object.assign(ends, { N: outerOf(arms.N, s), S: outerOf(arms.S, s) });
  return { layout: { shape: "spinner", spinner: `${s}-${s}`, arms, ends }, lead: 0 };
}

// A random line (individual, Dominousa): 1 to 28 tiles, the lead anywhere in it.
function lineHand(rnd) {
  const n = 1 + Math.floor(rnd() * 28);
  const lead = Math.floor(rnd() * n);
  const first = Math.floor(rnd() * 7);
  const right = chain(rnd, first, n - lead);
  const left = chain(rnd, Number(right[0].split("-")[0]), lead).map((p) => p.split("-").reverse().join("-")).reverse();
  const line = [...left, ...right];
  return { layout: { shape: "line", line, ends: { L: Number(line[0].split("-")[0]), R: Number(line[n - 1].split("-")[1]) } }, lead };
}

const rectsTouch = (r, q) => {
  const sx = Math.min(r[2], q[2]) - Math.max(r[0], q[0]), sy = Math.min(r[3], q[3]) - Math.max(r[1], q[1]);
  return (Math.abs(sx) < 1e-6 && sy > 0.5 - 1e-6) || (Math.abs(sy) < 1e-6 && sx > 0.5 - 1e-6);
};
const isDouble = (p) => p.inner === p.outer && !p.spinner && !p.lead;
const square = (c) => [c.x - 0.5, c.y - 0.5, c.x + 0.5, c.y + 0.5];
const cw = (d) => ({ x: -d.y, y: d.x });
const same = (a, b) => a.x === b.x && a.y === b.y;

// Everything the issue asks of one hand's layout; the problems found (empty: none).
function problems({ layout, lead }, [width, height]) {
  const found = [];
  const { unit, X, Y, B, tiles, arms, marks } = layoutBoard(layout, width, height, lead, CLEAR);
  const rects = tiles.map(rectOf);
  const count = layout.shape === "spinner" ? 1 + Object.values(layout.arms).flat().length : layout.line.length;
  if (tiles.length !== count) found.push(`${tiles.length} tiles laid of ${count}`);
  // The felt in tile units, as the page draws it: centred, width × height pixels at `unit` per unit, less
  // the strip along its bottom.
  const W = width / 2 / unit, H = height / 2 / unit, bottom = (height / 2 - CLEAR) / unit;
  const inFelt = (r) => r[0] >= -W - 1e-6 && r[2] <= W + 1e-6 && r[1] >= -H - 1e-6 && r[3] <= bottom + 1e-6;
  if (X > W || Y > H || B > bottom) found.push("the layout's bounds are larger than the felt");
  rects.forEach((r, i) => {
    if (!inFelt(r)) found.push(`${tiles[i].text} outside the felt`);
    for (let j = 0; j < i; j++) if (overlaps(r, rects[j])) found.push(`${tiles[i].text} over ${tiles[j].text}`);
  });
  const byEnd = {};
  for (const p of tiles.slice(1)) (byEnd[p.end] ||= []).push(p);
  for (const [end, list] of Object.entries(byEnd)) {
    let prev = tiles[0];
    list.forEach((p) => {
      // each tile lies against the one before it; a double with its long side against it (across its arm)
      const r = rectOf(p), q = rectOf(prev);
      if (!rectsTouch(r, q)) found.push(`${end}: ${p.text} does not touch ${prev.text}`);
      if (isDouble(p)) {
        const long = r[2] - r[0] > 1.5 ? "x" : "y";
        const shared = Math.abs(Math.min(r[2], q[2]) - Math.max(r[0], q[0])) < 1e-6 ? "y" : "x"; // along this axis
        if (long !== shared) found.push(`${end}: the double ${p.text} lies lengthwise`);
      }
      prev = p;
    });
    // straight until the edge: the first leg reaches the felt's edge before it turns (less than a tile and
    // a half short of it), and every later corner has something within that reach ahead of it: the
    // edge, a tile, or the cross's middle lanes (another arm's way out)
    let d = list[0].dir, run = d;
    list.forEach((p, i) => {
      if (same(p.dir, d)) return;
      if (layout.shape === "line" && d.y !== 0) { // a snake's U-turn: its second corner, back the other way
        if (!same(p.dir, { x: -run.x, y: 0 })) found.push(`${end}: the snake does not turn back at ${p.text}`);
        d = run = p.dir;
        return;
      }
      const r = rectOf(p);
      const reach = 2.5;
      const ahead = d.x > 0 ? [r[2], p.y - 2, r[2] + reach, p.y + 2] : d.x < 0 ? [r[0] - reach, p.y - 2, r[0], p.y + 2]
        : d.y > 0 ? [p.x - 2, r[3], p.x + 2, r[3] + reach] : [p.x - 2, r[1] - reach, p.x + 2, r[1]];
      const first = list.slice(0, i).every((q) => same(q.dir, list[0].dir));
      const edge = !(ahead[0] >= -X && ahead[2] <= X && ahead[1] >= -Y && ahead[3] <= B);
      const lanes = layout.shape === "spinner" && (overlaps(ahead, [-1, -1e9, 1, 1e9]) || overlaps(ahead, [-1e9, -1, 1e9, 1]));
      const tile = rects.some((q) => overlaps(ahead, q));
      if (first ? !edge : !(edge || lanes || tile)) found.push(`${end}: turns at ${p.text} (${p.x}, ${p.y}) short of the edge`);
      // the turn: a spinner's arms always clockwise; a snake down (R) or up (L), then back
      if (layout.shape === "spinner" && !same(p.dir, cw(d))) found.push(`${end}: turns the other way at ${p.text}`);
      if (layout.shape === "line" && d.y === 0 && p.dir.y !== (end === "R" ? 1 : -1)) found.push(`${end}: the snake turns inwards at ${p.text}`);
      d = p.dir;
    });
  }
  // each open end's pip count: shown beside the end (the square just past it), inside the felt, on no tile
  const open = Object.keys(layout.ends);
  if (marks.map((m) => m.end).sort().join() !== open.sort().join()) found.push(`marks ${marks.map((m) => m.end)} for ends ${open}`);
  for (const m of marks) {
    const r = square(m);
    if (m.pip !== layout.ends[m.end]) found.push(`${m.end}: marked ${m.pip}`);
    if (!inFelt(r)) found.push(`${m.end}: the pip count is outside the felt`);
    if (rects.some((q) => overlaps(r, q))) found.push(`${m.end}: the pip count lies on a tile`);
    const last = byEnd[m.end]?.at(-1) || tiles[0];
    if (!rectsTouch(r, rectOf(last))) found.push(`${m.end}: the pip count is not beside the end`);
    // and a tile played there would lie on the felt, on no other tile
    const g = ghost(arms, m.end, `${m.pip}-${m.pip}`, m.pip);
    const h = ghost(arms, m.end, `${m.pip}-${(m.pip + 1) % 7}`, m.pip);
    for (const t of [g, h]) {
      if (!t) { found.push(`${m.end}: nowhere to play`); continue; }
      const gr = rectOf(t);
      if (!inFelt(gr) || rects.some((q) => overlaps(gr, q))) found.push(`${m.end}: a tile played there would not fit`);
    }
  }
  return { found, unit };
}

for (const [game, hand] of [["Amazonense", spinnerHand], ["a line game", lineHand]]) {
  describe(`the layout of ${game}`, () => {
    for (const [size, felt] of Object.entries(FELTS)) {
      it(`lays ${HANDS} random hands on a ${size}'s felt: straight to the edge, no tile over another, all on the felt`, () => {
        const failures = [];
        let smallest = Infinity;
        for (let seed = 1; seed <= HANDS; seed++) {
          const h = hand(random(seed));
          const { found, unit } = problems(h, felt);
          smallest = Math.min(smallest, unit);
          if (found.length) failures.push(`seed ${seed}: ${found.slice(0, 4).join("; ")} in ${JSON.stringify(h.layout)}`);
        }
        assert.deepEqual(failures.slice(0, 5), []);
        assert.ok(smallest >= 9, `a hand drawn at ${smallest.toFixed(1)} px a unit: too small to read`);
      });
    }
  });
}

describe("the layout", () => {
  it("runs each arm of a short cross straight out and keeps the big unit", () => {
    const layout = { shape: "spinner", spinner: "6-6", arms: { W: ["6-3", "3-3"], E: ["6-1"], N: ["6-2"], S: ["6-5", "5-5"] },
      ends: { W: 3, E: 1, N: 2, S: 5 } };
    const { unit, tiles } = layoutBoard(layout, ...FELTS.desktop);
    assert.ok(unit > 30);
    const at = Object.fromEntries(tiles.map((p) => [p.text, [p.x, p.y, Math.abs(p.angle) % 180]]));
    assert.deepEqual(at, { "6-6": [0, 0, 0], "6-3": [-1.5, 0, 90], "3-3": [-3, 0, 0], "6-1": [1.5, 0, 90],
      "6-2": [0, -2, 0], "6-5": [0, 2, 0], "5-5": [0, 3.5, 90] });
  });

  it("draws a long hand smaller, as a whole, rather than off the felt", () => {
    const arm = chain(random(7), 3, 27);
    const cross = (n) => ({ shape: "spinner", spinner: "3-3", arms: { W: arm.slice(0, n), E: [], N: [], S: [] }, ends: {} });
    const line = (n) => ({ shape: "line", line: ["3-3", ...arm.slice(0, n)], ends: {} });
    for (const felt of [FELTS.phone, FELTS.desktop]) {
      assert.ok(layoutBoard(cross(20), ...felt).unit < layoutBoard(cross(3), ...felt).unit);
    }
    // a line of 28 fits a phone's felt at the full size; a replay's smaller board does not hold it
    assert.ok(layoutBoard(line(27), 320, 240, 0).unit < layoutBoard(line(3), 320, 240, 0).unit);
  });

  it("draws a cross a little smaller rather than curl an arm up while the felt has room", () => {
    // at a phone's full size, nine tiles to the west would go out, up, along the top and down again
    const W = ["6-1", "1-2", "2-3", "3-4", "4-5", "5-0", "0-1", "1-3", "3-5"];
    const layout = { shape: "spinner", spinner: "6-6", arms: { W, E: ["6-1"], N: [], S: [] }, ends: {} };
    const { unit, tiles } = layoutBoard(layout, ...FELTS.phone, 0, CLEAR);
    const dirs = tiles.filter((p) => p.end === "W").map((p) => `${p.dir.x},${p.dir.y}`);
    const corners = dirs.filter((d, i) => i && d !== dirs[i - 1]).length;
    assert.ok(corners <= 2, dirs.join(" "));
    assert.ok(unit < 23 && unit > 16, unit);
  });

  it("finds the problems it looks for", () => {
    // the checks themselves: two tiles over each other, a tile off the felt, a double lengthwise
    assert.ok(overlaps(rectOf({ x: 0, y: 0, angle: 90 }), rectOf({ x: 1, y: 0, angle: 0 })));
    assert.ok(!overlaps(rectOf({ x: 0, y: 0, angle: 90 }), rectOf({ x: 1.5, y: 0, angle: 0 })));
    assert.ok(!rectsTouch(rectOf({ x: 0, y: 0, angle: 90 }), rectOf({ x: 3, y: 0, angle: 0 })));
  });
});
