// A table: the seats around the felt, the tiles on it, my hand and moves under my thumb, the hand's
// history and the chat beside it, the end of each hand over the felt and the match's result over all.
// It is drawn from the frames the websocket brings; what the game has (calls, sides) comes with them.
import { $, el, setStatus, showError } from "../dom.js";
import { icon } from "../icons.js";
import { errorText, fill, t } from "../i18n.js";
import { peopleOf, scoreLine } from "../names.js";
import { page } from "../page.js";
import { subscribe } from "../socket.js";
import { gameNamed, leaveTable, state } from "../state.js";
import { renderChat, receive } from "./table/chat.js";
import { startTicker } from "./table/clock.js";
import { myButtons, myTiles, sendMove, tidy } from "./table/controls.js";
import { react, updateTitle } from "./table/events.js";
import { feltInfo, renderBoardInto } from "./table/felt.js";
import { renderHistory } from "./table/history.js";
import { handOverlay } from "./table/overlay.js";
import { resultDialog } from "./table/result.js";
import { tableLinks } from "./table/decisions.js";
import { renderSeats } from "./table/seats.js";
import { sitButton, waitingPanel } from "./table/waiting.js";

const QUIET_ERRORS = new Set(["not-paused", "stale"]);
let resultClosed = null; // the match whose result dialog I closed
let resizeObserver = null;

export async function openTable(id) {
  clearInterval(state.lobbyTimer);
  const same = state.tableId === id && state.frame;
  if (!same) leaveTable();
  page(skeleton());
  if (same) renderTable(); // a new language or name: draw the last frame again at once
  else $("#table .board").replaceChildren(el("p", { class: "loading" }, "…"));
  await subscribe(id);
}

// The table's page, empty (the referee console builds on it too).
export function skeleton() {
  const panelButton = (name, iconName) => el("button", { class: "icon-button panel-toggle", id: `show-${name}`, type: "button",
    "aria-label": t(name === "history" ? "history_panel" : "chat"), "aria-expanded": "false",
    onclick: () => togglePanel(name) }, icon(iconName));
  return el("main", { id: "table", class: "table-view" },
    el("div", { class: "bar" }, el("div", { class: "title" }), el("div", { class: "scoreboard", id: "scoreboard", "aria-live": "polite" }),
      el("div", { class: "tools" }, panelButton("history", "list"), panelButton("chat", "chat"))),
    el("div", { class: "slot slot-top" }), el("div", { class: "slot slot-left" }), el("div", { class: "slot slot-right" }),
    el("div", { class: "felt" }, el("div", { class: "board" }), el("div", { class: "felt-info" }), el("div", { class: "felt-panel" })),
    el("div", { class: "slot slot-bottom" }),
    el("div", { class: "mine" }),
    el("aside", { class: "side" },
      el("div", { class: "side-head" }, el("button", { class: "icon-button close-panel", type: "button", "aria-label": t("close"),
        onclick: () => togglePanel(null) }, icon("close"))),
      el("section", { class: "history-panel", "aria-label": t("history_panel") }),
      el("section", { class: "chat-panel", "aria-label": t("chat") })),
    el("div", { class: "overlay-box" }),
    el("div", { class: "result-box" }));
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
    if (!QUIET_ERRORS.has(frame.code)) showError(errorText(frame.code, frame.message));
    return;
  }
  if (frame.type === "welcome" || frame.type === "pong" || frame.type === "ack") return;
  if (frame.table && frame.table !== state.tableId) return;
  if (frame.type === "synced") {
    setStatus("");
    if (state.n != null && frame.n < state.n) { state.n = null; state.frame = null; subscribe(state.tableId); }
    else if (state.frame) renderTable();
    return;
  }
  if (frame.type === "chat") { receive(frame); renderTable(); return; }
  if (frame.n != null) state.n = frame.n;
  if (frame.state) {
    const prev = state.frame;
    state.frame = frame.state;
    if (frame.type === "event" && frame.event) react(frame.event, prev, frame.state);
    setStatus("");
    renderTable();
  }
}

function title(frame) {
  const tb = frame.table;
  const hand = frame.hand;
  return [el("strong", {}, t(tb.variant, gameNamed(tb.variant)?.title)),
    el("span", { class: "target" }, fill(t("to_points"), { n: tb.options.target })),
    tb.rated ? el("span", { class: "rated-tag", title: t("rated_help") }, t("rated_badge")) : null,
    hand ? el("span", { class: "hand-no", id: "hand-no" }, fill(t("hand_n"), { n: hand.hand })) : null, ...tableLinks(frame, renderTable)];
}

function drawBoard() {
  const f = state.frame;
  const box = $("#table .board");
  if (!f || !box) return;
  renderBoardInto(box, f.hand, (m) => sendMove(m));
}

export function renderTable() {
  const f = state.frame;
  const main = $("#table");
  if (!f || !main) return;
  tidy(f);
  const people = peopleOf(f);
  const tb = f.table;
  main.dataset.players = tb.players;
  main.dataset.status = tb.status;
  main.classList.toggle("spectating", f.seat == null);
  const myTurn = f.hand && f.seat != null && f.hand.turn === f.seat && !f.hand.end && f.winner == null;
  main.classList.toggle("my-turn", Boolean(myTurn));
  $(".bar .title", main).replaceChildren(...title(f).filter(Boolean));
  $("#scoreboard").replaceChildren(f.totals ? el("span", { class: "score-line" }, scoreLine(people, f.totals, { short: true })) : "");
  $("#scoreboard").title = f.totals ? scoreLine(people, f.totals) : "";
  const slots = { top: $(".slot-top", main), left: $(".slot-left", main), right: $(".slot-right", main), bottom: $(".slot-bottom", main) };
  renderSeats(f, people, slots, myButtons(f, renderTable));
  for (const chip of main.querySelectorAll(".seat-chip.empty")) {
    const b = sitButton(f, Number(chip.dataset.seat));
    if (b) chip.append(b);
  }
  $(".mine", main).replaceChildren(myTiles(f, renderTable) || "");
  $(".felt-info", main).replaceChildren(...feltInfo(f));
  $(".felt-panel", main).replaceChildren(waitingPanel(f, renderTable) || "");
  drawBoard();
  $(".overlay-box", main).replaceChildren(handOverlay(f, people) || "");
  const closedHere = resultClosed === `${tb.id}:${tb.match}`;
  $(".result-box", main).replaceChildren((!closedHere && resultDialog(f, people, () => { resultClosed = `${tb.id}:${tb.match}`; renderTable(); })) || "");
  renderHistory($(".history-panel", main), f, people);
  renderChat($(".chat-panel", main), f, renderTable);
  startTicker();
  updateTitle();
  if (!resizeObserver) resizeObserver = new ResizeObserver(() => drawBoard());
  resizeObserver.disconnect();
  resizeObserver.observe($(".felt", main));
  main.dispatchEvent(new Event("drawn")); // for what is drawn beside the table (the referee console)
}
