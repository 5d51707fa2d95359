// Moderation (docs/operations.md, "Conduct"): the flags a moderator looks at (pairs who met beyond the 24-hour
// decay, this week's abandonments and playbans, the accounts under a sanction) and the moderation log; and, on
// a player's profile, the panel a moderator acts from (every action with its reason). Moderators only: the
// server refuses everybody else (403), and so does this page.
import { api } from "../api.js";
import { el, setStatus, showError } from "../dom.js";
import { icon } from "../icons.js";
import { myself } from "../identity.js";
import { fill, t, when } from "../i18n.js";
import { page } from "../page.js";
import { unfollow } from "../socket.js";

// The actions a moderator takes on an account, in the order the panel shows them (the server's ACTIONS).
const ACTIONS = ["mute", "unmute", "hide-name", "show-name", "lift-playban", "ban", "unban"];
const TIMED = new Set(["ban", "mute"]);

const playerLink = (id, names) => el("a", { href: `#/profile/${encodeURIComponent(id)}` }, names[id] || id);

function table(head, rows) {
  if (!rows.length) return el("p", { class: "none" }, t("mod_none"));
  return el("div", { class: "table-scroll" }, el("table", { class: "history mod-table" },
    el("thead", {}, el("tr", {}, head.map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, rows.map((cells) => el("tr", {}, cells.map((c) => el("td", {}, c)))))));
}

// Until when a ban or a mute holds, in words ("para sempre" for good: the server's FOREVER is in 9999).
export const untilText = (iso) => (!iso ? "—" : iso.startsWith("9999") ? t("conduct_forever") : when(iso));

export async function renderAdmin() {
  unfollow();
  if (!myself()?.admin) {
    page(el("main", { class: "admin" }, el("h1", {}, t("mod_title")), el("p", { class: "none" }, t("mod_only"))));
    return;
  }
  const [flags, log] = await Promise.all([api("/api/admin/flags"), api("/api/admin/log?limit=100")]);
  const names = flags.names;
  page(el("main", { class: "admin" },
    el("div", { class: "page-head" }, el("h1", {}, icon("user"), t("mod_title"))),
    el("section", { class: "card", id: "mod-pairings" }, el("h2", {}, t("mod_pairings")),
      el("p", { class: "hint" }, fill(t("mod_pairings_hint"), { n: flags.farm_limit, h: flags.window_hours, d: flags.over_days })),
      table([t("mod_pair"), t("mod_beyond"), t("mod_matches"), t("mod_wins")], flags.repeated_pairings.map((f) => [
        [playerLink(f.players[0], names), " × ", playerLink(f.players[1], names)],
        String(f.beyond_decay), String(f.matches),
        f.players.map((p) => f.wins[p]).join(" – "),
      ]))),
    el("section", { class: "card", id: "mod-playbans" }, el("h2", {}, t("mod_playbans")),
      table([t("mod_player"), t("mod_abandonments"), t("mod_until")], flags.playbans.map((p) => [
        playerLink(p.player, names), String(p.abandonments),
        p.until ? el("span", { class: p.active ? "active-ban" : "" }, untilText(p.until)) : t("mod_warned"),
      ]))),
    el("section", { class: "card", id: "mod-sanctioned" }, el("h2", {}, t("mod_sanctioned")),
      table([t("mod_player"), t("mod_col_banned"), t("mod_col_muted"), t("mod_col_hidden")], flags.sanctioned.map((s) => [
        playerLink(s.player, names), untilText(s.banned_until), untilText(s.muted_until), s.name_hidden ? "✓" : "—",
      ]))),
    el("section", { class: "card", id: "mod-log" }, el("h2", {}, t("mod_log")), logTable(log))));
}

// The moderation log: when, who, what, until when, and why.
export function logTable(entries) {
  if (!entries.length) return el("p", { class: "none" }, t("mod_log_none"));
  return table([t("mod_when"), t("mod_player"), t("mod_action"), t("mod_until"), t("mod_reason_col")], entries.map((e) => [
    el("time", { datetime: e.at }, when(e.at)),
    [el("a", { href: `#/profile/${encodeURIComponent(e.player.id)}` }, e.player.name || e.player.id),
      el("small", { class: "muted" }, ` ${t("mod_by")} ${e.by ? e.by.name || e.by.id : t("mod_operator")}`)],
    t(`mod_action_${e.action}`, e.action), untilText(e.until), e.reason,
  ]));
}

// On a player's profile, for a moderator: the actions, each with its reason (and its hours for a ban or a
// mute), and the player's log. ``after`` draws the page again once an action is done.
export async function moderationPanel(playerId, after) {
  const data = await api(`/api/admin/players/${encodeURIComponent(playerId)}`);
  const reason = el("input", { id: "mod-reason", required: true, minlength: 3, maxlength: 500, autocomplete: "off" });
  const hours = el("input", { id: "mod-hours", type: "number", min: "1", step: "1", inputmode: "numeric" });
  const act = (action) => async () => {
    if (reason.value.trim().length < 3) { reason.reportValidity(); reason.focus(); return; }
    const body = { reason: reason.value.trim() };
    if (TIMED.has(action) && hours.value) body.hours = Number(hours.value);
    try {
      await api(`/api/admin/players/${encodeURIComponent(playerId)}/${action}`, { method: "POST", body: JSON.stringify(body) });
      setStatus(fill(t("mod_done"), { action: t(`mod_action_${action}`) }));
      await after();
    } catch (err) { showError(err); }
  };
  const field = (input, label) => el("label", { class: "field" }, el("span", {}, t(label)), input);
  return el("section", { class: "card mod-card", id: "moderation", "aria-labelledby": "mod-title" },
    el("h2", { id: "mod-title" }, t("mod_title")),
    el("div", { class: "mod-fields" }, field(reason, "mod_reason"), field(hours, "mod_hours")),
    el("div", { class: "mod-actions" }, ACTIONS.map((a) => el("button", {
      type: "button", "data-action": a, class: a === "ban" ? "danger" : "", onclick: act(a),
    }, t(`mod_action_${a}`)))),
    el("h3", {}, t("mod_log")), logTable(data.log));
}
