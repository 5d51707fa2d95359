// A score that a rule makes a player give away (a pass that gives 20, a wrong galo, a fine, no double to
// lead with), said in one sentence from its side's point of view ("Zé passou: +20 para Eles", never
// "+20 passe · Zé" under the side that got it), with a link to the rule's section on the rules page.
import { el } from "./dom.js";
import { fill, hasWord, t } from "./i18n.js";
import { peopleOf, sideName } from "./names.js";

// The kinds of score a rule costs a player, and the section of the rules page that says why (#/rules/GAME/ID).
export const COSTS = { pass: "passe", "galo-wrong": "galo", "no-double": "saida", fine: "multas" };

export const isCost = (s) => s && Object.hasOwn(COSTS, s.kind) && s.points > 0;

// The rules page of a game, at a section.
export const rulesHref = (game, section = null) => `#/rules/${game}${section ? `/${section}` : ""}`;

// The sentence: who gave what to whom (a referee's fine names no seat: the referee fined; mine: "Você passou").
export function costText(s, people) {
  const side = sideName(people, s.to, { short: true });
  const name = s.seat != null ? people.names[s.seat] : null;
  const key = s.kind === "fine" && name == null ? "cost_fine_referee"
    : s.seat != null && s.seat === people.me && hasWord(`cost_${s.kind}_me`) ? `cost_${s.kind}_me` : `cost_${s.kind}`;
  return fill(t(key), { name, points: s.points, side });
}

// The sentence and its rule's link, as the children of a list item or a toast (the link's class: rule-link).
export function costBody(s, people, game) {
  return [el("span", { class: "cost-text" }, costText(s, people)), " ",
    el("a", { class: "rule-link", href: rulesHref(game, COSTS[s.kind]), "data-rule": COSTS[s.kind] }, t("rules_see"))];
}

// A row of the hand's history, or a chip of the hand's end, for such a score.
export function costItem(s, people, game, { chip = false } = {}) {
  return el("li", { class: `${chip ? "score-chip" : "score-item"} cost-item kind-${s.kind}`, "data-kind": s.kind }, costBody(s, people, game));
}

const TOAST_MS = 7000;

// The scores a rule just cost somebody, over the felt: one sentence each, with the rule's link.
export function costToast(scores, frame) {
  const felt = document.querySelector("#table .felt");
  if (!felt || !scores.length) return;
  const people = peopleOf(frame);
  document.getElementById("cost-toast")?.remove();
  // not a live region: the announcer (views/table/announcer.js) says each score once, in the moves' log
  const toast = el("div", { id: "cost-toast", class: "cost-toast" },
    el("div", { class: "cost-lines" }, scores.map((s) => el("p", { class: "cost-line", "data-kind": s.kind }, costBody(s, people, frame.table.variant)))),
    el("button", { type: "button", "aria-label": t("close"), onclick: () => toast.remove() }, "×"));
  felt.append(toast);
  setTimeout(() => toast.remove(), TOAST_MS);
}
