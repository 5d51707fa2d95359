// How a hand ended and why each score was given, in the players' words, with their names.
import { el } from "./dom.js";
import { fill, t } from "./i18n.js";
import { seatsOf, sideName } from "./names.js";


// The hand's outcome: the server's (hand.outcome), or what the hand itself tells.
export function outcomeOf(hand) {
  if (!hand || !hand.end) return null;
  if (hand.outcome) return hand.outcome;
  const seat = hand.end === "batida" ? hand.public?.last ?? null : null;
  return { termination: hand.end, winner: null, seat };
}

// "Ana bateu", "Tranca — Ana & Caio ganham", "Mão anulada"…
export function outcomeText(outcome, people) {
  if (!outcome) return "";
  const { termination, winner, seat } = outcome;
  const side = winner == null ? null : sideName(people, winner);
  const number = winner != null && seatsOf(people, winner).length > 1 ? "other" : "one";
  if (termination === "batida" && seat != null) return fill(t("outcome_batida"), { name: people.names[seat] });
  if (termination === "tranca") return side ? fill(t(`outcome_tranca_${number}`), { side }) : t("outcome_tranca_tie");
  if (termination === "awarded" && side) return fill(t(`outcome_awarded_${number}`), { side });
  if (termination === "tranca-plain") return t("end_tranca"); // a past hand whose winner the scoreboard does not say
  return t(`end_${termination}`, termination);
}

// A score: "+20 · pontas (Caio) → Ana & Caio" as a row of the lists.
export function scoreItem(s, people, opts = {}) {
  const by = s.seat != null ? people.names[s.seat] : null;
  if (opts.chip) { // grouped under its side already: the points and why
    return el("li", { class: `score-chip kind-${s.kind}`, "data-kind": s.kind }, el("strong", {}, s.points >= 0 ? `+${s.points}` : `${s.points}`),
      " ", t(`kind_${s.kind}`, s.kind), by ? el("span", { class: "by" }, ` · ${by}`) : null);
  }
  return el(opts.tag || "li", { class: `score-item kind-${s.kind}`, "data-kind": s.kind },
    el("span", { class: "points" }, s.points >= 0 ? `+${s.points}` : `${s.points}`),
    el("span", { class: "reason" }, t(`kind_${s.kind}`, s.kind), by ? el("span", { class: "by" }, ` (${by})`) : null),
    el("span", { class: "to" }, sideName(people, s.to, opts)));
}

// A hand's points of one side, by reason: "pontas 45 · batida 20".
export function pointsByReason(scores, side) {
  const sums = new Map();
  for (const s of scores || []) if (s.to === side) sums.set(s.kind, (sums.get(s.kind) || 0) + s.points);
  return [...sums].map(([kind, n]) => `${t(`kind_${kind}`, kind)} ${n}`).join(" · ");
}

// The score, big: each side's names over its points (two sides face each other: A 120 × 95 B).
export function scoreBoard(people, totals, { cls = "" } = {}) {
  if (!totals) return null;
  const side = (k) => el("div", { class: `side side-${people.partnerships ? k % 2 : k}`, "data-side": k },
    el("span", { class: "names" }, sideName(people, k)), el("strong", { class: "pts" }, totals[k]));
  const parts = totals.length === 2 ? [side(0), el("span", { class: "times", "aria-hidden": "true" }, "×"), side(1)] : totals.map((_, k) => side(k));
  return el("div", { class: `big-score ${cls}`.trim(), role: "group", "aria-label": t("score") }, parts);
}
