// A table referee's decisions (C8) as players and spectators see them: the record's notation
// (ref(NAME): fine SEAT POINTS "REASON", score SIDE POINTS, annul, award SIDE, touch SEAT TILE) in words,
// a toast when one arrives (its bubble comes from events.js), the touched tiles (C7) face up at their
// owner's seat, and the links of a table's bar: back to its tournament, and to the referee console for
// whoever may referee it.
import { api } from "../../api.js";
import { COSTS, rulesHref } from "../../costs.js";
import { $, el } from "../../dom.js";
import { gameNamed } from "../../games.js";
import { fill, t } from "../../i18n.js";
import { peopleOf, sideName } from "../../names.js";
import { norm, tile, tileName } from "../../tiles.js";
import { mark } from "../tournament/marks.js";

const TOAST_MS = 7000;

// {who, decision, seat, points, tile, reason} from "ref(Juiz): fine 1 20 \"sinal ao parceiro\"", or null.
export function parseDecision(text) {
  if (typeof text !== "string" || !text.startsWith("ref(")) return null;
  const close = text.indexOf("):");
  if (close < 0) return null;
  const who = text.slice(4, close).trim();
  const rest = text.slice(close + 2).trim();
  const quote = rest.indexOf('"');
  let reason = "";
  if (quote >= 0) {
    try { reason = JSON.parse(rest.slice(quote)); } catch { reason = rest.slice(quote + 1).replace(/"$/, ""); }
  }
  const [decision, ...args] = (quote >= 0 ? rest.slice(0, quote) : rest).trim().split(/\s+/);
  const d = { who, decision, seat: null, points: null, tile: null, reason };
  if (decision === "fine" || decision === "score") { d.seat = Number(args[0]); d.points = Number(args[1]); }
  else if (decision === "award") d.seat = Number(args[0]);
  else if (decision === "touch") { d.seat = Number(args[0]); d.tile = args[1] || null; }
  return d;
}

// What the referee decided, without his name: "multa de 20 a Ana", "pedra tocada de Bia: 6-4".
export function decisionWhat(d, people) {
  const name = d.seat != null ? people.names[d.seat] ?? d.seat : "";
  const side = d.seat != null ? sideName(people, d.seat) : "";
  switch (d.decision) {
    case "fine": return fill(t("ref_w_fine"), { points: d.points, name });
    case "score": return fill(t("ref_w_score"), { points: d.points > 0 ? `+${d.points}` : d.points, side });
    case "annul": return t("ref_w_annul");
    case "award": return fill(t("ref_w_award"), { side });
    case "touch": return fill(t("ref_w_touch"), { name, tile: d.tile ? tileName(d.tile) : "?" });
    default: return d.decision;
  }
}

// The whole sentence: "Árbitro Juiz: multa de 20 a Ana — sinal ao parceiro".
export function decisionText(d, people) {
  return `${fill(t("ref_says"), { who: d.who, what: decisionWhat(d, people) })}${d.reason ? ` — ${d.reason}` : ""}`;
}

// A decision's row body in the hand's history (the referee's name, what, why).
export function decisionBody(text, people) {
  const d = parseDecision(text);
  if (!d) return el("span", { class: "what" }, text);
  return el("span", { class: "what ref-decision" }, el("strong", { class: "ref-who" }, fill(t("ref_says"), { who: d.who, what: "" }).trim()),
    " ", el("span", { class: "ref-what" }, decisionWhat(d, people)),
    d.reason ? el("span", { class: "ref-reason" }, ` — ${d.reason}`) : null);
}

// A decision just arrived: a toast over the table, in words.
export function announceDecision(text, frame) {
  const d = parseDecision(text);
  if (!d) return;
  const people = peopleOf(frame);
  const felt = $("#table .felt");
  if (!felt) return;
  $("#ref-toast")?.remove();
  // not a live region: the announcer's log (keys.js) says the decision once, in its place among the moves
  const toast = el("div", { id: "ref-toast", class: "ref-toast" },
    mark("whistle"), el("span", {}, decisionText(d, people)),
    d.decision === "fine" ? el("a", { class: "rule-link", href: rulesHref(frame.table.variant, COSTS.fine), "data-rule": COSTS.fine }, t("rules_see")) : null,
    el("button", { type: "button", class: "ref-toast-close", "aria-label": t("close"), onclick: () => toast.remove() }, "×"));
  felt.append(toast); // over the felt, clear of the seats
  setTimeout(() => toast.remove(), TOAST_MS);
}

// The touched tiles of seat k still in his hand (C7: they lie face up for everyone).
export function touchedOf(frame, k) {
  return frame.hand?.public?.touched?.[k] || [];
}

// Seat k's touched tiles, drawn face up (null when none).
export function touchedTiles(frame, k) {
  const tiles = touchedOf(frame, k);
  if (!tiles.length) return null;
  return el("span", { class: "touched", title: t("ref_touched_help"), "data-seat": k },
    el("span", { class: "touched-label" }, t("ref_touched")),
    tiles.map((x) => tile(x, { cls: "small", lying: false })));
}

// Whether tile (any order of halves) is one of my touched tiles.
export const isTouched = (frame, seat, text) => touchedOf(frame, seat).some((x) => norm(x) === norm(text));

// Who may referee which table (GET /api/tables/ID's `referee`), asked once per table and identity.
const mayReferee = new Map();

function refereeKnown(frame, redraw) {
  const key = `${frame.table.id}:${localStorage.getItem("capicua.token") || ""}`;
  if (!mayReferee.has(key)) {
    mayReferee.set(key, null);
    api(`/api/tables/${frame.table.id}`).then((s) => { mayReferee.set(key, Boolean(s.referee)); if (s.referee) redraw(); })
      .catch(() => mayReferee.set(key, false));
  }
  return mayReferee.get(key) === true;
}

// The links of a table's bar: its tournament's page, and the referee console (for a spectator who may referee).
export function tableLinks(frame, redraw) {
  const tb = frame.table;
  const out = [];
  if (tb.tournament) {
    out.push(el("a", { class: "bar-link tour-link", href: `#/tournament/${tb.tournament}`, title: t("tour_tournament"),
      "aria-label": t("tour_tournament") }, mark("bracket"), el("span", { class: "label" }, t("tour_tournament"))));
  }
  // only a game with referees (GET /api/variants' `referee`), at a tournament's table or a strict one
  const refereed = gameNamed(tb.variant)?.referee && (tb.tournament || tb.options?.strict);
  if (refereed && frame.seat == null && tb.status !== "finished" && !location.hash.startsWith("#/referee/") && refereeKnown(frame, redraw)) {
    out.push(el("a", { class: "bar-link ref-link", id: "open-referee", href: `#/referee/${tb.id}`, title: t("ref_console") },
      mark("whistle"), el("span", { class: "label" }, t("ref_referee_this"))));
  }
  return out;
}
