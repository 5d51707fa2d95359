// An open table: who sits where, a seat for me, bots for the empty seats, a bot account invited to one, the
// start, and the invite link.
import { api, DEFAULT_BOT } from "../../api.js";
import { el, showError } from "../../dom.js";
import { inviteCode, myself } from "../../identity.js";
import { fill, t } from "../../i18n.js";
import { shareBox } from "../../share.js";
import { resubscribe } from "../../socket.js";

async function call(id, what, body = {}) {
  try { await api(`/api/tables/${id}/${what}`, { method: "POST", body: JSON.stringify(body) }); }
  catch (err) { showError(err); }
}

export async function joinSeat(id, seat = null) {
  try {
    await api(`/api/tables/${id}/join`, { method: "POST", body: JSON.stringify({ invite: inviteCode(), seat }) });
    await resubscribe(true); // the table anew, as my seat sees it
  } catch (err) { showError(err); }
}

// Whether I may take seat k: an empty seat, and (a tournament's table, C10) one kept for me; the seats kept
// for the other paired players are offered to nobody else.
export function mayTake(frame, k) {
  const s = frame.table.seats[k];
  return s.empty && (s.kept_for == null || s.kept_for === myself()?.id);
}

// The button on an empty seat's chip.
export function sitButton(frame, k) {
  const tb = frame.table;
  if (tb.status !== "open" || !mayTake(frame, k) || frame.seat != null) return null;
  return el("button", { class: "sit primary", "data-seat": k, onclick: () => joinSeat(tb.id, k) }, t("join"));
}

// The bot accounts (programs playing through the bot API, docs/bots.md), fetched at most every 20 s.
const bots = { list: null, at: 0, sent: new Map(), choice: null };

async function botAccounts(onChange) {
  if (bots.list && Date.now() - bots.at < 20000) return bots.list;
  bots.at = Date.now();
  try { bots.list = await api("/api/bot/accounts"); } catch { bots.list = []; }
  onChange();
  return bots.list;
}

async function invite(tb, select, note) {
  const username = select.value;
  if (!username) return;
  try {
    const r = await api(`/api/tables/${tb.id}/invite`, { method: "POST", body: JSON.stringify({ username }) });
    const name = select.selectedOptions[0]?.dataset.name || username;
    bots.sent.set(tb.id, name);
    note.textContent = fill(t(r.online ? "bot_invited" : "bot_invited_offline"), { name });
  } catch (err) { showError(err); }
}

// A seated player of a casual open table with a free seat may invite a bot account to it (it sits when its
// program accepts).
function botInvite(frame, rerender) {
  const tb = frame.table;
  if (frame.seat == null || tb.tournament || !tb.seats.some((s) => s.empty)) return null;
  const list = bots.list;
  if (!list) { botAccounts(rerender); return null; }
  botAccounts(rerender);
  if (!list.length) return null;
  if (tb.seats.some((s) => s.bot_account && s.name === bots.sent.get(tb.id))) bots.sent.delete(tb.id); // it sat
  const sent = bots.sent.get(tb.id);
  const note = el("span", { class: "bot-invite-note", role: "status" }, sent ? fill(t("bot_invited"), { name: sent }) : "");
  const select = el("select", { id: "bot-account", onchange: (e) => { bots.choice = e.target.value; } },
    list.map((b) => el("option", { value: b.username, "data-name": b.name, disabled: !b.online },
      b.online ? b.name : `${b.name} (${t("bot_offline")})`)));
  if (!list.some((b) => b.online)) return el("p", { class: "bot-invite" }, t("bot_none_online"));
  select.value = list.some((b) => b.online && b.username === bots.choice) ? bots.choice : list.find((b) => b.online).username;
  return el("p", { class: "bot-invite" },
    el("label", { for: "bot-account" }, `${t("bot_account")}: `), select,
    el("button", { id: "invite-bot", onclick: () => invite(tb, select, note) }, t("bot_invite")), note);
}

// The table's address to share: its id, and a private table's invite code (for whoever has it).
export function tableUrl(tb) {
  const invite = tb.private ? inviteCode() : null;
  return `${location.origin}/#/table/${tb.id}${invite ? `?invite=${encodeURIComponent(invite)}` : ""}`;
}

export function waitingPanel(frame, rerender = () => {}) {
  const tb = frame.table;
  if (tb.status !== "open") return null;
  const empty = tb.seats.filter((s) => s.empty).length;
  // a full table counts down to its start (autostart); "Começar" stays for whoever is at the table
  const state = empty ? el("p", {}, fill(t("seats_free"), { n: empty }))
    : tb.starts_at ? el("p", { class: "starts-in", id: "starts-in", role: "timer", "data-until": tb.starts_at, "data-text": t("starts_in_table") },
      fill(t("starts_in_table"), { n: Math.max(0, Math.ceil((Date.parse(tb.starts_at) - Date.now()) / 1000)) }))
      : el("p", {}, t("all_seated"));
  const shareable = !tb.tournament && (!tb.private || inviteCode());
  const free = tb.seats.filter((s, k) => mayTake(frame, k)).length; // the empty seats I may take
  return el("section", { class: "waiting" },
    el("h2", {}, empty ? t("waiting") : t("status_full_title")),
    state,
    tb.tournament ? el("p", { class: "tour-table-note" }, t("tour_table_waits")) : null, // it starts at the fourth check-in
    shareable ? shareBox(tableUrl(tb)) : null,
    el("div", { class: "actions" },
      frame.seat == null && free ? el("button", { class: "primary", id: "sit-any", onclick: () => joinSeat(tb.id) }, t("join")) : null,
      empty && !tb.tournament ? el("button", { id: "fill-bots", onclick: () => call(tb.id, "bots", { level: DEFAULT_BOT }) }, t("fill_bots")) : null,
      tb.tournament || frame.seat == null ? null : el("button", { class: "primary", id: "start", onclick: () => call(tb.id, "start") }, t("start")),
      frame.seat != null ? el("button", { id: "leave", onclick: () => call(tb.id, "leave") }, t("leave")) : null),
    botInvite(frame, rerender));
}
