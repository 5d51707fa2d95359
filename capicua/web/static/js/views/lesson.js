// The guided first hand ("mão guiada", issue 22 item 4). A lesson's table is a normal table (views/table.js)
// whose options carry `lesson`: this module draws the coach's panel beside the felt after every draw (the
// prompt of the decision in front of the learner, the notes on the bots' plays since his last move, the end),
// marks the tile, the end and the galo toggle the lesson wants, and holds back another legal move with the
// lesson's words for it (heldBack, asked by the table's controls before a move is sent). The server deals the
// lesson and plays its scripted bots; GET /api/lessons/GAME gives only the learner's prompts and the notes.
// The lobby offers the lesson at a guest's first quick play of a game (remembered per game) and links it.
import { api, DEFAULT_BOT } from "../api.js";
import { $, el, showError } from "../dom.js";
import { myself } from "../identity.js";
import { fill, language, t } from "../i18n.js";
import { norm } from "../tiles.js";

const LANGS = ["pt-BR", "es", "en"]; // the order of a lesson's texts (GET /api/lessons/GAME: languages)
const loaded = new Map(); // game → its lesson (or the promise of it)
let games = null; // the games that have a lesson
let wrong = null; // {table, step, text}: what the coach said of the last move it held back
let drawn = ""; // what the panel shows now (drawn again only when it changes)

const seenKey = (game) => `capicua.lesson.${game}`;
export const lessonSeen = (game) => localStorage.getItem(seenKey(game)) !== null;
const markSeen = (game) => localStorage.setItem(seenKey(game), "1");

// The games that have a lesson (asked once).
export async function lessonGames() {
  if (!games) games = api("/api/lessons").catch(() => []);
  return games;
}

function lessonOf(game, redraw) {
  const got = loaded.get(game);
  if (got && !(got instanceof Promise)) return got;
  if (!got) {
    loaded.set(game, api(`/api/lessons/${game}`).then((lesson) => { loaded.set(game, lesson); redraw(); })
      .catch(() => loaded.delete(game)));
  }
  return null;
}

// A lesson's text in the page's language.
const say = (texts, lesson, names) => fill(texts[(lesson.languages || LANGS).indexOf(language())] ?? texts[0], names);

// A move with its tile's halves in one order ("2-5 S galo" is "5-2 S galo").
function same(move) {
  const [tile, ...rest] = move.split(" ");
  return /^\d-\d$/.test(tile) ? [norm(tile), ...rest].join(" ") : move;
}

// Where the learner stands in the lesson, from the table's frame: {step, k, off, over, notes}. Pure: Node's
// test runner checks it (tests/web/js/lesson.test.mjs).
export function lessonPlace(lesson, frame) {
  const hand = frame.hand;
  const history = hand?.history || [];
  const seat = lesson.seat;
  const mine = history.filter((a) => a.startsWith(`${seat}: `)).map((a) => same(a.slice(a.indexOf(": ") + 2)));
  const later = Boolean(hand && hand.hand > 1); // the lesson was the first hand: a later one is a match's like any
  const off = !later && mine.some((m, k) => !lesson.steps[k] || !lesson.steps[k].want.map(same).includes(m));
  let last = 0; // the number of actions up to the learner's last one
  history.forEach((a, i) => { if (a.startsWith(`${seat}: `)) last = i + 1; });
  const notes = lesson.notes.filter((n) => n.after > last && n.after <= history.length);
  const k = mine.length;
  return { k, step: off || later ? null : lesson.steps[k] || null, off, later, over: later || Boolean(hand?.end), notes,
    myTurn: Boolean(hand && hand.turn === seat && !hand.end && frame.winner == null) };
}

// The lesson of the table this frame is of (null: not a lesson's, I am not its learner, or its first hand, the
// lesson, is over and the match goes on, or this is a rematch: the server deals the lesson in the first match only).
function tableLesson(frame, redraw) {
  const game = frame?.table?.options?.lesson;
  if (!game || (frame.hand && frame.hand.hand > 1) || frame.table.match > 1) return null;
  const lesson = lessonOf(game, redraw);
  return lesson && frame.seat === lesson.seat ? lesson : null;
}

