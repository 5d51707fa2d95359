// A tournament's standings, a line a team with every tie-break column in C10's order (wins, difference,
// points for, head-to-head, the seeded draw), each header spelled out and the order of the tie-breaks
// written under the table, with the CSV and JSON exports; and a team's history: its rounds, opponents,
// results and points, with the link to each table (to watch it, or its replay). The seeded draw shows as a
// small rank (1: first in the draw); its ticket, the hash it comes from, stays in the exports. On a phone
// each team is a card of labelled numbers, its name whole. The players are under their team's name.
import { api } from "../../api.js";
import { el } from "../../dom.js";
import { fill, t } from "../../i18n.js";
import { icon } from "../../icons.js";
import { teamCell, teamsOf } from "./common.js";
import { mark } from "./marks.js";

// [key, header words key, title words key, cell class]
const COLUMNS = [
  ["place", "tour_col_place", "tour_col_place_long", "num place"],
  ["team", "tour_col_team", null, "team"],
  ["played", "tour_col_played", "tour_col_played_long", "num"],
  ["wins", "tour_col_wins", "tour_col_wins_long", "num strong"],
  ["losses", "tour_col_losses", "tour_col_losses_long", "num"],
  ["difference", "tour_col_diff", "tour_col_diff_long", "num"],
  ["points_for", "tour_col_pf", "tour_col_pf_long", "num"],
  ["points_against", "tour_col_pa", "tour_col_pa_long", "num"],
  ["head_to_head", "tour_col_h2h", "tour_col_h2h_long", "h2h"],
  ["draw", "tour_col_draw", "tour_col_draw_long", "draw"],
  ["byes", "tour_col_byes", "tour_col_byes_long", "num"],
  ["status", "tour_col_status", null, "status-col"],
];

// The seeded draw's rank of each ticket: 1 for the lowest (the draw puts it first, C10).
function drawRanks(standings) {
  const sorted = standings.map((x) => x.draw).sort();
  return new Map(sorted.map((ticket, i) => [ticket, i + 1]));
}

function cell(line, key, teams, view, ranks) {
  const v = line[key];
  if (key === "team") return teamCell(teams.get(line.team) || { team: line.team, name: line.name, players: line.players.map((name) => ({ name })) },
    { onclick: (n) => view.showTeam(n) });
  if (key === "place") return el("span", {}, v); // a box of fixed width: the team's column sticks right after it
  if (key === "difference") return v > 0 ? `+${v}` : String(v);
  if (key === "head_to_head") return v ? t(`tour_h2h_${v}`) : "—";
  if (key === "draw") return el("span", { title: fill(t("tour_draw_ticket"), { ticket: v }) }, ranks.get(v));
  if (key === "status") return t(`tour_team_${v}`, v);
  return String(v);
}

export function standingsTable(view) {
  const tour = view.tour;
  const teams = teamsOf(tour);
  const base = `/api/tournaments/${encodeURIComponent(tour.id)}/standings`;
  const head = el("div", { class: "tour-card-head" }, el("h2", {}, t("tour_standings")),
    el("span", { class: "tour-exports" },
      el("a", { class: "button tour-small", href: `${base}.csv`, download: `standings-${tour.id}.csv`, id: "tour-csv" }, mark("download"), "CSV"),
      el("a", { class: "button tour-small", href: `${base}.json`, target: "_blank", rel: "noopener", id: "tour-json" }, mark("download"), "JSON")));
  if (!tour.standings.length) return el("div", { class: "tour-card" }, head, el("p", { class: "none" }, t("tour_no_teams")));
  const ranks = drawRanks(tour.standings);
  // a team's status only when one is not simply registered (withdrawn, late…)
  const columns = COLUMNS.filter(([key]) => key !== "status" || tour.standings.some((x) => x.status !== "registered"));
  const table = el("table", { class: "tour-standings", id: "tour-standings-table" },
    el("thead", {}, el("tr", {}, columns.map(([key, words, long, cls]) => el("th", { scope: "col", class: `c-${key} ${cls}`, title: long ? t(long) : null },
      t(words))))),
    el("tbody", {}, tour.standings.map((line) => el("tr", { "data-team": line.team,
      class: [line.team === tour.me.team ? "me" : "", line.status === "withdrawn" ? "withdrawn" : "", line.team === view.team ? "picked" : ""].join(" ").trim() || null },
    columns.map(([key, words, , cls]) => el(key === "team" ? "th" : "td", { class: `c-${key} ${cls}`, scope: key === "team" ? "row" : null,
      "data-label": t(words) }, cell(line, key, teams, view, ranks)))))));
  return el("div", { class: "tour-card" }, head, el("div", { class: "tour-scroll" }, table),
    el("p", { class: "tour-help tour-tiebreaks" }, t("tour_tiebreaks")));
}

