// The table from the keyboard, and read aloud (issue 22, item 15): the keys that pick a tile and an end,
// make a move or call, and ask for the ends, the tiles each one holds, my tiles and the score; the help that
// lists them ("?"); the focus kept on the same tile or button when a part of the table is drawn again, my
// hand one stop of the Tab key walked with the arrows; and the two live regions: the announcer's log (every
// sentence announcer.js builds from the table's events) and the answer to the last key that asked.
import { $, el } from "../../dom.js";
import { fill, t } from "../../i18n.js";
import { countsText, endsText, scoreText, tilesText } from "./announcer.js";

const KEPT = 80; // the announcer's lines kept (a hand has fewer actions)
const ANSWER_MS = 6000; // how long the answer to a key shows on the felt

// The keys of the moves and calls: key → the move's word (its button's data-move). Only those the game has
// are listed in the help.
const MOVE_KEYS = { x: "pass", d: "draw", g: "galo", a: "announce", r: "redeal", k: "keep", t: "claim" };
// The keys that ask: key → the sentence of the table now.
const ASK_KEYS = { p: endsText, c: countsText, m: tilesText, s: scoreText };

// The live regions: the announcer's log (hidden, read), in the table's page; the answer to a key, on the felt.
export const liveRegions = () => [el("div", { id: "announcer", class: "sr", role: "log", "aria-live": "polite", "aria-label": t("keys_log") })];
export const answerRegion = () => el("div", { id: "table-answer", class: "table-answer", role: "status", "aria-live": "polite", hidden: true });

// Add the announcer's sentences to the log, the oldest dropped beyond KEPT.
export function speak(lines) {
  const log = $("#announcer");
  if (!log || !lines?.length) return;
  for (const line of lines) if (line) log.append(el("p", {}, line));
  while (log.children.length > KEPT) log.firstElementChild.remove();
}

// My move clock running low, said once a deadline (a screen reader's player reads his hand slower).
let warned = "";
export function warnLow(clock, n) {
  if (!n || warned === clock.dataset.deadline || !clock.closest(".seat-chip.me")) return;
  warned = clock.dataset.deadline;
  speak([fill(t("say_seconds_left"), { n })]);
}

let answerTimer = null;
// The answer to a key: in the status region, said again even when it is the same words as before.
export function answer(text) {
  const box = $("#table-answer");
  if (!box || !text) return;
  box.hidden = false;
  box.textContent = "";
  requestAnimationFrame(() => { box.textContent = text; });
  clearTimeout(answerTimer);
  answerTimer = setTimeout(() => { box.hidden = true; }, ANSWER_MS);
}

// The "?" button of the table's bar: the shortcuts' help.
export function keysButton() {
  return el("button", { class: "icon-button keys-button", id: "show-keys", type: "button", "aria-label": t("keys_help"),
    title: `${t("keys_help")} (?)`, "aria-haspopup": "dialog", onclick: () => toggleHelp() }, "?");
}

// The help: what each key does, the game's own calls only, in the page's language.
function helpDialog(frame) {
  const calls = new Set(["pass", ...(frame?.hand?.calls || [])]);
  const row = (keys, what) => el("tr", {}, el("th", { scope: "row" }, keys.map((k) => el("kbd", {}, k))), el("td", {}, what));
  const moves = Object.entries(MOVE_KEYS).filter(([, word]) => calls.has(word))
    .map(([key, word]) => row([key], word === "galo" ? t("keys_galo") : t(word)));
  const dialog = el("dialog", { id: "keys-help", class: "keys-help", "aria-labelledby": "keys-help-title" },
    el("div", { class: "keys-head" }, el("h2", { id: "keys-help-title" }, t("keys_help")),
      el("button", { type: "button", class: "icon-button", "aria-label": t("close"), onclick: () => dialog.close() }, "×")),
    el("table", {}, el("tbody", {},
      row(["←", "→"], t("keys_arrows")),
      row(["1–9"], t("keys_digits")),
      row(["Enter"], t("keys_enter")),
      row(["Esc"], t("keys_escape")),
      ...moves,
      row(["p"], t("keys_ends")),
      row(["c"], t("keys_counts")),
      row(["m"], t("keys_mine")),
      row(["s"], t("keys_score")),
      row(["l"], t("keys_last")),
      row(["n"], t("next_hand")),
      row(["?"], t("keys_toggle")))),
    el("p", { class: "keys-note" }, t("keys_note")));
  const back = document.activeElement; // where the keyboard was: back there once it closes
  dialog.addEventListener("close", () => {
    dialog.remove();
    (back && back !== document.body && back.isConnected ? back : $("#show-keys"))?.focus();
  });
  return dialog;
}

let frameNow = () => null;
export function toggleHelp() {
  const open = $("#keys-help");
  if (open) { open.close(); return; }
  const main = $("#table");
  if (!main) return;
  const dialog = helpDialog(frameNow());
  main.append(dialog);
  dialog.showModal();
}

// My hand's tiles, in order.
const handTiles = () => [...document.querySelectorAll("#table .mytiles button.tile")];

// My hand is one stop of the Tab key: the tile that takes it is the focused one, else the picked one, else the
// first playable, else the first; the arrows walk the rest.
export function rove(box) {
  const tiles = [...box.querySelectorAll(".mytiles button.tile")];
  if (!tiles.length) return;
  const current = tiles.find((b) => b === document.activeElement) || tiles.find((b) => b.getAttribute("aria-pressed") === "true")
    || tiles.find((b) => b.classList.contains("playable")) || tiles[0];
  for (const b of tiles) b.tabIndex = b === current ? 0 : -1;
}

