// My hand and my moves: the tiles (the playable ones pressable, by mouse or keyboard), where to lay the
// picked one, pass / draw / the game's calls, and galo: armed with a play, or alone right after my play.
// Drawn from the table's store; what I choose goes into it, and `draw` draws the parts that changed.
import { endLabel, isPlay } from "../../actions.js";
import { el } from "../../dom.js";
import { fill, t } from "../../i18n.js";
import { send } from "../../socket.js";
import { norm, tileButton } from "../../tiles.js";
import { heldBack } from "../lesson.js";
import { touchedOf } from "./decisions.js";
import { focusEnds, focusHand } from "./keys.js";
import { playsOf } from "./store.js";

export async function sendMove(store, draw, move) {
  const text = store.galoArmed && isPlay(move) ? `${move} galo` : move;
  focusHand(isPlay(move) ? norm(move.split(" ")[0]) : null); // before my buttons are drawn again
  if (heldBack(store, text)) { draw(store.pick(null)); return; } // a guided hand's coach says why not this one
  draw(store.moveSent());
  await send({ type: "action", table: store.id, action: text }, { hand: store.frame.hand?.hand ?? null });
}

export function myTiles(store, draw) {
  const frame = store.frame;
  const hand = frame.hand;
  if (!hand || frame.seat == null) return null;
  const legal = hand.legal || [];
  const myTurn = hand.turn === frame.seat && !hand.end;
  const tiles = hand.tiles || [];
  const box = el("div", { class: "mytiles", role: "group", "aria-label": t("your_tiles"), style: `--n: ${Math.max(tiles.length, 1)}` },
    tiles.map((p) => {
      const key = norm(p);
      const options = playsOf(legal, key);
      return tileButton(p, { playable: myTurn && options.length > 0, pressed: store.picked === key,
        onclick: (e) => {
          if (options.length === 1) { sendMove(store, draw, options[0]); return; }
          draw(store.pick(store.picked === key ? null : key));
          if (e.detail === 0 && store.picked) focusEnds(); // from the keyboard: on to where it goes
        } });
    }));
  for (const x of touchedOf(frame, frame.seat)) { // C7: my touched tiles lie face up, and are to be played first
    const b = box.querySelector(`button.tile[data-tile="${norm(x)}"]`);
    if (b) { b.classList.add("touched"); b.title = t("ref_touched_help"); }
  }
  if (!tiles.length && hand.end) box.append(el("span", { class: "empty-hand" }, t("no_tiles")));
  return box;
}

// The buttons under my thumb (null for a spectator).
export function myButtons(store, draw) {
  const frame = store.frame;
  const hand = frame.hand;
  if (!hand || frame.seat == null || frame.winner != null) return null;
  const legal = hand.legal || [];
  const myTurn = hand.turn === frame.seat && !hand.end;
  const box = el("div", { class: "actions", role: "group", "aria-label": t("your_moves") });
  if (store.picked) {
    box.append(el("span", { class: "hint" }, t("choose_end")),
      ...playsOf(legal, store.picked).map((m) => el("button", { class: "primary end-choice", "data-end": m.split(" ")[1] || "",
        "aria-label": fill(t("play_at"), { end: t(`end_${m.split(" ")[1]}`) }), onclick: () => sendMove(store, draw, m) },
      m.split(" ")[1] ? endLabel(m.split(" ")[1]) : t("play"))));
  }
  for (const word of ["pass", ...(hand.calls || [])]) {
    if (!legal.includes(word)) continue;
    const galo = word === "galo";
    box.append(el("button", { class: galo ? "galo call-now" : word === "pass" || word === "draw" ? "primary" : "",
      "data-move": word, onclick: () => sendMove(store, draw, word) }, t(word)));
  }
  if ((hand.calls || []).includes("galo") && myTurn && legal.some(isPlay)) {
    box.append(el("button", { class: `galo-toggle${store.galoArmed ? " armed" : ""}`, "data-move": "galo-with-play", "aria-pressed": store.galoArmed ? "true" : "false",
      title: t("galo_armed"), onclick: () => draw(store.armGalo(!store.galoArmed)) }, t("galo_with_play")));
  }
  if (!box.children.length) {
    box.append(el("span", { class: "turnline" }, myTurn ? t("your_turn") : ""));
  }
  return box;
}
