// The table in sentences, for a player who does not see it (issue 22, item 15): every play, pass, draw,
// call, score and hand's end in the page's language ("Boto jogou seis e quatro na ponta leste, pontas 15:
// mais 15 para Eles"), built here and nowhere else from the table's events (the state before and after
// each), and the answers to the keys that ask (keys.js): the ends, the tiles each one holds, my tiles, the
// score. Plain data in, strings out, no DOM: Node's test runner checks it (tests/web/js/announcer.test.mjs);
// keys.js puts the sentences in the page's live region.
import { parseAction } from "../../actions.js";
import { fill, plural, t } from "../../i18n.js";
import { peopleOf, placesFrom, seatsOf, sideName } from "../../names.js";
import { outcomeOf, outcomeText } from "../../outcome.js";
import { norm, pips, tileName } from "../../tiles.js";
import { decisionText, parseDecision } from "./decisions.js";

const endWord = (end) => t(`end_${end}`).toLocaleLowerCase();

// "mais 15 para Eles" (a side by Nós/Eles from my seat, or its names), "menos 10 para Ana".
function pointsTo(s, people) {
  const side = sideName(people, s.to, { short: true });
  return fill(t(s.points < 0 ? "say_minus" : "say_plus"), { n: Math.abs(s.points), side });
}

// One score of a play or pass, in words: "pontas 15: mais 15 para Eles", "passe: mais 20 para Nós".
function scoreClause(s, people, hand) {
  if (s.kind === "table") return `${fill(t("say_count"), { n: hand.layout?.count ?? s.points })}: ${pointsTo(s, people)}`;
  return `${t(`kind_${s.kind}`, s.kind)}: ${pointsTo(s, people)}`;
}

// The scores that came with this event: those the state after has beyond the state before (the same hand).
function newScores(prev, next) {
  const scores = next.hand?.scores || [];
  const same = prev?.hand && prev.hand.hand === next.hand?.hand;
  return same ? scores.slice((prev.hand.scores || []).length) : scores;
}

// The tiles I hold now that I did not hold before (what I drew).
function gained(prev, next) {
  const before = new Set((prev?.hand?.tiles || []).map(norm));
  return (next.hand?.tiles || []).map(norm).filter((p) => !before.has(p));
}

// What an action did, in a clause: "Boto jogou seis e quatro na ponta leste", "Ana passou".
function actionClause(a, event, people, prev, next) {
  const name = a.seat != null ? people.names[a.seat] : "";
  switch (a.kind) {
    case "play": {
      const tile = tileName(a.tile);
      const main = a.end ? fill(t("say_play"), { name, tile, end: endWord(a.end) }) : fill(t("say_lead"), { name, tile });
      return a.galo ? `${main}, ${t("bubble_galo")}` : main;
    }
    case "pass": return fill(t(event.auto ? "say_pass_auto" : "say_pass"), { name });
    case "draw": {
      const mine = next.seat != null && a.seat === next.seat ? gained(prev, next) : [];
      return mine.length ? fill(t("say_drew_tile"), { name, tile: mine.map(tileName).join(", ") }) : fill(t("say_drew"), { name });
    }
    case "galo": return fill(t("say_galo"), { name });
    case "time": return t("act_time");
    case "referee": {
      const d = parseDecision(event.action);
      return d ? decisionText(d, people) : event.action;
    }
    case "other": return name ? `${name}: ${a.text}` : a.text;
    default: return `${name} ${t(`act_${a.kind}`, a.kind)}`;
  }
}

// "Placar: Nós 35, Eles 20" (a comma between sides: a screen reader says "×" as "times").
export function scoreText(frame) {
  if (!frame?.totals) return "";
  const people = peopleOf(frame);
  const sides = frame.totals.map((p, k) => `${sideName(people, k, { short: true })} ${p}`);
  return `${t("score")}: ${sides.join(", ")}`;
}

