// What the table does when something happens, worked out from the event and the table before and after
// it: the speaker's bubble, the sound of it, and a referee's decision to announce (in words, with a
// bubble at the seat it concerns). The store keeps the bubbles; the table view plays the sounds and shows
// the decision.
import { parseAction } from "../../actions.js";
import { isCost } from "../../costs.js";
import { fill, t } from "../../i18n.js";
import { parseDecision } from "./decisions.js";

// A chat message's words: a quick message in my language, or the text said.
export const chatText = (m) => (m.preset ? t(`chat_${m.preset}`, m.preset) : m.text || "");

// An event just applied (prev: the state before it, next: after). Returns {bubbles: [{seat, text, cls}],
// sounds: [name], decision: the referee's decision's text or null, deal: whether a hand was dealt, costs: the
// scores a rule made this action's player give away (a pass's 20, a wrong galo, a fine: costs.js)}.
export function reactions(event, prev, next) {
  const out = { bubbles: [], sounds: [], decision: null, deal: event.kind === "deal", costs: [] };
  const bubble = (seat, text, cls = "") => out.bubbles.push({ seat, text, cls });
  const hand = next.hand;
  if (event.kind === "action" && hand) {
    const a = parseAction(event.action);
    const index = hand.history.length; // this action's number in the hand (scores[].action)
    const scored = (hand.scores || []).filter((s) => s.action === index && s.seat === a.seat)
      .reduce((sum, s) => sum + s.points, 0);
    const ended = hand.end && !(prev?.hand?.end) && prev?.hand?.hand === hand.hand;
    // a referee's fine is announced with his decision (decisions.js), the others here
    if (a.kind !== "referee") out.costs = (hand.scores || []).filter((s) => s.action === index && isCost(s));
    if (a.kind === "referee") decided(event.action, bubble, out);
    else if (ended && hand.end === "batida") { bubble(a.seat, t("bubble_batida"), "big"); out.sounds.push("batida"); }
    else if (a.kind === "galo" || a.galo) { bubble(a.seat, t("bubble_galo"), "big"); out.sounds.push("galo"); }
    else if (a.kind === "pass") { bubble(a.seat, event.auto ? t("bubble_pass_auto") : t("bubble_pass")); out.sounds.push("pass"); }
    else if (a.kind === "draw") {
      const run = trailingDraws(hand.history, a.seat);
      bubble(a.seat, run > 1 ? `${t("bubble_draw")} ×${run}` : t("bubble_draw")); out.sounds.push("pass");
    } else if (a.kind === "play") { if (scored) bubble(a.seat, `+${scored}`, "points"); out.sounds.push("play"); }
    else if (a.kind !== "other") bubble(a.seat, t(`act_${a.kind}`));
    if (ended && hand.end === "tranca") bubble(a.seat, t("bubble_tranca"), "big");
  }
  const mine = next.seat;
  const myTurnNow = mine != null && next.hand && next.hand.turn === mine && !next.hand.end;
  const myTurnBefore = prev && mine != null && prev.hand && prev.hand.turn === mine && !prev.hand.end && prev.hand.hand === next.hand?.hand;
  if (myTurnNow && !myTurnBefore) out.sounds.push("turn");
  return out;
}

// A referee's decision: announced in words, and a bubble at the seat it fines or whose tile it turns up.
function decided(text, bubble, out) {
  const d = parseDecision(text);
  if (!d) return;
  out.decision = text;
  if (d.decision === "fine") bubble(d.seat, fill(t("ref_bubble_fine"), { points: d.points }), "referee");
  else if (d.decision === "touch") bubble(d.seat, t("ref_touch"), "referee");
}

function trailingDraws(history, seat) {
  let n = 0;
  for (let i = history.length - 1; i >= 0 && history[i] === `${seat}: draw`; i--) n++;
  return n;
}
