// The hand's history beside the felt: every play, pass, draw and call with its player's name, a referee's
// decisions in words, and the scores each earned; the last one lit.
import { actionBody, parseAction } from "../../actions.js";
import { el } from "../../dom.js";
import { fill, t } from "../../i18n.js";
import { scoreItem } from "../../outcome.js";
import { decisionBody } from "./decisions.js";

export function renderHistory(box, frame, people) {
  const hand = frame.hand;
  const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
  if (!hand) { box.replaceChildren(el("p", { class: "muted" }, t("no_history"))); return; }
  const scores = hand.scores || [];
  const rows = hand.history.map((text, i) => {
    const a = parseAction(text);
    const mine = scores.filter((s) => s.action === i + 1);
    const who = a.seat != null ? people.names[a.seat] : a.kind === "time" ? "" : t("referee");
    return el("li", { class: `move${i === hand.history.length - 1 ? " last" : ""}`, "data-seat": a.seat ?? "", "data-kind": a.kind },
      el("span", { class: "no" }, i + 1), a.kind === "referee" ? decisionBody(text, people) : [el("span", { class: "who" }, who), actionBody(a)],
      mine.length ? el("ul", { class: "earned" }, mine.map((s) => scoreItem(s, people, { short: true }))) : null);
  });
  box.replaceChildren(el("h3", {}, fill(t("hand_n"), { n: hand.hand })),
    rows.length ? el("ol", { class: "moves", "aria-label": t("history_panel") }, rows) : el("p", { class: "muted" }, t("no_history")));
  if (atBottom || rows.length) box.scrollTop = box.scrollHeight;
}
