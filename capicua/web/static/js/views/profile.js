// A player's page: his rating in each game ("?" while provisional), the chart of his ratings (drawn here as
// SVG), the medals he won (kept forever), and his finished matches, won or lost, each with what it did to
// his rating, its replay and its record (times in the browser's time zone). On my own account's page: my
// conduct (a playban or a warning for abandoning rated matches, explained) and the account's security (a new
// password, which ends my other sessions; logging out everywhere). A moderator sees the conduct of anybody,
// and acts from the moderation panel (views/admin.js).
import { api, changePassword, logOutEverywhere } from "../api.js";
import { colourOf, ratingChart } from "../chart.js";
import { el, setStatus, showError } from "../dom.js";
import { gameNamed } from "../games.js";
import { icon } from "../icons.js";
import { myself } from "../identity.js";
import { fill, plural, t, when } from "../i18n.js";
import { page, redraw } from "../page.js";
import { moderationPanel, untilText } from "./admin.js";
import { changeClass, changeParts, dayText, gameTitle, medalIcon, medalWord, ratingBadge, signed } from "../ratings.js";
import { unfollow } from "../socket.js";

let chartObserver = null;

export async function renderProfile(id) {
  unfollow();
  const pid = encodeURIComponent(id);
  const [profile, matches] = await Promise.all([api(`/api/players/${pid}/profile`), api(`/api/players/${pid}/matches`)]);
  const me = myself();
  const mine = me && me.id === id;
  const name = profile.name || (mine ? me.name : null);
  const games = profile.ratings.map((r) => r.game);
  const chartBox = el("div", { class: "chart-box" });
  page(el("main", { class: "profile", "data-player": id },
    el("div", { class: "page-head" }, el("h1", {}, icon("user"), name || t("profile")),
      mine ? el("span", { class: "you-tag" }, t("you")) : null),
    el("section", { class: "ratings-cards", "aria-label": t("rating") }, profile.ratings.length
      ? [...profile.ratings.map((r) => ratingCard(r, profile.history[r.game] || [])),
        profile.ratings.some((r) => r.provisional) ? el("p", { class: "prov-note" }, t("provisional_note")) : null]
      : el("p", { class: "none" }, t("ratings_none"), mine && me.guest === false
        ? [" ", el("a", { href: "#/?rated", class: "play-rated" }, t("play_rated"))] : null)),
    games.length ? el("section", { class: "card chart-card" }, el("h2", {}, t("rating_history")), legend(profile.ratings), chartBox) : null,
    medalsSection(profile.medals),
    el("section", { class: "card matches-card" }, el("h2", {}, t("history")), matchesTable(matches, id)),
    profile.conduct ? conductSection(profile.conduct) : null,
    me?.admin && !mine && profile.name ? await moderationPanel(id, () => renderProfile(id)) : null,
    mine && me.guest === false ? securitySection() : null));
  if (!games.length) return;
  let drawn = 0;
  const draw = () => {
    const width = chartBox.clientWidth;
    if (!width || Math.abs(width - drawn) < 4) return;
    drawn = width;
    chartBox.replaceChildren(ratingChart(profile.history, games, width));
  };
  draw();
  if (chartObserver) chartObserver.disconnect();
  chartObserver = new ResizeObserver(() => { if (chartBox.isConnected) draw(); else chartObserver.disconnect(); });
  chartObserver.observe(chartBox);
}

// One game: the rating (with "?" while provisional), the last change, matches and wins, its leaderboard.
function ratingCard(r, history) {
  const last = history[history.length - 1];
  const lastChange = last ? changeParts(last).total : null;
  return el("a", { class: "rating-card", href: `#/ratings/${r.game}`, "data-game": r.game, style: `--game: ${colourOf(r.game)}` },
    el("span", { class: "game" }, gameTitle(r.game)),
    el("span", { class: "value" }, ratingBadge(r, "rating big"),
      lastChange != null ? el("span", { class: `change ${changeClass(lastChange)}` }, signed(lastChange)) : null),
    el("span", { class: "games" }, plural(r.games, "matches"), " · ", plural(r.wins, "wins")));
}

// A player's conduct, as he and the moderators see it: a playban (until when) or a warning, how many
// abandonments this week, and the rule behind it with its numbers; a moderator's mute, ban or hidden name.
function conductSection(c) {
  const ban = c.playban;
  const [, a, b, day] = c.ladder_minutes;
  const lines = [];
  if (ban?.active) lines.push(el("p", { class: "conduct-ban", role: "status" }, icon("clock"), fill(t("conduct_playban"), { time: when(ban.until) })));
  else if (ban && ban.until === null) lines.push(el("p", { class: "conduct-warning" }, t("conduct_warning")));
  lines.push(el("p", {}, ban ? fill(t("conduct_count"), { days: c.memory_days, n: ban.abandonments, time: when(ban.last) })
    : fill(t("conduct_clean"), { days: c.memory_days })));
  if (c.muted_until) lines.push(el("p", { class: "conduct-ban" }, fill(t("conduct_muted"), { time: untilText(c.muted_until) })));
  if (c.banned_until) lines.push(el("p", { class: "conduct-ban" }, fill(t("conduct_banned"), { time: untilText(c.banned_until) })));
  if (c.name_hidden) lines.push(el("p", { class: "conduct-warning" }, t("conduct_name_hidden")));
  lines.push(el("p", { class: "hint" }, fill(t("conduct_explain"), { a, b, c: Math.round(day / 60) })));
  return el("section", { class: `card conduct-card${ban?.active ? " banned" : ""}`, id: "conduct", "aria-labelledby": "conduct-title" },
    el("h2", { id: "conduct-title" }, t("conduct")), lines);
}

