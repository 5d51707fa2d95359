// The table's chat: quick messages (the ids the server knows), free text (closed during a hand of a
// strict table), the messages (the store's) with each speaker's mute toggle (remembered).
import { $, el } from "../../dom.js";
import { icon } from "../../icons.js";
import { fill, t, when } from "../../i18n.js";
import { send } from "../../socket.js";
import { chatText } from "./events.js";

export const PRESETS = ["hello", "good", "gg", "thanks", "oops"];

// Names whose chat I muted (remembered).
export function mutedNames() {
  return new Set(JSON.parse(localStorage.getItem("capicua.chat-muted") || "[]"));
}
function toggleMutedName(name) {
  const names = mutedNames();
  if (names.has(name)) names.delete(name); else names.add(name);
  localStorage.setItem("capicua.chat-muted", JSON.stringify([...names]));
}

// Whether free text is closed now: a strict table, a hand in play.
export function textClosed(frame) {
  const hand = frame?.hand;
  return Boolean(frame?.table?.options?.strict === true && hand && !hand.end && frame.winner == null);
}

function messages(chat) {
  const muted = mutedNames();
  return chat.filter((m) => !muted.has(m.name)).map((m) => el("li", { class: "chat-line", "data-preset": m.preset || "" },
    el("span", { class: "name" }, m.name || t("spectator")), " ", el("span", { class: "text" }, chatText(m)),
    el("time", { datetime: m.at || "" }, m.at ? when(m.at).split(" ").pop() : "")));
}

// The speakers I may mute: the people at the table other than me.
function muteToggles(frame, onMute) {
  const muted = mutedNames();
  const names = frame.table.seats.filter((s, k) => !s.empty && !s.bot && k !== frame.seat).map((s) => s.name);
  if (!names.length) return null;
  // labelled in words (a spectator sees the chips with no box of his own to say what they are for)
  return el("div", { class: "mutes", role: "group", "aria-labelledby": "mutes-label" },
    el("span", { class: "mutes-label", id: "mutes-label" }, t("chat_mute_label")),
    [...new Set(names)].map((name) => {
      const label = fill(t("chat_mute_name"), { name });
      return el("button", { class: "mute-name", type: "button", "aria-pressed": muted.has(name) ? "true" : "false",
        "aria-label": label, title: muted.has(name) ? fill(t("chat_unmute_name"), { name }) : label,
        onclick: () => { toggleMutedName(name); onMute(); } }, icon(muted.has(name) ? "mute" : "chat"), el("span", {}, name));
    }));
}

// The chat panel of the store's table; onMute: somebody was muted or unmuted.
export function renderChat(box, store, onMute) {
  const frame = store.frame;
  const list = $(".chat-lines", box);
  if (!list) { // built once: the input keeps what is typed while frames come
    const input = el("input", { id: "chat-text", maxlength: 200, autocomplete: "off", "aria-label": t("chat_placeholder"),
      placeholder: t("chat_placeholder") });
    const form = el("form", { class: "chat-form", onsubmit: async (e) => {
      e.preventDefault();
      const text = input.value.trim();
      if (!text || input.disabled) return;
      input.value = "";
      await send({ type: "chat", table: store.id, text });
    } }, input, el("button", { type: "submit", id: "chat-send" }, t("send")));
    box.replaceChildren(
      el("h3", {}, t("chat")),
      el("div", { class: "mutes-box" }),
      el("ol", { class: "chat-lines", "aria-live": "polite", "aria-label": t("chat") }),
      el("div", { class: "presets", role: "group", "aria-label": t("chat_quick") }, PRESETS.map((p) =>
        el("button", { type: "button", class: "preset", "data-preset": p,
          onclick: () => send({ type: "chat", table: store.id, preset: p }) }, t(`chat_${p}`)))),
      form, el("p", { class: "closed-note", hidden: true }, t("chat_closed_note")));
  }
  const watching = frame.seat == null; // only the players talk at a table
  $(".presets", box).hidden = watching;
  $(".chat-form", box).hidden = watching;
  const closed = textClosed(frame);
  $("#chat-text", box).disabled = closed;
  $("#chat-send", box).disabled = closed;
  $(".closed-note", box).hidden = !closed;
  $(".mutes-box", box).replaceChildren(muteToggles(frame, onMute) || "");
  const lines = $(".chat-lines", box);
  lines.replaceChildren(...messages(store.chat));
  lines.scrollTop = lines.scrollHeight;
}
