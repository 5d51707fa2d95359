// The felt: the tiles on the table (the last play lit), where a picked tile may go, and the table count
// (only where it scores), the boneyard and the match clock.
import { renderBoard } from "../../board.js";
import { isPlay, parseAction } from "../../actions.js";
import { el } from "../../dom.js";
import { icon } from "../../icons.js";
import { fill, plural, t } from "../../i18n.js";
import { norm } from "../../tiles.js";

// The tile played last in this hand (to light it), or null.
export function lastPlay(history) {
  for (let i = (history || []).length - 1; i >= 0; i--) {
    const a = parseAction(history[i]);
    if (a.kind === "play") return a.tile;
  }
  return null;
}

// Where the picked tile may go: one target per legal end.
function targets(hand, picked, play) {
  if (!picked || !hand.layout) return [];
  return (hand.legal || []).filter((m) => isPlay(m) && norm(m.split(" ")[0]) === picked && m.split(" ")[1])
    .map((m) => {
      const end = m.split(" ")[1];
      return { end, tile: picked, pip: hand.layout.ends[end], label: fill(t("play_at"), { end: t(`end_${end}`) }),
        onclick: () => play(m) };
    });
}

// The height of the pills on the felt's bottom (style.css: .felt-info), in pixels.
const FELT_INFO_HEIGHT = 26;

// The board of `hand` in box, with where the picked tile may go (play: lay it there).
export function renderBoardInto(box, hand, picked, play) {
  const w = box.clientWidth || 320;
  const h = box.clientHeight || 240;
  if (!hand) { box.replaceChildren(); return; }
  // the bottom's strip kept for the felt's pills (the count, the boneyard, the match clock: feltInfo)
  box.replaceChildren(renderBoard(hand.layout, w, h, { last: lastPlay(hand.history), targets: targets(hand, picked, play),
    clear: FELT_INFO_HEIGHT }));
}

// The little facts on the felt's corner.
export function feltInfo(frame) {
  const hand = frame.hand;
  if (!hand) return [];
  const out = [];
  const laid = hand.layout.shape === "spinner" ? Boolean(hand.layout.spinner) : hand.layout.line.length > 0;
  if (hand.table_count && laid) {
    const count = hand.layout.count ?? 0;
    out.push(el("span", { class: `pill count${count && count % 5 === 0 ? " scores" : ""}`, id: "count",
      title: t("count_help") }, `${t("count")} ${count}`));
  }
  if (hand.boneyard) out.push(el("span", { class: "pill", id: "boneyard" }, `${t("boneyard")}: ${plural(hand.boneyard, "tiles")}`));
  const ends = frame.clock?.match_ends;
  if (ends) out.push(el("span", { class: "pill match-clock", title: t("match_minutes") }, icon("clock"),
    el("span", { "data-deadline": ends, "data-long": "1" }, "")));
  return out;
}

