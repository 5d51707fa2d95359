// The rating-history chart of a profile, drawn here as inline SVG (no library, no CDN): one line per game,
// each point a rated match in the order they were played (every game on one axis, so the lines keep their
// order in time), the rating before the first match as each line's start, the rating axis with round
// numbers, the dates under it, and each line's last value at its end. Drawn for the width it is given.
import { svg } from "./dom.js";
import { allGames } from "./games.js";
import { language, t } from "./i18n.js";
import { changeParts, gameTitle, signed } from "./ratings.js";

// A colour per game, by its place in the server's list of games (GET /api/variants).
const PALETTE = ["#1f7a4d", "#d0731c", "#3b7fc4", "#7b4fa0", "#9c3d2e", "#4a6f6f"];
export function colourOf(game) {
  const k = allGames().findIndex((g) => g.name === game);
  return PALETTE[(k < 0 ? 0 : k) % PALETTE.length];
}

// Round steps for the rating axis: 3 to 6 lines between the lowest and highest rating.
function ticks(lo, hi) {
  const span = Math.max(hi - lo, 20);
  const step = [5, 10, 20, 25, 50, 100, 200, 250, 500].find((s) => span / s <= 5) || 1000;
  const first = Math.floor(lo / step) * step;
  const last = Math.ceil(hi / step) * step;
  const out = [];
  for (let v = first; v <= last + 1e-9; v += step) out.push(v);
  return out;
}

const day = (iso) => new Date(iso).toLocaleDateString(language(), { day: "numeric", month: "short" });

// history: {game: [{at, before, delta, bonus, after, won}]} (oldest first), games: the order of the lines.
export function ratingChart(history, games, width = 640) {
  const w = Math.max(280, Math.round(width));
  const narrow = w < 480;
  const h = narrow ? 210 : 250;
  const pad = { left: 40, right: narrow ? 46 : 54, top: 12, bottom: 26 };
  // every change of every game, in the order they were played: its place on the x axis
  const all = games.flatMap((g) => (history[g] || []).map((c) => ({ game: g, c })));
  all.sort((a, b) => (a.c.at < b.c.at ? -1 : a.c.at > b.c.at ? 1 : 0));
  const series = games.map((g) => ({ game: g, points: [] }));
  const byGame = Object.fromEntries(series.map((s) => [s.game, s]));
  all.forEach(({ game, c }, i) => {
    const s = byGame[game];
    if (!s.points.length) s.points.push({ x: i, y: c.before, start: true, c });
    s.points.push({ x: i + 1, y: c.after, c });
  });
  const used = series.filter((s) => s.points.length);
  const ys = used.flatMap((s) => s.points.map((p) => p.y));
  const ticksY = ticks(Math.min(...ys), Math.max(...ys));
  const y0 = ticksY[0];
  const y1 = ticksY[ticksY.length - 1];
  const xMin = Math.min(...used.map((s) => s.points[0].x));
  const xMax = Math.max(all.length, xMin + 1);
  const X = (x) => pad.left + ((x - xMin) / (xMax - xMin)) * (w - pad.left - pad.right);
  const Y = (y) => pad.top + (1 - (y - y0) / (y1 - y0 || 1)) * (h - pad.top - pad.bottom);
  const f = (n) => n.toFixed(1);

  const grid = ticksY.map((v) => svg("g", { class: "tick" },
    svg("line", { x1: pad.left, x2: w - pad.right, y1: f(Y(v)), y2: f(Y(v)) }),
    svg("text", { x: pad.left - 6, y: f(Y(v) + 4), "text-anchor": "end" }, String(v))));
  // dates under the axis: the first and last match, and one between when there is room
  const dates = [];
  if (all.length) {
    const marks = all.length > 2 && !narrow ? [0, Math.floor((all.length - 1) / 2), all.length - 1] : [0, all.length - 1];
    // a day is named once (the first of its marks keeps the label)
    const named = [];
    for (const k of [...new Set(marks)]) {
      const text = day(all[k].c.at);
      if (!named.length || named[named.length - 1].text !== text) named.push({ k, text });
    }
    named.forEach(({ k, text }, i) => {
      const anchor = named.length === 1 ? "end" : i === 0 ? "start" : i === named.length - 1 ? "end" : "middle";
      const x = named.length === 1 ? X(xMax) : X(k + 1);
      dates.push(svg("text", { class: "date", x: f(x), y: h - 8, "text-anchor": anchor }, text));
    });
  }
  const lines = used.map((s) => {
    const colour = colourOf(s.game);
    const d = s.points.map((p, i) => `${i ? "L" : "M"}${f(X(p.x))} ${f(Y(p.y))}`).join(" ");
    const dots = s.points.length <= 80 ? s.points.filter((p) => !p.start).map((p) => svg("circle", {
      class: `dot${p.c.won ? " won" : " lost"}`, cx: f(X(p.x)), cy: f(Y(p.y)), r: narrow ? 2.6 : 3, fill: colour },
    svg("title", {}, `${gameTitle(s.game)} · ${day(p.c.at)} · ${Math.round(p.y)} (${signed(changeParts(p.c).total)})`))) : [];
    // a game not played since: its rating stays where it was, to the end of the axis
    const last = s.points[s.points.length - 1];
    const rest = last.x < xMax ? svg("line", { class: "since", x1: f(X(last.x)), x2: f(X(xMax)), y1: f(Y(last.y)), y2: f(Y(last.y)), stroke: colour }) : null;
    return svg("g", { class: "series", "data-game": s.game }, rest,
      svg("path", { class: "line", d, stroke: colour, "data-game": s.game, "data-points": s.points.length }), dots);
  });
  // each line's last value at its end, moved apart when two would overlap
  const labels = used.map((s) => {
    const p = s.points[s.points.length - 1];
    return { s, x: X(p.x), y: Y(p.y), value: Math.round(p.y) };
  }).sort((a, b) => a.y - b.y);
  for (let i = 1; i < labels.length; i++) labels[i].y = Math.max(labels[i].y, labels[i - 1].y + 14);
  const ends = labels.map((l) => svg("g", { class: "last", "data-game": l.s.game },
    svg("text", { x: f(w - pad.right + 6), y: f(l.y + 4), fill: colourOf(l.s.game) }, String(l.value))));
  const label = used.map((s) => `${gameTitle(s.game)}: ${Math.round(s.points[s.points.length - 1].y)}`).join(", ");
  return svg("svg", { class: "rating-chart", viewBox: `0 0 ${w} ${h}`, width: w, height: h, role: "img",
    "aria-label": `${t("rating_history")}: ${label}` },
  svg("g", { class: "grid" }, grid), svg("g", { class: "dates" }, dates), svg("g", { class: "lines" }, lines), svg("g", { class: "ends" }, ends));
}
