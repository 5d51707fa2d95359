// The side panel's first part, in two tabs: the hand's history beside the felt (every play, pass, draw and
// call with its player's name, a referee's decisions in words, and the scores each earned; the last one lit),
// and the match's score sheet (sheet.js).
import { actionBody, parseAction } from "../../actions.js";
import { costItem, isCost } from "../../costs.js";
import { el } from "../../dom.js";
import { fill, t } from "../../i18n.js";
import { scoreItem } from "../../outcome.js";
import { decisionBody } from "./decisions.js";
import { scoreSheet } from "./sheet.js";

// The tabs: `tab` ("moves" or "sheet") is shown; choose(tab) shows another.
function tabs(tab, choose) {
  const one = (name, word) => el("button", { type: "button", role: "tab", id: `tab-${name}`, class: "panel-tab",
    "aria-selected": tab === name ? "true" : "false", "aria-controls": `panel-${name}`, onclick: () => choose(name) }, t(word));
  return el("div", { class: "panel-tabs", role: "tablist", "aria-label": t("history_panel") },
    one("moves", "moves_tab"), one("sheet", "sheet"));
}

// The panel's tab bar, made once (a click on a tab never meets a bar being replaced), and its body to fill.
function panelBody(box, tab, choose) {
  let bar = box.querySelector(":scope > .panel-tabs");
  if (!bar) {
    bar = tabs(tab, choose);
    box.replaceChildren(bar, el("div", { class: "panel-body", role: "tabpanel" }));
  }
  for (const b of bar.querySelectorAll(".panel-tab")) b.setAttribute("aria-selected", b.id === `tab-${tab}` ? "true" : "false");
  const body = box.querySelector(":scope > .panel-body");
  body.id = `panel-${tab}`;
  body.setAttribute("aria-labelledby", `tab-${tab}`);
  return body;
}

export function renderHistory(box, frame, people, { tab = "moves", choose = () => {}, open = new Set(), toggle = () => {} } = {}) {
  const body = panelBody(box, tab, choose);
  if (tab === "sheet") {
    body.replaceChildren(scoreSheet(frame, people, open, toggle));
    return;
  }
  const hand = frame.hand;
  const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
  if (!hand) { body.replaceChildren(el("p", { class: "muted" }, t("no_history"))); return; }
  const scores = hand.scores || [];
  const rows = hand.history.map((text, i) => {
    const a = parseAction(text);
    const mine = scores.filter((s) => s.action === i + 1);
    const who = a.seat != null ? people.names[a.seat] : a.kind === "time" ? "" : t("referee");
    return el("li", { class: `move${i === hand.history.length - 1 ? " last" : ""}`, "data-seat": a.seat ?? "", "data-kind": a.kind },
      el("span", { class: "no" }, i + 1), a.kind === "referee" ? decisionBody(text, people) : [el("span", { class: "who" }, who), actionBody(a)],
      mine.length ? el("ul", { class: "earned" }, mine.map((s) => (isCost(s) ? costItem(s, people, frame.table.variant)
        : scoreItem(s, people, { short: true })))) : null);
  });
  body.replaceChildren(el("h3", {}, fill(t("hand_n"), { n: hand.hand })),
    rows.length ? el("ol", { class: "moves", "aria-label": t("history_panel") }, rows) : el("p", { class: "muted" }, t("no_history")));
  if (atBottom || rows.length) box.scrollTop = box.scrollHeight;
}
