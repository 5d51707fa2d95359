// Ratings in the players' words (D1–D5): a rating with "?" while it is provisional, a change signed
// (+12, −8), a medal (gold, silver, bronze) as a small drawing, a week by its dates, a game's title.
import { el, svg } from "./dom.js";
import { gameNamed } from "./games.js";
import { fill, language, t } from "./i18n.js";

export const gameTitle = (name) => t(name, gameNamed(name)?.title);

// "1523", "1500?" (provisional); "" without a rating.
export function ratingText(r) {
  if (!r || r.rating == null) return "";
  return `${Math.round(r.rating)}${r.provisional ? "?" : ""}`;
}

// "Ana (1523)", "Bia (1500?)", or the name alone.
export function nameWithRating(name, r) {
  const text = ratingText(r);
  return text ? `${name} (${text})` : name;
}

// The rating as an element: the number, and "?" explained; paren: "(1523)", as beside a name.
export function ratingBadge(r, cls = "rating", { paren = false } = {}) {
  if (!r || r.rating == null) return null;
  return el("span", { class: `${cls}${r.provisional ? " provisional" : ""}`, title: r.provisional ? t("provisional") : t("rating") },
    paren ? "(" : null, String(Math.round(r.rating)), r.provisional ? el("abbr", { title: t("provisional") }, "?") : null, paren ? ")" : null);
}

// "+12", "−8" (a real minus sign), "±0".
export function signed(n) {
  const v = Math.round(n);
  if (v > 0) return `+${v}`;
  if (v < 0) return `\u2212${-v}`;
  return "±0";
}

export const changeClass = (n) => (Math.round(n) > 0 ? "up" : Math.round(n) < 0 ? "down" : "same");

// What a rated match did to one player, as shown: the ratings rounded, the match's part and the D3
// bonus each its own number, and they add up to what the ratings show.
export function changeParts(c) {
  const before = Math.round(c.before);
  const after = Math.round(c.after);
  const bonus = Math.round(c.bonus || 0);
  return { before, after, total: after - before, bonus, match: after - before - bonus };
}

const MEDAL_COLOURS = { 1: ["#f2c230", "#b8860b"], 2: ["#d9dde2", "#8d949c"], 3: ["#d99a5b", "#8b5a2b"] };

// A medal: a disc on its ribbon, in gold, silver or bronze (place 1, 2, 3).
export function medalIcon(place, size = 22) {
  const [face, edge] = MEDAL_COLOURS[place] || MEDAL_COLOURS[3];
  return svg("svg", { class: `medal medal-${place}`, viewBox: "0 0 24 28", width: size, height: Math.round(size * 28 / 24),
    role: "img", "aria-label": t(`medal_${place}`) },
  svg("path", { d: "M6 1h4l3 9H9zM18 1h-4l-3 9h4z", fill: place === 1 ? "#1f6b45" : place === 2 ? "#4a6fa5" : "#9c3d2e" }),
  svg("circle", { cx: 12, cy: 18, r: 8.5, fill: face, stroke: edge, "stroke-width": 2 }),
  svg("text", { x: 12, y: 22, "text-anchor": "middle", "font-size": 10, "font-weight": 700, fill: edge }, String(place)));
}

export const medalWord = (place) => t(`medal_${place}`);

// A week by its Monday ("2026-11-30"): "30/11 – 6/12" in the player's language (a calendar date: no
// time zone moves it).
export function weekRange(monday) {
  const start = new Date(`${monday}T12:00:00Z`);
  const end = new Date(start.getTime() + 6 * 86400000);
  const fmt = (d) => d.toLocaleDateString(language(), { day: "numeric", month: "short", timeZone: "UTC" });
  return fill(t("week_range"), { from: fmt(start), to: fmt(end) });
}

// A day ("2026-11-30") in the player's language, with the year.
export function dayText(date) {
  return new Date(`${date}T12:00:00Z`).toLocaleDateString(language(), { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
}

// "em 3 dias", "in 5 hours": how far an instant is from now.
export function fromNow(iso) {
  const ms = new Date(iso).getTime() - Date.now();
  const rtf = new Intl.RelativeTimeFormat(language(), { numeric: "auto" });
  const abs = Math.abs(ms);
  if (abs >= 86400000) return rtf.format(Math.round(ms / 86400000), "day");
  if (abs >= 3600000) return rtf.format(Math.round(ms / 3600000), "hour");
  return rtf.format(Math.max(1, Math.round(ms / 60000)) * Math.sign(ms || 1), "minute");
}

// The Monday a week later or earlier.
export function shiftWeek(monday, weeks) {
  const d = new Date(`${monday}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 7 * weeks);
  return d.toISOString().slice(0, 10);
}

// A link to a player's profile.
export function playerLink(id, name, attrs = {}) {
  return el("a", { href: `#/profile/${encodeURIComponent(id)}`, class: "player", ...attrs }, name || id);
}