function focusTile(b) {
  if (!b) return;
  for (const x of handTiles()) x.tabIndex = x === b ? 0 : -1;
  b.focus();
}

const FOCUSABLE = "button, [tabindex]";

// Draw part of the table again (fn) without losing the keyboard's place: the focus goes back to the same
// tile or button (by its tile, move or end), else to the one at its place, else to my hand.
export function keepFocus(box, fn) {
  const active = document.activeElement;
  const inside = active && active !== document.body && box.contains(active);
  const key = inside ? active.dataset.tile || active.dataset.move || active.dataset.end || null : null;
  const index = inside ? [...box.querySelectorAll(FOCUSABLE)].indexOf(active) : -1;
  fn();
  rove(box);
  if (!inside || box.contains(document.activeElement)) return;
  const buttons = [...box.querySelectorAll(FOCUSABLE)];
  const same = key && buttons.find((b) => (b.dataset.tile || b.dataset.move || b.dataset.end) === key);
  const next = same || buttons[Math.min(index, buttons.length - 1)]
    || handTiles().find((b) => b.tabIndex === 0) || handTiles()[0];
  if (next) { if (next.matches(".mytiles button.tile")) focusTile(next); else next.focus(); }
}

// Where the picked tile may go: its end buttons, the first focused (a tile picked from the keyboard).
export function focusEnds() {
  $("#table .actions button.end-choice")?.focus();
}

// A move made from my buttons (an end chosen, pass, a call): the keyboard goes back to my hand, on the tile
// just played (drawn again without it, the focus goes on to its neighbour) or the hand's own stop, as after a
// tile played with Enter. Left on my buttons, the focus would fall on whatever button takes the old one's
// place: "play with galo", then the "Galo!" offered for a moment after my play, then back to the hand once
// the next seat acts. The offer is said instead (announcer.js) and "g" calls it.
export function focusHand(tile = null) {
  if (!document.activeElement?.closest?.("#table .actions")) return; // the focus elsewhere (my hand, the keys' g or x): left there
  const tiles = handTiles();
  focusTile(tiles.find((b) => b.dataset.tile === tile) || tiles.find((b) => b.tabIndex === 0) || tiles[0]);
}

// Move the focus along a row (my tiles, or my buttons): by one, or to either end.
function walk(items, from, key) {
  if (!items.length) return null;
  const i = items.indexOf(from);
  if (key === "Home") return items[0];
  if (key === "End") return items[items.length - 1];
  if (i < 0) return items[key === "ArrowLeft" ? items.length - 1 : 0];
  return items[Math.max(0, Math.min(items.length - 1, i + (key === "ArrowLeft" ? -1 : 1)))];
}

let lastSaid = () => "";

// One keydown anywhere on the table's page (not while typing, not with Ctrl, Alt or Cmd).
function onKey(e, store, draw) {
  if (!$("#table") || !store?.frame || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
  const target = e.target;
  if (target.closest?.("input, textarea, select, [contenteditable='true']")) return;
  const key = e.key;
  if (key === "?") { e.preventDefault(); toggleHelp(); return; }
  if ($("#keys-help") || target.closest?.("dialog, .result, .panel-tabs")) return; // their own keys (Esc closes)
  const frame = store.frame;
  if (["ArrowLeft", "ArrowRight", "Home", "End"].includes(key) && !target.closest?.(".side")) { // the panel's own scroll
    const inActions = target.closest?.(".actions");
    const items = inActions ? [...inActions.querySelectorAll("button")] : handTiles();
    const next = walk(items, target, key);
    if (!next) return;
    e.preventDefault();
    if (inActions) next.focus(); else focusTile(next);
    return;
  }
  if (/^[1-9]$/.test(key)) {
    const b = handTiles()[Number(key) - 1];
    if (!b) return;
    e.preventDefault();
    focusTile(b);
    if (b.classList.contains("playable")) b.click(); // as Enter would: played, or picked with its ends to choose
    else answer(fill(t("keys_not_now"), { what: b.getAttribute("aria-label") }));
    return;
  }
  if (key === "Escape" && store.picked) {
    e.preventDefault();
    const picked = store.picked;
    draw(store.pick(null));
    focusTile(handTiles().find((b) => b.dataset.tile === picked));
    return;
  }
  const lower = key.length === 1 ? key.toLowerCase() : "";
  if (MOVE_KEYS[lower]) {
    e.preventDefault();
    const word = MOVE_KEYS[lower];
    const button = $(`#table .actions button[data-move="${word}"]`);
    const toggle = word === "galo" ? $("#table .actions button.galo-toggle") : null;
    if (button && !button.disabled) button.click();
    else if (toggle) {
      toggle.click();
      answer(`${t("galo_with_play")}: ${t(store.galoArmed ? "say_on" : "say_off")}`);
    } else if ((frame.hand?.calls || []).includes(word) || word === "pass") answer(fill(t("keys_not_now"), { what: t(word) }));
    return;
  }
  if (ASK_KEYS[lower]) { e.preventDefault(); answer(ASK_KEYS[lower](frame) || t("say_no_hand")); return; }
  if (lower === "l") { e.preventDefault(); answer(lastSaid() || t("say_no_hand")); return; }
  if (lower === "n") {
    const next = $("#next-hand");
    if (next && !next.disabled) { e.preventDefault(); next.click(); }
  }
}

let installed = false;
// Listen to the keys once for the page's life: store() is the table followed now, draw(change) draws it.
export function installKeys(store, draw) {
  frameNow = () => store()?.frame ?? null;
  lastSaid = () => $("#announcer")?.lastElementChild?.textContent || "";
  if (installed) return;
  installed = true;
  document.addEventListener("keydown", (e) => onKey(e, store(), draw));
}
