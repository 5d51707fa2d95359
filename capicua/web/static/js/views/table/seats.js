// The seats around the felt: each with its name, rating and kind, the tiles it holds (face down), its move
// clock, its touched tiles face up (C7), and a speech bubble with its last action or message.
import { el } from "../../dom.js";
import { icon } from "../../icons.js";
import { plural, t } from "../../i18n.js";
import { levelName, placesFrom, seatTitle } from "../../names.js";
import { ratingBadge } from "../../ratings.js";
import { tileBacks } from "../../tiles.js";
import { touchedTiles } from "./decisions.js";

// The seat at the bottom: mine, or seat 0 for a spectator.
export const bottomSeat = (frame) => frame.seat ?? 0;

export function seatPlaces(frame) {
  return placesFrom(bottomSeat(frame), frame.table.players);
}

// The move clock of seat k: counting down while it runs, the full time (dimmed) for a person waiting.
export function clockOf(frame, k) {
  const hand = frame.hand;
  const s = frame.table.seats[k];
  if (!hand || hand.end || frame.winner != null || s.empty) return null;
  const c = frame.clock || {};
  if (c.seat === k && c.deadline) {
    return el("span", { class: "clock running", "data-deadline": c.deadline, role: "timer", "aria-label": t("clock") },
      icon("clock"), el("span", { class: "left" }, ""));
  }
  if (hand.turn === k) return el("span", { class: "thinking", "aria-label": t("thinking") }, el("i"), el("i"), el("i"));
  if (s.bot || s.away) return null;
  const secs = frame.table.options.move_seconds;
  return el("span", { class: "clock idle", "aria-label": t("clock") }, icon("clock"),
    el("span", { class: "left" }, `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}`));
}

export function seatChip(store, people, k, place, extra = null) {
  const frame = store.frame;
  const s = frame.table.seats[k];
  const hand = frame.hand;
  const me = frame.seat === k;
  const count = hand ? hand.counts[k] : null;
  const b = store.liveBubble(k);
  const turn = hand && !hand.end && hand.turn === k && frame.winner == null;
  const cls = ["seat-chip", `place-${place}`, turn ? "turn" : "", me ? "me" : "", s.away ? "away" : "", s.empty ? "empty" : "",
    hand?.partnerships ? `side-${k % 2}` : ""].join(" ");
  const kind = s.empty ? null : s.bot ? levelName(s.bot) : s.bot_account ? t("bot_label") : s.away ? t("away") : me ? t("you") : null;
  return el("div", { class: cls, "data-seat": k, "aria-label": `${seatTitle(people, k)}${turn ? ` — ${t("their_turn")}` : ""}` },
    el("div", { class: "who" }, icon(s.bot || s.bot_account ? "bot" : "user"),
      el("span", { class: "name", title: seatTitle(people, k) }, s.empty ? t(s.kept_for ? "seat_kept" : "empty_seat") : s.name),
      s.empty || s.bot ? null : ratingBadge(s.rating, "rating seat-rating", { paren: true })),
    el("div", { class: "meta" },
      count != null && !(me && frame.seat != null) ? tileBacks(count, plural(count, "tiles")) : null,
      count != null && !(me && frame.seat != null) ? el("span", { class: "count", "aria-hidden": "true" }, count) : null,
      kind ? el("span", { class: "kind" }, kind) : null,
      clockOf(frame, k)),
    me && frame.seat != null ? null : touchedTiles(frame, k),
    extra,
    b ? el("span", { class: `bubble ${b.cls}`, "aria-hidden": "true", style: `animation-delay: -${b.age}ms` }, b.text) : null);
}

// Fill the slots (top, left, right, bottom) of the table with its seats.
export function renderSeats(store, people, slots, bottomExtra) {
  const places = seatPlaces(store.frame);
  for (const slot of Object.values(slots)) slot.replaceChildren();
  for (const [k, place] of Object.entries(places)) {
    const seat = Number(k);
    slots[place].append(seatChip(store, people, seat, place));
    if (place === "bottom" && bottomExtra) slots.bottom.append(bottomExtra);
  }
}

// Only the seats' move clocks drawn again, in the chips already there (the last thing in each one's meta).
export function renderClocks(frame, root) {
  for (const chip of root.querySelectorAll(".seat-chip[data-seat]")) {
    const meta = chip.querySelector(".meta");
    if (!meta) continue;
    const old = meta.querySelector(":scope > .clock, :scope > .thinking");
    const clock = clockOf(frame, Number(chip.dataset.seat));
    if (old && clock) old.replaceWith(clock);
    else if (old) old.remove();
    else if (clock) meta.append(clock);
  }
}
