// Actions in record notation ("2: 6-4 W galo", "1: pass", "-: time", "ref(Zé): …"), read for people.
import { el } from "./dom.js";
import { END_DIRECTION, icon } from "./icons.js";
import { fill, t } from "./i18n.js";
import { tile } from "./tiles.js";

// {seat, kind: play|pass|draw|galo|announce|redeal|keep|claim|time|referee|other, tile, end, galo, who, text}
export function parseAction(text) {
  const ref = /^ref\((.*?)\):\s*(.*)$/.exec(text); // the name ends at the first "):", as the server reads it
  if (ref) return { seat: null, kind: "referee", who: ref[1], text: ref[2] };
  const m = /^(\d+|-):\s*(.*)$/.exec(text);
  if (!m) return { seat: null, kind: "other", text };
  const seat = m[1] === "-" ? null : Number(m[1]);
  const move = m[2].trim();
  const play = /^(\d-\d)(?:\s+([WENSLR]))?(\s+galo)?$/.exec(move);
  if (play) return { seat, kind: "play", tile: play[1], end: play[2] || null, galo: Boolean(play[3]) };
  const kind = ["pass", "draw", "galo", "announce", "redeal", "keep", "claim", "time"].includes(move) ? move : "other";
  return { seat, kind, text: move };
}

export const isPlay = (move) => /^\d-\d/.test(move);

// An end's name with its arrow: "← Oeste".
export function endLabel(end) {
  return [icon("arrow", END_DIRECTION[end]), el("span", {}, t(`end_${end}`))];
}

// What an action did, in words and pictures (the history panels): the tile and where it went, or the word.
export function actionBody(a) {
  if (a.kind === "play") {
    const [x, y] = a.tile.split("-");
    return el("span", { class: "what" }, tile(a.tile, { lying: x !== y, cls: "small" }),
      a.end ? el("span", { class: "end", title: t(`end_${a.end}`) }, icon("arrow", END_DIRECTION[a.end]),
        el("span", { class: "sr" }, t(`end_${a.end}`))) : el("span", { class: "end" }, t("lead_word")),
      a.galo ? el("strong", { class: "galo-word" }, t("galo_call")) : null);
  }
  if (a.kind === "referee") return el("span", { class: "what" }, fill(t("act_referee"), { who: a.who }), " ", a.text);
  if (a.kind === "other") return el("span", { class: "what" }, a.text);
  return el("span", { class: `what act-${a.kind}` }, t(`act_${a.kind}`));
}