// The sentences an event of the table brings (prev: the state before it, next: after). Each a string.
export function announcements(event, prev, next) {
  const out = [];
  if (!next) return out;
  const people = peopleOf(next);
  const hand = next.hand;
  if (event.kind === "deal" && hand) out.push(fill(t("hand_n"), { n: hand.hand }));
  if (event.kind === "action" && hand) {
    const a = parseAction(event.action);
    const scores = newScores(prev, next).map((s) => scoreClause(s, people, hand));
    out.push([actionClause(a, event, people, prev, next), ...scores].join(", "));
    const ended = hand.end && !prev?.hand?.end && prev?.hand?.hand === hand.hand;
    if (ended) out.push(`${outcomeText(outcomeOf(hand), people)}. ${scoreText(next)}`);
    // My own play opened galo's window (A5: called on its own, before the next player acts): said, since the
    // focus stays in my hand and the call's button shows only for that moment (keys.js: "g" calls it).
    if (a.kind === "play" && a.seat === next.seat && !ended && (hand.legal || []).includes("galo")) out.push(t("say_galo_offer"));
  }
  if (event.kind === "end" && next.winner != null) {
    const many = seatsOf(people, next.winner).length > 1;
    out.push(fill(t(many ? "won_other" : "won_one"), { side: sideName(people, next.winner) }));
  }
  const mine = next.seat;
  const myTurn = (f) => f?.hand && mine != null && f.hand.turn === mine && !f.hand.end && f.winner == null;
  if (myTurn(next) && !(myTurn(prev) && prev.hand.hand === hand.hand)) out.push(t("your_turn"));
  return out;
}

// What a player hears when the table opens (its first state): the hand, and whose turn it is.
export function opening(frame) {
  const hand = frame?.hand;
  if (!hand || hand.end || frame.winner != null) return [];
  const turn = hand.turn === frame.seat ? t("your_turn") : hand.turn != null ? fill(t("say_turn_of"), { name: peopleOf(frame).names[hand.turn] }) : "";
  return [`${fill(t("hand_n"), { n: hand.hand })}. ${turn}`.trim()];
}

// "Pontas: leste 4, oeste 6 (carroça), norte 3, sul 5; soma 18": each open end's pip (a double lying there
// said so: it counts twice), and the table's count (A2) where the game has one, else the ends' sum.
export function endsText(frame) {
  const layout = frame?.hand?.layout;
  const ends = Object.entries(layout?.ends || {});
  if (!ends.length) return t("say_no_tiles");
  const outer = (end) => { // the tile lying at that end (none on a spinner's empty arm: the spinner's own side)
    if (layout.shape === "spinner") return layout.arms?.[end]?.at(-1) ?? null;
    return layout.line?.length ? layout.line[end === "L" ? 0 : layout.line.length - 1] : null;
  };
  const double = (end) => { const p = outer(end); return p && pips(p)[0] === pips(p)[1] ? ` (${t("say_double")})` : ""; };
  const parts = ends.map(([end, pip]) => `${endWord(end)} ${pip}${double(end)}`);
  const sum = layout.count ?? ends.reduce((n, [, pip]) => n + pip, 0);
  return `${t("count")}: ${parts.join(", ")}; ${fill(t("say_sum"), { n: sum })}`;
}

// "Pedras: Boto 5, Ana 6, Caio 4, Tucano 7; morto 7": each seat's count in the order of play from mine.
export function countsText(frame) {
  const hand = frame?.hand;
  if (!hand) return t("say_no_hand");
  const people = peopleOf(frame);
  const seats = Object.keys(placesFrom(frame.seat ?? 0, frame.table.players)).map(Number);
  const start = frame.seat ?? 0;
  seats.sort((x, y) => ((x - start + seats.length) % seats.length) - ((y - start + seats.length) % seats.length));
  const parts = seats.map((k) => `${people.names[k]} ${hand.counts[k]}`);
  const yard = hand.boneyard ? `; ${t("boneyard").toLocaleLowerCase()} ${hand.boneyard}` : "";
  return `${t("say_counts")}: ${parts.join(", ")}${yard}`;
}

// "Suas pedras (7): seis e quatro, carroça de cinco, …", those I may play now marked.
export function tilesText(frame) {
  const hand = frame?.hand;
  if (!hand) return t("say_no_hand");
  if (frame.seat == null) return t("say_watching");
  const tiles = hand.tiles || [];
  if (!tiles.length) return t("no_tiles");
  const legal = (hand.legal || []).map((m) => m.split(" ")[0]).filter((m) => /^\d-\d$/.test(m)).map(norm);
  const myTurn = hand.turn === frame.seat && !hand.end;
  const names = tiles.map((p) => (myTurn && legal.includes(norm(p)) ? `${tileName(p)} (${t("say_playable")})` : tileName(p)));
  return `${t("your_tiles")} (${plural(tiles.length, "tiles")}): ${names.join(", ")}`;
}
