// The leaderboards of one game (#/ratings/GAME, a tab per game): this week's live ranking (D4: the net
// sum of each player's rating changes since Monday), a past week with its gold, silver and bronze (last
// week at first; the arrows go back and forth), and the all-time list by rating (established players who
// played in the last 30 days: the server leaves the others out).
import { api, loadRatingRules } from "../api.js";
import { el, showError } from "../dom.js";
import { allGames } from "../games.js";
import { icon } from "../icons.js";
import { myself } from "../identity.js";
import { fill, plural, t } from "../i18n.js";
import { page } from "../page.js";
import { changeClass, fromNow, gameTitle, medalIcon, medalWord, playerLink, ratingBadge, shiftWeek, signed, weekRange } from "../ratings.js";
import { unfollow } from "../socket.js";

export async function renderRatings(game = null) {
  unfollow();
  const games = allGames().map((g) => g.name);
  const remembered = localStorage.getItem("capicua.ratings-game");
  const chosen = games.includes(game) ? game : games.includes(remembered) ? remembered : games[0];
  localStorage.setItem("capicua.ratings-game", chosen);
  const [board, numbers] = await Promise.all([api(`/api/ratings/${chosen}`), loadRatingRules()]);
  const tabs = el("nav", { class: "game-tabs", "aria-label": t("variant") }, games.map((g) =>
    el("a", { href: `#/ratings/${g}`, class: `tab${g === chosen ? " current" : ""}`, "aria-current": g === chosen ? "page" : false,
      "data-game": g }, gameTitle(g))));
  const past = el("section", { class: "board-card past-week", id: "past-week" });
  page(el("main", { class: "ratings-page", "data-game": chosen },
    el("div", { class: "page-head" }, el("h1", {}, icon("trophy"), t("ratings")), tabs),
    el("div", { class: "boards" },
      weekCard(board.this_week, { live: true }),
      past,
      allTimeCard(board.all_time, numbers))));
  showWeek(past, chosen, board.last_week, board.this_week.week);
}

const isMe = (id) => myself() && myself().id === id;

// This week, live: the standings so far and when the week ends.
function weekCard(week, { live }) {
  return el("section", { class: "board-card this-week", id: "this-week" },
    el("h2", {}, t("this_week"), el("span", { class: "live" }, t("week_live"))),
    el("p", { class: "sub" }, weekRange(week.week), " · ", fill(t("week_ends"), { when: fromNow(week.ends) })),
    standingsTable(week, { live }),
    el("p", { class: "note" }, t("week_note")));
}

// A past week: its podium (once closed) and its standings, with arrows to the weeks around it.
function showWeek(box, game, week, thisWeek) {
  const go = async (monday) => {
    try { showWeek(box, game, await api(`/api/ratings/${game}/weeks/${monday}`), thisWeek); }
    catch (err) { showError(err); }
  };
  const older = el("button", { type: "button", class: "icon-button", id: "older-week", "aria-label": t("prev_week"), title: t("prev_week"),
    onclick: () => go(shiftWeek(week.week, -1)) }, icon("prev"));
  const newer = el("button", { type: "button", class: "icon-button", id: "newer-week", "aria-label": t("next_week"), title: t("next_week"),
    disabled: shiftWeek(week.week, 1) >= thisWeek, onclick: () => go(shiftWeek(week.week, 1)) }, icon("next"));
  const medalists = week.standings.filter((s) => s.medal).sort((a, b) => a.medal - b.medal);
  const rest = week.standings.filter((s) => !s.medal);
  box.dataset.week = week.week;
  box.replaceChildren(
    el("div", { class: "card-head" }, el("h2", {}, shiftWeek(week.week, 1) === thisWeek ? t("last_week") : t("past_week")),
      el("span", { class: "week-nav" }, older, newer)),
    el("p", { class: "sub" }, weekRange(week.week)),
    medalists.length ? podium(medalists) : el("p", { class: "none" }, week.closed ? t("no_medalists") : t("week_not_closed")),
    // the medalists stand on the podium: the table goes on from there
    rest.length ? standingsTable({ ...week, standings: rest }, { live: false })
      : week.standings.length ? null : el("p", { class: "none" }, t("no_past_standings")));
}

