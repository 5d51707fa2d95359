// The table's chat: quick messages (the ids the server knows), free text (closed during a hand of a
// strict table), the messages with each speaker's mute toggle (remembered), and bubbles by the seats.
import { $, el } from "../../dom.js";
import { icon } from "../../icons.js";
import { fill, t, when } from "../../i18n.js";
import { send } from "../../socket.js";
import { mutedNames, state, toggleMutedName } from "../../state.js";
import { bubble } from "./events.js";

export const PRESETS = ["hello", "good", "gg", "thanks", "oops"];

const chatText = (m) => (m.preset ? t(`chat_${m.preset}`, m.preset) : m.text || "");

// Whether free text is closed now: a strict table, a hand in play.
export function textClosed(frame) {
  const hand = frame?.hand;
  return Boolean(frame?.table?.options?.strict === true && hand && !hand.end && frame.winner == null);
}

// A chat frame: kept, shown, and as a bubble by the speaker's seat (unless muted).
export function receive(frame) {
  const same = (m) => m.at === frame.at && m.seat === frame.seat && m.preset === frame.preset && m.text === frame.text;
  if (state.chat.some(same)) return; // said again to a connection that subscribed again
  state.chat.push(frame);
  if (state.chat.length > 200) state.chat.shift();
  if (!mutedNames().has(frame.name)) bubble(frame.seat, chatText(frame), "chat");
}

function messages(frame) {
  const muted = mutedNames();
  return state.chat.filter((m) => !muted.has(m.name)).map((m) => el("li", { class: "chat-line", "data-preset": m.preset || "" },
    el("span", { class: "name" }, m.name || t("spectator")), " ", el("span", { class: "text" }, chatText(m)),
    el("time", { datetime: m.at || "" }, m.at ? when(m.at).split(" ").pop() : "")));
}

// The speakers I may mute: the people at the table other than me.
function muteToggles(frame, redraw) {
  const muted = mutedNames();
  const names = frame.table.seats.filter((s, k) => !s.empty && !s.bot && k !== frame.seat).map((s) => s.name);
  if (!names.length) return null;
  return el("div", { class: "mutes", role: "group", "aria-label": t("chat_mute") }, [...new Set(names)].map((name) =>
    el("button", { class: "mute-name", type: "button", "aria-pressed": muted.has(name) ? "true" : "false",
      title: fill(t(muted.has(name) ? "chat_unmute_name" : "chat_mute_name"), { name }),
      onclick: () => { toggleMutedName(name); redraw(); } }, icon(muted.has(name) ? "mute" : "chat"), el("span", {}, name))));
}

export function renderChat(box, frame, redraw) {
  const list = $(".chat-lines", box);
  if (!list) { // built once: the input keeps what is typed while frames come
    const input = el("input", { id: "chat-text", maxlength: 200, autocomplete: "off", "aria-label": t("chat_placeholder"),
      placeholder: t("chat_placeholder") });
    const form = el("form", { class: "chat-form", onsubmit: async (e) => {
      e.preventDefault();
      const text = input.value.trim();
      if (!text || input.disabled) return;
      input.value = "";
      await send({ type: "chat", table: state.tableId, text });
    } }, input, el("button", { type: "submit", id: "chat-send" }, t("send")));
    box.replaceChildren(
      el("h3", {}, t("chat")),
      el("div", { class: "mutes-box" }),
      el("ol", { class: "chat-lines", "aria-live": "polite", "aria-label": t("chat") }),
      el("div", { class: "presets", role: "group", "aria-label": t("chat_quick") }, PRESETS.map((p) =>
        el("button", { type: "button", class: "preset", "data-preset": p,
          onclick: () => send({ type: "chat", table: state.tableId, preset: p }) }, t(`chat_${p}`)))),
      form, el("p", { class: "closed-note", hidden: true }, t("chat_closed_note")));
  }
  const watching = frame.seat == null; // only the players talk at a table
  $(".presets", box).hidden = watching;
  $(".chat-form", box).hidden = watching;
  const closed = textClosed(frame);
  $("#chat-text", box).disabled = closed;
  $("#chat-send", box).disabled = closed;
  $(".closed-note", box).hidden = !closed;
  $(".mutes-box", box).replaceChildren(muteToggles(frame, redraw) || "");
  const lines = $(".chat-lines", box);
  lines.replaceChildren(...messages(frame));
  lines.scrollTop = lines.scrollHeight;
}