// My account: a new password (POST /api/me/password: my other sessions end, this one goes on under a new
// token) and logging out everywhere (DELETE /api/me/sessions: this session too).
function securitySection() {
  const current = el("input", { id: "current-password", type: "password", autocomplete: "current-password", required: true, maxlength: 200 });
  const fresh = el("input", { id: "new-password", type: "password", autocomplete: "new-password", required: true, minlength: 8, maxlength: 200 });
  const field = (input, label) => el("label", { class: "field" }, el("span", {}, t(label)), input);
  const form = el("form", { class: "password-form", onsubmit: async (e) => {
    e.preventDefault();
    try {
      await changePassword(current.value, fresh.value);
      form.reset();
      setStatus(t("password_changed"));
    } catch (err) { showError(err); }
  } }, field(current, "current_password"), field(fresh, "new_password"),
  el("p", { class: "hint" }, t("change_password_hint")),
  el("span", { class: "row" }, el("button", { type: "submit", id: "change-password" }, t("change_password"))));
  const everywhere = el("div", { class: "everywhere" }, el("p", { class: "hint" }, t("log_out_everywhere_hint")),
    el("span", { class: "row" }, el("button", { type: "button", id: "logout-everywhere", class: "danger", onclick: async () => {
      try { await logOutEverywhere(); redraw(); } catch (err) { showError(err); }
    } }, t("log_out_everywhere"))));
  return el("section", { class: "card security-card", "aria-labelledby": "security-title" },
    el("h2", { id: "security-title" }, t("security")), form, everywhere);
}

function legend(ratings) {
  return el("ul", { class: "legend" }, ratings.map((r) => el("li", { "data-game": r.game },
    el("i", { style: `background: ${colourOf(r.game)}` }), gameTitle(r.game))));
}

function medalsSection(medals) {
  const sorted = [...medals].sort((a, b) => (a.week < b.week ? 1 : a.week > b.week ? -1 : a.place - b.place));
  const counts = [1, 2, 3].map((p) => [p, medals.filter((m) => m.place === p).length]).filter(([, n]) => n);
  return el("section", { class: "card medals-card" },
    el("h2", {}, t("medals"), counts.length ? el("span", { class: "medal-counts" }, counts.map(([p, n]) =>
      el("span", { class: "count", title: medalWord(p) }, medalIcon(p, 16), `×${n}`))) : null),
    sorted.length ? el("ul", { class: "medals" }, sorted.map((m) => el("li", { class: `medal-item place-${m.place}`, "data-game": m.game, "data-week": m.week },
      medalIcon(m.place, 28),
      el("span", { class: "medal-text" }, el("span", {}, el("strong", {}, medalWord(m.place)), ` · ${gameTitle(m.game)}`),
        el("small", {}, fill(t("medal_week"), { date: dayText(m.week) }))),
      el("span", { class: `score ${changeClass(m.score)}` }, signed(m.score)))))
      : el("p", { class: "none" }, t("no_medals")));
}

function matchesTable(matches, id) {
  if (!matches.length) return el("p", { class: "none" }, t("no_matches"));
  return el("table", { class: "history" },
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("match_col")),
      el("th", { scope: "col", class: "narrow-hide" }, t("players")), el("th", { scope: "col" }, t("result_col")),
      el("th", { scope: "col", class: "num" }, t("rating")), el("th", { scope: "col" }, el("span", { class: "sr" }, t("replay"))))),
    el("tbody", {}, matches.map((m) => {
      const game = gameNamed(m.variant);
      const side = game?.partnerships ? m.seat % 2 : m.seat;
      const won = m.winner === side;
      const r = m.rating;
      const parts = r ? changeParts(r) : null;
      return el("tr", { "data-record": m.id, class: r ? "rated" : "casual" },
        el("td", { class: "game" }, el("span", {}, gameTitle(m.variant)), el("time", { datetime: m.finished_at }, when(m.finished_at))),
        el("td", { class: "narrow-hide players" }, m.players.join(", ")),
        el("td", { class: won ? "won" : "lost" }, won ? t("won") : t("lost")),
        el("td", { class: "num rating-change" }, parts
          ? [el("span", { class: `change ${changeClass(parts.total)}` }, signed(parts.total)), el("small", {}, ` ${parts.after}`),
            parts.bonus ? el("small", { class: "bonus" }, ` (${fill(t("bonus_short"), { n: signed(parts.bonus) })})`) : null]
          : el("span", { class: "muted", title: t("casual") }, "—")),
        el("td", { class: "links" }, el("a", { href: `#/replay/${m.id}`, title: t("replay"), "aria-label": t("replay") }, icon("play")),
          el("a", { href: `/api/records/${m.id}`, download: "", title: t("download"), "aria-label": t("download") }, icon("download"))));
    })));
}
