// What the table does when something happens: the sound of it, the speaker's bubble (a referee's decision:
// a toast in words too), and the tab's title.
import { parseAction } from "../../actions.js";
import { t } from "../../i18n.js";
import { sound } from "../../sounds.js";
import { state } from "../../state.js";
import { announceDecision } from "./decisions.js";

const BUBBLE_MS = 3500;

export function bubble(seat, text, cls = "") {
  if (seat == null) return;
  state.bubbles[seat] = { text, cls, at: Date.now() };
}

// The bubbles still showing, with how far through their life they are.
export function liveBubble(seat) {
  const b = state.bubbles[seat];
  if (!b) return null;
  const age = Date.now() - b.at;
  return age < BUBBLE_MS ? { ...b, age } : null;
}

// An event just applied (prev: the state before it, next: after).
export function react(event, prev, next) {
  const hand = next.hand;
  if (event.kind === "action" && hand) {
    const a = parseAction(event.action);
    const index = hand.history.length; // this action's number in the hand (scores[].action)
    const scored = (hand.scores || []).filter((s) => s.action === index && s.seat === a.seat)
      .reduce((sum, s) => sum + s.points, 0);
    const ended = hand.end && !(prev?.hand?.end) && prev?.hand?.hand === hand.hand;
    if (a.kind === "referee") announceDecision(event.action, next);
    else if (ended && hand.end === "batida") { bubble(a.seat, t("bubble_batida"), "big"); sound("batida"); }
    else if (a.kind === "galo" || a.galo) { bubble(a.seat, t("bubble_galo"), "big"); sound("galo"); }
    else if (a.kind === "pass") { bubble(a.seat, event.auto ? t("bubble_pass_auto") : t("bubble_pass")); sound("pass"); }
    else if (a.kind === "draw") {
      const run = trailingDraws(hand.history, a.seat);
      bubble(a.seat, run > 1 ? `${t("bubble_draw")} ×${run}` : t("bubble_draw")); sound("pass");
    } else if (a.kind === "play") { if (scored) bubble(a.seat, `+${scored}`, "points"); sound("play"); }
    else if (a.kind !== "other") bubble(a.seat, t(`act_${a.kind}`));
    if (ended && hand.end === "tranca") bubble(a.seat, t("bubble_tranca"), "big");
  }
  if (event.kind === "deal") state.picked = null;
  const mine = next.seat;
  const myTurnNow = mine != null && next.hand && next.hand.turn === mine && !next.hand.end;
  const myTurnBefore = prev && mine != null && prev.hand && prev.hand.turn === mine && !prev.hand.end && prev.hand.hand === next.hand?.hand;
  if (myTurnNow && !myTurnBefore) sound("turn");
}

function trailingDraws(history, seat) {
  let n = 0;
  for (let i = history.length - 1; i >= 0 && history[i] === `${seat}: draw`; i--) n++;
  return n;
}

// "Sua vez" in the tab's title while the tab is hidden and it is my turn.
export function updateTitle() {
  const f = state.frame;
  const myTurn = f && f.seat != null && f.hand && f.hand.turn === f.seat && !f.hand.end && f.winner == null;
  const base = t("title");
  document.title = myTurn && document.hidden ? `● ${t("your_turn")} — ${base}` : base;
}
document.addEventListener("visibilitychange", updateTitle);
