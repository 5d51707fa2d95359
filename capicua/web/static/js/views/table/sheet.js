// The score sheet ("marcador" / "anotador"), as players keep it on paper beside the table: one row a hand with
// each side's points (a zero as —) and the running totals under them, the hand in play marked as such (its
// points so far: in Amazonense the table counts score during the hand); each row's reasons shown on demand.
import { el } from "../../dom.js";
import { t } from "../../i18n.js";
import { sideName } from "../../names.js";
import { pointsByReason } from "../../outcome.js";

const cell = (n) => (n ? String(n) : "—");

export function scoreSheet(frame, people, open, toggle) {
  const hands = frame.hands || [];
  if (!hands.length || !frame.totals) return el("p", { class: "muted" }, t("sheet_none"));
  const sides = frame.totals.map((_, k) => k);
  const running = sides.map(() => 0);
  const rows = [];
  hands.forEach((h, i) => {
    sides.forEach((k) => { running[k] += h.points[k] || 0; });
    const playing = h.end == null;
    const shown = open.has(i);
    const why = sides.map((k) => pointsByReason(h.scores, k));
    const has = why.some(Boolean);
    rows.push(el("tr", { class: `sheet-row${playing ? " playing" : ""}`, "data-hand": i + 1 },
      el("th", { scope: "row" }, has
        ? el("button", { type: "button", class: "why-toggle", "aria-expanded": shown ? "true" : "false",
          "aria-label": `${t("hand_no")} ${i + 1}: ${t("sheet_why")}`, onclick: () => toggle(i) }, String(i + 1), el("span", { "aria-hidden": "true" }, shown ? " ▾" : " ▸"))
        : String(i + 1)),
      sides.map((k) => el("td", { class: "pts" }, el("span", { class: "got" }, cell(h.points[k])),
        el("span", { class: "sum" }, String(running[k])))),
      el("td", { class: "state" }, playing ? t("sheet_playing") : "")));
    if (shown && has) {
      rows.push(el("tr", { class: "why-row" }, el("td", {}),
        sides.map((k) => el("td", { class: "why" }, why[k] || "—")), el("td", {})));
    }
  });
  return el("table", { class: "score-sheet", "aria-label": t("sheet") },
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "#"),
      sides.map((k) => el("th", { scope: "col", class: `sheet-side side-${people.partnerships ? k % 2 : k}` }, sideName(people, k, { short: true }))),
      el("th", { scope: "col" }, el("span", { class: "sr" }, t("sheet_state"))))),
    el("tbody", {}, rows),
    el("tfoot", {}, el("tr", {}, el("th", { scope: "row" }, t("sheet_total")),
      sides.map((k) => el("td", { class: "pts total" }, String(frame.totals[k]))), el("td", {}))));
}