// Asked by the table's controls before a move is sent: true when the coach holds it back (and says why).
export function heldBack(store, move) {
  const frame = store.frame;
  const lesson = tableLesson(frame, () => {});
  if (!lesson) return false;
  const place = lessonPlace(lesson, frame);
  if (!place.step || !place.myTurn || place.step.want.map(same).includes(same(move))) return false;
  const names = namesOf(frame);
  const said = place.step.wrong.find((w) => w.moves.map(same).includes(same(move)));
  const [tile, end] = move.split(" "); // the move tried, named: "4-4 Oeste: …"
  const tried = /^\d-\d$/.test(tile) ? `${tile}${end && end !== "galo" ? ` ${t(`end_${end}`)}` : ""}: ` : "";
  wrong = { table: frame.table.id, step: place.k, text: tried + (said ? say(said.text, lesson, names) : t("lesson_wrong")) };
  return true;
}

const namesOf = (frame) => Object.fromEntries(frame.table.seats.map((s, k) => [`s${k}`, s.name || ""]));

// After every draw of the table (views/table.js): the coach's panel, and the marks on what the lesson wants.
export function drawLesson(main, store, redraw) {
  const frame = store.frame;
  const lesson = tableLesson(frame, redraw);
  main.classList.toggle("lesson", Boolean(lesson));
  let panel = $(".lesson-panel", main);
  if (!lesson) { panel?.remove(); return; }
  if (!panel) {
    panel = el("section", { class: "lesson-panel", id: "lesson", "aria-live": "polite", "aria-label": t("lesson_title") });
    $(".felt", main).after(panel);
  }
  const place = lessonPlace(lesson, frame);
  // the lesson's own end (its words, then a quick play, the lesson again or the tables) stands for the result
  // dialog, which would cover it; a learner who left the script gets the dialog as at any table
  if (place.over && !place.off && frame.winner != null && frame.hand?.hand === 1 && store.resultClosed !== frame.table.match) {
    redraw(store.closeResult());
    return;
  }
  if (wrong && (wrong.table !== frame.table.id || wrong.step !== place.k)) wrong = null;
  const key = JSON.stringify([frame.table.id, language(), place, wrong, namesOf(frame), frame.winner]);
  if (key !== drawn) {
    drawn = key;
    panel.replaceChildren(...panelParts(lesson, frame, place));
  }
  markWanted(main, store, place);
}

function panelParts(lesson, frame, place) {
  const names = namesOf(frame);
  const head = el("div", { class: "lesson-head" }, el("strong", {}, t("lesson_title")),
    place.step && !place.over ? el("span", { class: "lesson-count" }, fill(t("lesson_step"), { n: place.k + 1, of: lesson.steps.length })) : null,
    el("a", { href: `#/rules/${lesson.game}`, class: "lesson-rules" }, t("lesson_rules")));
  const notes = place.notes.slice(place.myTurn ? -1 : -2).map((n) => el("p", { class: "lesson-note" }, say(n.text, lesson, names)));
  if (place.off) return [head, ...notes, el("p", { class: "lesson-prompt" }, t("lesson_off")), ...(place.over ? endButtons(lesson) : [])];
  if (place.over) {
    return [head, ...notes, el("p", { class: "lesson-prompt lesson-end" }, say(lesson.end.text, lesson, names)), ...endButtons(lesson)];
  }
  const out = [head, ...notes];
  if (place.myTurn && place.step) {
    out.push(el("p", { class: "lesson-prompt", id: "lesson-prompt" }, say(place.step.prompt, lesson, names)));
    if (wrong) out.push(el("p", { class: "lesson-wrong", id: "lesson-wrong", role: "alert" }, wrong.text));
  } else if (frame.hand && !frame.hand.end) {
    out.push(el("p", { class: "lesson-wait" }, fill(t("lesson_wait"), { name: names[`s${frame.hand.turn}`] })));
  }
  return out;
}

