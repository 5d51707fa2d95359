// Who is who: a seat's name and kind ("Tambaqui (Mestre)"), a bot level's name, a side's name ("Ana & Caio", or
// Nós/Eles from my seat), the score line, and which seat sits where around the felt.
import { fill, t } from "./i18n.js";

// A table's people as these helpers need them: from a frame (live) or a record's players (replays).
// { names: [...], levels: [bot level or null...], away: [...], partnerships, me: my seat or null }
export function peopleOf(frame) {
  const seats = frame.table.seats;
  return {
    names: seats.map((s, k) => s.empty ? fill(t("seat_n"), { n: k + 1 }) : s.name),
    levels: seats.map((s) => s.bot || null),
    away: seats.map((s) => Boolean(s.away)),
    empty: seats.map((s) => Boolean(s.empty)),
    partnerships: frame.hand ? frame.hand.partnerships : null,
    me: frame.seat,
  };
}

// A bot level in the players' words (Iniciante, Fácil, Médio, Difícil, Mestre): its spec may carry an
// argument (pimc:24, expert:200), which the name leaves out.
export function levelName(spec) {
  const name = String(spec).split(":")[0];
  return t(`level_${name}`, name);
}

// What a bot level does, in the players' words (the level picker's hint).
export const levelAbout = (spec) => t(`level_${String(spec).split(":")[0]}_about`, "");

// "Tambaqui (Mestre)" for a bot, the name alone for a person.
export function seatTitle(people, k) {
  const level = people.levels[k];
  return level ? `${people.names[k]} (${levelName(level)})` : people.names[k];
}

// The seats of a side: a team's two seats (partnerships), or the seat itself.
export const seatsOf = (people, side) => (people.partnerships ? [side, side + 2] : [side]);

// A side by its players' names; short: Nós/Eles from my seat (partnerships), "você" for me alone.
export function sideName(people, side, { short = false } = {}) {
  if (people.partnerships) {
    if (short && people.me != null) return side === people.me % 2 ? t("us") : t("them");
    return seatsOf(people, side).map((k) => people.names[k]).join(" & ");
  }
  if (short && people.me === side) return t("you_cap");
  return people.names[side];
}

// The side a seat plays for.
export const sideOf = (people, seat) => (people.partnerships ? seat % 2 : seat);

// "Ana & Caio 120 × 95 Bia & Davi" (two sides), or "Ana 30 · Bia 12 · Caio 40".
export function scoreLine(people, totals, opts = {}) {
  if (!totals) return "";
  if (totals.length === 2) return `${sideName(people, 0, opts)} ${totals[0]} × ${totals[1]} ${sideName(people, 1, opts)}`;
  return totals.map((p, k) => `${sideName(people, k, opts)} ${p}`).join(" · ");
}

// Where each seat sits, seen from `bottom` (my seat, or seat 0 for a spectator): play goes to the right
// (counter-clockwise, as at real tables): the next seat on the right, the partner opposite, then the left.
export function placesFrom(bottom, players) {
  const order = { 2: ["bottom", "top"], 3: ["bottom", "right", "left"], 4: ["bottom", "right", "top", "left"] }[players]
    || ["bottom", "right", "top", "left"];
  const places = {};
  for (let i = 0; i < players; i++) places[(bottom + i) % players] = order[i];
  return places; // seat → place
}
