// A table: the seats around the felt, the tiles on it, my hand and moves under my thumb, the hand's
// history and the chat beside it, the end of each hand over the felt and the match's result over all.
// The table's store (table/store.js) takes the frames the websocket brings, and its parts (table/parts.js)
// are drawn from it: only those whose slice of the store changed. What the game has (calls, sides) comes
// with the frames.
import { costToast } from "../costs.js";
import { $, el, setStatus, showError } from "../dom.js";
import { icon } from "../icons.js";
import { errorText, t } from "../i18n.js";
import { page } from "../page.js";
import { follow, following, resendIf, resubscribe } from "../socket.js";
import { sound } from "../sounds.js";
import { mutedNames } from "./table/chat.js";
import { startTicker, tick } from "./table/clock.js";
import { announceDecision } from "./table/decisions.js";
import { drawLesson } from "./lesson.js";
import { answerRegion, installKeys, keysButton, liveRegions, speak } from "./table/keys.js";
import { closedResults, drawBoard, drawParts } from "./table/parts.js";
import { TableStore } from "./table/store.js";

const QUIET_ERRORS = new Set(["not-paused", "stale"]);
let store = null; // the store of the table I follow (or followed last)
let resizeObserver = null;
resendIf((msg, context) => store !== null && store.id === msg.table && store.stillWants(msg.action, context));

export async function openTable(id) {
  await followTable(id, skeleton());
}

// Follow table id and draw it in main: the table's page (skeleton), or the referee console built on it.
export async function followTable(id, main) {
  const same = store && store.id === id && store.frame && following() === id;
  if (!same) store = new TableStore(id, { muted: (name) => mutedNames().has(name), resultClosed: closedResults.get(id) });
  const mine = store;
  page(main);
  if (!resizeObserver) resizeObserver = new ResizeObserver(() => { const m = $("#table"); if (m) drawBoard(m, store, draw); });
  resizeObserver.disconnect();
  resizeObserver.observe($(".felt", main));
  startTicker();
  installKeys(() => store, draw);
  if (same) draw(store.redraw()); // a new language or name: draw the last frame again at once
  else $(".board", main).replaceChildren(el("p", { class: "loading" }, "…"));
  await follow(id, () => mine.n);
}

// The last state of the table I follow (null before its first frame, or when I follow none).
export const tableFrame = () => (store && following() === store.id ? store.frame : null);

// The table's page, empty (the referee console builds on it too).
export function skeleton() {
  const panelButton = (name, iconName) => el("button", { class: "icon-button panel-toggle", id: `show-${name}`, type: "button",
    "aria-label": t(name === "history" ? "history_panel" : "chat"), "aria-expanded": "false",
    onclick: () => togglePanel(name) }, icon(iconName));
  return el("main", { id: "table", class: "table-view" },
    el("div", { class: "bar" }, el("div", { class: "title" }), el("div", { class: "scoreboard", id: "scoreboard" }),
      keysButton(), el("div", { class: "tools" }, panelButton("history", "list"), panelButton("chat", "chat")), el("div", { class: "menu-slot" })),
    el("div", { class: "slot slot-top" }), el("div", { class: "slot slot-left" }), el("div", { class: "slot slot-right" }),
    el("div", { class: "felt" }, el("div", { class: "board" }), el("div", { class: "felt-info" }), el("div", { class: "felt-panel" }), answerRegion()),
    el("div", { class: "slot slot-bottom" }),
    el("div", { class: "mine" }),
    el("aside", { class: "side" },
      el("div", { class: "side-head" }, el("button", { class: "icon-button close-panel", type: "button", "aria-label": t("close"),
        onclick: () => togglePanel(null) }, icon("close"))),
      el("section", { class: "history-panel", "aria-label": t("history_panel") }),
      el("section", { class: "chat-panel", "aria-label": t("chat") })),
    el("div", { class: "overlay-box" }),
    el("div", { class: "result-box" }),
    ...liveRegions());
}

function togglePanel(name) {
  const main = $("#table");
  if (!main) return;
  const open = name && main.dataset.panel !== name ? name : "";
  main.dataset.panel = open;
  for (const b of main.querySelectorAll(".panel-toggle")) b.setAttribute("aria-expanded", b.id === `show-${open}` ? "true" : "false");
  if (open === "chat") { const input = $("#chat-text"); if (input && !input.disabled) input.focus(); }
}

// Every frame the websocket brings.
export function onFrame(frame) {
  if (frame.type === "error") {
    if (!QUIET_ERRORS.has(frame.code)) showError(errorText(frame.code), frame.message);
    return;
  }
  if (frame.type === "welcome" || frame.type === "pong" || frame.type === "ack") return;
  if (!store || following() !== store.id || (frame.table && frame.table !== store.id)) return;
  const change = store.apply(frame);
  if (frame.type === "synced" || frame.state) setStatus("");
  if (change.resubscribe) resubscribe(true);
  draw(change);
}

// Draw what a change of the store names: its parts, its sounds, a referee's decision.
function draw(change) {
  for (const name of change.sounds) sound(name);
  const f = store.frame;
  const main = $("#table");
  if (!f || !main) return;
  const tb = f.table;
  main.dataset.players = tb.players;
  main.dataset.status = tb.status;
  main.classList.toggle("spectating", f.seat == null);
  main.classList.toggle("my-turn", Boolean(myTurn(f)));
  drawParts(main, store, change.parts, draw);
  drawLesson(main, store, (again = store.redraw()) => draw(again)); // a guided hand's coach (views/lesson.js)
  if (change.decision) announceDecision(change.decision, f);
  if (change.costs?.length) costToast(change.costs, f);
  if (f.hand?.end) $("#cost-toast")?.remove(); // the hand's end says it all, over the felt
  speak(change.say);
  if (change.parts.length) tick();
  updateTitle();
  main.dispatchEvent(new Event("drawn")); // for what is drawn beside the table (the referee console)
}

const myTurn = (f) => f.hand && f.seat != null && f.hand.turn === f.seat && !f.hand.end && f.winner == null;

// "Sua vez" in the tab's title while the tab is hidden and it is my turn.
function updateTitle() {
  const f = tableFrame();
  const base = t("title");
  document.title = f && myTurn(f) && document.hidden ? `● ${t("your_turn")} — ${base}` : base;
}
document.addEventListener("visibilitychange", updateTitle);
