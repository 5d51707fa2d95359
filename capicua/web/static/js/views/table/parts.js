// The parts of a table's page, each drawn from its slice of the table's store (store.js: SLICES) into the
// page's skeleton (table.js). Only the parts whose slice changed are drawn again: the others keep their
// nodes. `draw(change)` draws what a change of the store names (the parts' own buttons change the store).
import { $, el } from "../../dom.js";
import { gameNamed } from "../../games.js";
import { fill, t } from "../../i18n.js";
import { peopleOf, scoreLine } from "../../names.js";
import { renderChat } from "./chat.js";
import { myButtons, myTiles, sendMove } from "./controls.js";
import { tableLinks } from "./decisions.js";
import { feltInfo, renderBoardInto } from "./felt.js";
import { renderHistory } from "./history.js";
import { keepFocus } from "./keys.js";
import { tableMenu } from "./menu.js";
import { handOverlay } from "./overlay.js";
import { resultDialog } from "./result.js";
import { renderClocks, renderSeats } from "./seats.js";
import { sitButton, waitingPanel } from "./waiting.js";

function title(store, draw) {
  const f = store.frame;
  const tb = f.table;
  const hand = f.hand;
  return [el("strong", {}, t(tb.variant, gameNamed(tb.variant)?.title)),
    el("span", { class: "target" }, fill(t("to_points"), { n: tb.options.target })),
    tb.rated ? el("span", { class: "rated-tag", title: t("rated_help") }, t("rated_badge")) : null,
    hand ? el("span", { class: "hand-no", id: "hand-no" }, fill(t("hand_n"), { n: hand.hand })) : null,
    ...tableLinks(f, () => draw(store.redraw("title")))];
}

// Table → the match whose result dialog I closed there (a new store of that table starts with it).
export const closedResults = new Map();

// What sits beside my seat's chip: my buttons (a comment standing in when I have none).
const movesIn = (slot) => [...slot.childNodes].find((n) => !n.classList?.contains("seat-chip")) || null;

const DRAW = {
  title(main, store, people, draw) {
    $(".bar .title", main).replaceChildren(...title(store, draw).filter(Boolean));
  },
  scores(main, store, people) {
    const f = store.frame;
    const box = $("#scoreboard", main);
    box.replaceChildren(f.totals ? el("span", { class: "score-line" }, scoreLine(people, f.totals, { short: true })) : "");
    box.title = f.totals ? scoreLine(people, f.totals) : "";
  },
  seats(main, store, people) {
    const slots = { top: $(".slot-top", main), left: $(".slot-left", main), right: $(".slot-right", main), bottom: $(".slot-bottom", main) };
    // my buttons are taken out and put back: the focus kept on the one it was on
    keepFocus(slots.bottom, () => renderSeats(store, people, slots, movesIn(slots.bottom) || document.createComment("moves")));
    for (const chip of main.querySelectorAll(".seat-chip.empty")) {
      const b = sitButton(store.frame, Number(chip.dataset.seat));
      if (b) chip.append(b);
    }
  },
  clocks(main, store) {
    renderClocks(store.frame, main);
  },
  moves(main, store, people, draw) {
    const slot = $(".slot-bottom", main);
    const next = myButtons(store, draw) || document.createComment("moves");
    const old = movesIn(slot);
    keepFocus(slot, () => { if (old) old.replaceWith(next); else slot.append(next); });
  },
  hand(main, store, people, draw) {
    const box = $(".mine", main);
    keepFocus(box, () => box.replaceChildren(myTiles(store, draw) || ""));
  },
  board(main, store, people, draw) {
    drawBoard(main, store, draw);
  },
  info(main, store) {
    $(".felt-info", main).replaceChildren(...feltInfo(store.frame));
  },
  menu(main, store) {
    const slot = $(".menu-slot", main);
    if (slot) slot.replaceChildren(tableMenu(store.frame) || "");
  },
  waiting(main, store, people, draw) {
    $(".felt-panel", main).replaceChildren(waitingPanel(store.frame, () => draw(store.redraw("waiting"))) || "");
  },
  overlay(main, store, people, draw) {
    const last = store.lastHandShown();
    main.classList.toggle("last-hand", last); // the felt makes room for it (style.css)
    $(".overlay-box", main).replaceChildren(handOverlay(store.frame, people,
      { last, until: store.lastHandUntil, seeResult: () => draw(store.seeResult()) }) || "");
    if (last) setTimeout(() => { if (main.isConnected) draw(store.changed()); }, store.lastHandLeft() + 50); // then the result
  },
  result(main, store, people, draw) {
    const f = store.frame;
    const closed = store.resultClosed === f.table.match || store.lastHandShown();
    const close = () => { closedResults.set(f.table.id, f.table.match); draw(store.closeResult()); };
    $(".result-box", main).replaceChildren((!closed && resultDialog(f, people, close)) || "");
  },
  history(main, store, people, draw) {
    renderHistory($(".history-panel", main), store.frame, people, {
      tab: store.historyTab, choose: (tab) => draw(store.showTab(tab)),
      open: store.sheetOpen, toggle: (i) => draw(store.toggleSheetRow(i)),
    });
  },
  chat(main, store, people, draw) {
    renderChat($(".chat-panel", main), store, () => draw(store.mutesChanged()));
  },
};

// Draw these parts (in the store's order) of the store's table into main.
export function drawParts(main, store, parts, draw) {
  const people = peopleOf(store.frame);
  for (const part of parts) {
    if (part === "clocks" && parts.includes("seats")) continue; // the seats were drawn with their clocks
    DRAW[part](main, store, people, draw);
  }
}

// The tiles on the felt, for the felt's size now (also when it changes size).
export function drawBoard(main, store, draw) {
  const box = $(".board", main);
  if (!store.frame || !box) return;
  keepFocus(box, () => renderBoardInto(box, store.frame.hand, store.picked, (m) => sendMove(store, draw, m)));
}
