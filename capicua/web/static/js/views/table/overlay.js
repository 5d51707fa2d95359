// Between hands: over the felt, how the hand ended, every hand shown (once it is public), each score
// with its reason, the score, and the countdown to the next deal with a "Próxima mão" button (players).
// The hand that ends the match is shown the same way, beside the final board (below it on a phone), with
// the countdown to the match's result and a "Ver resultado" button.
import { costItem, isCost } from "../../costs.js";
import { el } from "../../dom.js";
import { plural, t } from "../../i18n.js";
import { sideName } from "../../names.js";
import { outcomeOf, outcomeText, scoreBoard, scoreItem } from "../../outcome.js";
import { send } from "../../socket.js";
import { pips, tile } from "../../tiles.js";
import { seatPlaces } from "./seats.js";

const ORDER = ["bottom", "right", "top", "left"];

// last: the hand that ended the match, shown beside the final board (until: when its result comes, in ms;
// seeResult: show the result now) rather than over it.
export function handOverlay(frame, people, { last = false, until = null, seeResult = null } = {}) {
  const hand = frame.hand;
  if (!hand || !hand.end || (frame.winner != null && !last)) return null;
  const outcome = outcomeOf(hand);
  const places = seatPlaces(frame);
  const seats = Object.keys(places).map(Number).sort((a, b) => ORDER.indexOf(places[a]) - ORDER.indexOf(places[b]));
  const revealed = hand.revealed
    ? el("div", { class: "revealed", "aria-label": t("hands_revealed") }, seats.map((k) => {
      const tiles = hand.revealed[k] || [];
      const sum = tiles.reduce((n, p) => n + pips(p)[0] + pips(p)[1], 0);
      return el("div", { class: "hand-row", "data-seat": k }, el("span", { class: "name" }, people.names[k]),
        el("span", { class: "tiles" }, tiles.length ? tiles.map((p) => tile(p, { cls: "small" })) : el("em", {}, t("went_out"))),
        tiles.length ? el("span", { class: "sum" }, plural(sum, "points")) : null);
    }))
    : null;
  const next = frame.clock?.next_deal;
  const seated = frame.seat != null;
  const nextBox = last
    ? el("div", { class: "next-deal" },
      until ? el("span", { class: "countdown", "data-until": new Date(until).toISOString(), "data-text": t("result_in") }, "") : null,
      el("button", { class: "primary", id: "see-result", onclick: () => seeResult?.() }, t("see_result")))
    : el("div", { class: "next-deal" },
      next ? el("span", { class: "countdown", "data-until": next, "data-text": t("next_deal_in") }, "") : null,
      seated ? el("button", { class: "primary", id: "next-hand", onclick: async (e) => {
        e.currentTarget.disabled = true;
        await send({ type: "next", table: frame.table.id });
      } }, t("next_hand")) : null);
  return el("section", { class: `hand-over${last ? " last-hand-over" : ""}`, role: last ? "region" : "dialog",
    "aria-labelledby": "hand-over-title" },
    last ? el("p", { class: "match-ends" }, t("last_hand_over")) : null,
    el("h2", { id: "hand-over-title", class: "outcome" }, outcomeText(outcome, people)),
    revealed,
    hand.scores?.length
      ? el("div", { class: "hand-sides", "aria-label": t("hand_scores") }, hand.points.map((points, side) =>
        el("div", { class: `hand-side side-${people.partnerships ? side % 2 : side}`, "data-side": side },
          el("p", { class: "head" }, el("span", { class: "names" }, sideName(people, side)), el("strong", {}, `+${points}`)),
          el("ul", { class: "scores" }, hand.scores.filter((s) => s.to === side).map((s) => (isCost(s)
            ? costItem(s, people, frame.table.variant, { chip: true }) : scoreItem(s, people, { chip: true })))))))
      : el("p", { class: "no-scores" }, t("no_scores")),
    scoreBoard(people, frame.totals, { cls: "totals" }),
    nextBox);
}
