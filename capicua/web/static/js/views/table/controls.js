// My hand and my moves: the tiles (the playable ones pressable, by mouse or keyboard), where to lay the
// picked one, pass / draw / the game's calls, and galo: armed with a play, or alone right after my play.
import { endLabel, isPlay } from "../../actions.js";
import { el } from "../../dom.js";
import { fill, t } from "../../i18n.js";
import { send } from "../../socket.js";
import { state } from "../../state.js";
import { norm, tileButton } from "../../tiles.js";
import { touchedOf } from "./decisions.js";

const playsOf = (legal, key) => legal.filter((m) => isPlay(m) && norm(m.split(" ")[0]) === key);

export async function sendMove(move) {
  const text = state.galoArmed && isPlay(move) ? `${move} galo` : move;
  state.picked = null;
  state.galoArmed = false;
  await send({ type: "action", table: state.tableId, action: text });
}

// Forget a pick or an armed galo that no longer applies.
export function tidy(frame) {
  const hand = frame.hand;
  const myTurn = hand && frame.seat != null && hand.turn === frame.seat && !hand.end;
  if (!myTurn) { state.picked = null; state.galoArmed = false; return; }
  if (state.picked && !playsOf(hand.legal || [], state.picked).length) state.picked = null;
}

export function myTiles(frame, redraw) {
  const hand = frame.hand;
  if (!hand || frame.seat == null) return null;
  const legal = hand.legal || [];
  const myTurn = hand.turn === frame.seat && !hand.end;
  const tiles = hand.tiles || [];
  const box = el("div", { class: "mytiles", role: "group", "aria-label": t("your_tiles"), style: `--n: ${Math.max(tiles.length, 1)}` },
    tiles.map((p) => {
      const key = norm(p);
      const options = playsOf(legal, key);
      return tileButton(p, { playable: myTurn && options.length > 0, pressed: state.picked === key,
        onclick: () => {
          if (options.length === 1) { sendMove(options[0]); return; }
          state.picked = state.picked === key ? null : key;
          redraw();
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
export function myButtons(frame, redraw) {
  const hand = frame.hand;
  if (!hand || frame.seat == null || frame.winner != null) return null;
  const legal = hand.legal || [];
  const myTurn = hand.turn === frame.seat && !hand.end;
  const box = el("div", { class: "actions", role: "group", "aria-label": t("your_moves") });
  if (state.picked) {
    box.append(el("span", { class: "hint" }, t("choose_end")),
      ...playsOf(legal, state.picked).map((m) => el("button", { class: "primary end-choice", "data-end": m.split(" ")[1] || "",
        "aria-label": fill(t("play_at"), { end: t(`end_${m.split(" ")[1]}`) }), onclick: () => sendMove(m) },
      m.split(" ")[1] ? endLabel(m.split(" ")[1]) : t("play"))));
  }
  for (const word of ["pass", ...(hand.calls || [])]) {
    if (!legal.includes(word)) continue;
    const galo = word === "galo";
    box.append(el("button", { class: galo ? "galo call-now" : word === "pass" || word === "draw" ? "primary" : "",
      "data-move": word, onclick: () => sendMove(word) }, t(word)));
  }
  if ((hand.calls || []).includes("galo") && myTurn && legal.some(isPlay)) {
    box.append(el("button", { class: `galo-toggle${state.galoArmed ? " armed" : ""}`, "aria-pressed": state.galoArmed ? "true" : "false",
      title: t("galo_armed"), onclick: () => { state.galoArmed = !state.galoArmed; redraw(); } }, t("galo_with_play")));
  }
  if (!box.children.length) {
    box.append(el("span", { class: "turnline", "aria-live": "polite" }, myTurn ? t("your_turn") : ""));
  }
  return box;
}