function podium(medalists) {
  return el("ol", { class: "podium", "aria-label": t("medals") }, medalists.map((s) =>
    el("li", { class: `medalist place-${s.medal}${isMe(s.player) ? " me" : ""}`, "data-player": s.player },
      medalIcon(s.medal, 30),
      el("span", { class: "who" }, playerLink(s.player, s.name), el("small", {}, medalWord(s.medal))),
      el("strong", { class: `score ${changeClass(s.score)}` }, signed(s.score)))));
}

function standingsTable(week, { live }) {
  if (!week.standings.length) {
    return el("div", { class: "none" }, el("p", {}, t(live ? "no_week_standings" : "no_past_standings")),
      live ? el("a", { class: "button primary", href: "#/?rated" }, t("play_rated")) : null);
  }
  return el("table", { class: "board" },
    el("thead", {}, el("tr", {}, el("th", { scope: "col", class: "place" }, t("place")), el("th", { scope: "col" }, t("player")),
      el("th", { scope: "col", class: "num" }, t("week_score")), el("th", { scope: "col", class: "num narrow-hide" }, t("wins_col")))),
    el("tbody", {}, week.standings.map((s) => el("tr", { class: isMe(s.player) ? "me" : null, "data-player": s.player },
      el("td", { class: "place" }, s.medal ? medalIcon(s.medal, 16) : s.place),
      el("td", { class: "who" }, playerLink(s.player, s.name), el("small", {}, plural(s.matches, "matches"))),
      el("td", { class: `num score ${changeClass(s.score)}` }, signed(s.score)),
      el("td", { class: "num narrow-hide" }, `${s.wins}/${s.matches}`)))));
}

function allTimeCard(rows, numbers) {
  return el("section", { class: "board-card all-time", id: "all-time" },
    el("h2", {}, t("all_time")),
    el("p", { class: "sub" }, fill(t("all_time_note"), { days: numbers.inactive_days })),
    rows.length ? el("table", { class: "board" },
      el("thead", {}, el("tr", {}, el("th", { scope: "col", class: "place" }, t("place")), el("th", { scope: "col" }, t("player")),
        el("th", { scope: "col", class: "num" }, t("rating")), el("th", { scope: "col", class: "num narrow-hide" }, t("matches_col")))),
      el("tbody", {}, rows.map((r) => el("tr", { class: isMe(r.player) ? "me" : null, "data-player": r.player },
        el("td", { class: "place" }, r.place),
        el("td", { class: "who" }, playerLink(r.player, r.name)),
        el("td", { class: "num rating-cell" }, ratingBadge(r)),
        el("td", { class: "num narrow-hide" }, r.games)))))
      : el("p", { class: "none" }, t("no_all_time")));
}

// The lobby's box: this week's leader of each game, and the way to the leaderboards.
export async function leadersBox(box) {
  const boards = await Promise.all(allGames().map((g) => api(`/api/ratings/${g.name}`).catch(() => null)));
  box.replaceChildren(el("h2", {}, el("a", { href: "#/ratings" }, icon("trophy"), t("ratings_box"))),
    el("ul", { class: "leaders" }, allGames().map((g, k) => {
      const top = boards[k]?.this_week?.standings?.slice(0, 3) || [];
      return el("li", { "data-game": g.name }, el("a", { class: "game", href: `#/ratings/${g.name}` }, gameTitle(g.name)),
        top.length ? el("span", { class: "top" }, top.map((s, i) => el("span", { class: "leader" }, el("b", {}, `${i + 1}.`), " ", s.name,
          " ", el("span", { class: `score ${changeClass(s.score)}` }, signed(s.score)))))
          : el("span", { class: "top none" }, t("no_week_short")));
    })));
}