// The replay of a finished table's match: its record's id, asked once.
const records = new Map();
function replayLink(table, box) {
  const put = (id) => { if (id) box.replaceChildren(el("a", { href: `#/replay/${id}`, class: "tour-replay", title: t("replay"), "aria-label": t("replay") }, icon("play"), t("tour_replay"))); };
  if (records.has(table)) { put(records.get(table)); return; }
  api(`/api/tables/${table}/records`).then((list) => { const id = list[0]?.id ?? null; records.set(table, id); put(id); }).catch(() => {});
}

function resultWords(h) {
  if (h.kind === "bye") return t("tour_bye");
  if (h.kind === "missed") return t("tour_missed");
  const what = h.won ? t("tour_win") : t("tour_loss");
  if (h.kind === "forfeit") return `${what} · ${t("tour_res_forfeit")}`;
  if (h.kind === "award") return `${what} · ${t("tour_res_award")}`;
  return what;
}

export function teamHistory(view) {
  const tour = view.tour;
  if (view.team == null) return null;
  const teams = teamsOf(tour);
  const team = teams.get(view.team);
  if (!team) return null;
  const current = tour.rounds.find((r) => r.round === tour.current_round);
  const playing = current?.boards.find((b) => b.status !== "done" && (b.team_a === team.team || b.team_b === team.team));
  const rows = team.history.map((h) => {
    const links = el("td", { class: "links" });
    if (h.table) {
      links.append(el("a", { href: `#/table/${h.table}`, class: "tour-see" }, t("tour_see")));
      const replay = el("span", { class: "tour-replay-box" });
      links.append(replay);
      replayLink(h.table, replay);
    }
    return el("tr", { "data-round": h.round, class: h.kind === "missed" || h.kind === "bye" ? "muted" : h.won ? "won" : "lost" },
      el("td", { class: "num" }, h.round),
      el("td", { class: "opp" }, h.opponent != null ? teamCell(teams.get(h.opponent), { onclick: (n) => view.showTeam(n) }) : "—"),
      el("td", { class: `res ${h.won ? "won" : "lost"}` }, resultWords(h)),
      el("td", { class: "num" }, `${h.points_for} × ${h.points_against}`),
      el("td", { class: "num" }, h.board ?? "—"),
      links);
  });
  if (playing) {
    const opp = playing.team_a === team.team ? playing.team_b : playing.team_a;
    rows.push(el("tr", { "data-round": tour.current_round, class: "playing" }, el("td", { class: "num" }, tour.current_round),
      el("td", { class: "opp" }, opp != null ? teamCell(teams.get(opp), { onclick: (n) => view.showTeam(n) }) : "—"),
      el("td", { class: "res" }, el("span", { class: "live" }, t("tour_live"))), el("td", { class: "num" }, `${playing.points[0]} × ${playing.points[1]}`),
      el("td", { class: "num" }, playing.board),
      el("td", { class: "links" }, playing.table ? el("a", { href: `#/table/${playing.table}` }, t("watch")) : null)));
  }
  return el("div", { class: "tour-card" },
    el("div", { class: "tour-card-head" }, el("h2", {}, fill(t("tour_history_of"), { team: team.name })),
      el("button", { type: "button", class: "icon-button tour-close", "aria-label": t("close"), title: t("close"), onclick: () => view.showTeam(team.team) }, icon("close"))),
    el("p", { class: "tour-help" }, team.players.map((p) => p.name).join(" & "),
      team.entered_round > 1 ? ` · ${fill(t("tour_entered_round"), { n: team.entered_round })}` : "",
      team.no_shows ? ` · ${fill(t("tour_no_shows"), { n: team.no_shows })}` : "",
      ` · ${t(`tour_team_${team.status}`)}`),
    rows.length ? el("div", { class: "tour-scroll" }, el("table", { class: "tour-history-table" },
      el("thead", {}, el("tr", {}, el("th", { class: "num" }, t("tour_col_round")), el("th", {}, t("tour_opponent")), el("th", {}, t("tour_result")),
        el("th", { class: "num" }, t("tour_points")), el("th", { class: "num" }, t("tour_board")), el("th", {}, el("span", { class: "sr" }, t("tour_tables"))))),
      el("tbody", {}, rows))) : el("p", { class: "none" }, t("tour_history_empty")));
}