function endButtons(lesson) {
  return [el("div", { class: "lesson-actions" },
    el("button", { type: "button", class: "primary", id: "lesson-quick", onclick: () => quickGame(lesson.game) }, t("quick")),
    el("button", { type: "button", id: "lesson-again", onclick: () => startLesson(lesson.game) }, t("lesson_again")),
    el("a", { href: "#/", class: "button", id: "lesson-lobby" }, t("lesson_lobby")))];
}

// The tile, the end, the galo toggle or the word (draw) the lesson wants now.
function markWanted(main, store, place) {
  for (const x of main.querySelectorAll(".lesson-want")) x.classList.remove("lesson-want");
  if (!place.step || !place.myTurn) return;
  const want = place.step.want.map(same);
  for (const move of want) {
    const [tile, end] = move.split(" ");
    if (!/^\d-\d$/.test(tile)) { // a word: draw, pass
      main.querySelector(`.actions button[data-move="${tile}"]`)?.classList.add("lesson-want");
      continue;
    }
    for (const b of main.querySelectorAll(`.mytiles button.tile[data-tile="${norm(tile)}"]`)) b.classList.add("lesson-want");
    if (store.picked === norm(tile) && end) {
      for (const x of main.querySelectorAll(`.end-choice[data-end="${end}"], .board .target[data-end="${end}"]`)) x.classList.add("lesson-want");
    }
  }
  if (want.every((m) => m.endsWith(" galo")) && !store.galoArmed) main.querySelector(".galo-toggle")?.classList.add("lesson-want");
}

// A lesson's table for me, then its page (replace: instead of the address that asked for it, #/lesson/GAME).
export async function startLesson(game, { replace = false } = {}) {
  markSeen(game);
  try {
    const tb = await api(`/api/lessons/${game}`, { method: "POST" });
    const hash = `#/table/${tb.id}${tb.invite ? `?invite=${tb.invite}` : ""}`;
    if (replace) location.replace(hash); else location.hash = hash;
  } catch (err) { showError(err); }
}

// Quick play: a game against bots, who sit after two seconds unless people come.
export async function quickGame(variant, players = undefined) {
  try {
    const body = { variant, players, sit: true, bots_after: 2, bot: DEFAULT_BOT };
    const tb = await api("/api/tables", { method: "POST", body: JSON.stringify(body) });
    location.hash = `#/table/${tb.id}`;
  } catch (err) { showError(err); }
}

// A guest's first quick play of a game that has a lesson: the offer of the guided hand, or the skip (either
// is remembered). Returns whether the offer was made (else the caller plays at once).
export async function offerLesson(game, players = undefined) {
  if (myself()?.guest === false || lessonSeen(game) || !(await lessonGames()).includes(game)) return false;
  const close = () => dialog.remove();
  const dialog = el("div", { class: "lesson-offer", role: "dialog", "aria-modal": "true", "aria-labelledby": "lesson-offer-title" },
    el("div", { class: "lesson-offer-box" },
      el("h2", { id: "lesson-offer-title" }, t("lesson_offer_title")),
      el("p", {}, t("lesson_offer")),
      el("div", { class: "lesson-actions" },
        el("button", { type: "button", class: "primary", id: "lesson-yes", onclick: () => { close(); startLesson(game); } }, t("lesson_play")),
        el("button", { type: "button", id: "lesson-skip", onclick: () => { markSeen(game); close(); quickGame(game, players); } }, t("lesson_skip")))));
  document.body.append(dialog);
  $("#lesson-yes", dialog).focus();
  dialog.addEventListener("keydown", (e) => { if (e.key === "Escape") close(); });
  dialog.addEventListener("click", (e) => { if (e.target === dialog) close(); }); // beside the box: asked again next time
  return true;
}
