// A tournament's page (GET /api/tournaments/ID, refreshed every 3 s while it is on screen): the header,
// what I can do (register a team, accept an invitation, withdraw, check in for my board, my referee
// boards), the live pairings of each round with their board numbers and links to watch, the standings
// with every tie-break column (C10) and their CSV and JSON, each team's history, and the organiser's tools.
import { $, el, showError } from "../dom.js";
import { myself } from "../identity.js";
import { fill, language, plural, t } from "../i18n.js";
import { page } from "../page.js";
import { shareBox } from "../share.js";
import { unfollow } from "../socket.js";
import { boardState, boardsOf, entersBoard, errorIn, fmtWhen, gameTitleOf, hasReferee, loadTournament, namedOf, patch, poll, roundsLine,
  rulesLine, boardNote, seatAt, teamCell, teamCount, teamsOf, tourCall } from "./tournament/common.js";
import { mark } from "./tournament/marks.js";
import { organiserTools } from "./tournament/organiser.js";
import { standingsTable, teamHistory } from "./tournament/standings.js";

export async function renderTournament(id) {
  unfollow();
  const hash = location.hash.split("?")[0];
  const view = { id, tour: await loadTournament(id), round: null, team: null, draw: null, refresh: null };
  const box = (name, tag = "section") => el(tag, { id: `tour-${name}`, class: `tour-box tour-${name}` });
  const ui = { head: box("head", "div"), me: box("me"), tools: box("tools"), rounds: box("rounds"), standings: box("standings"),
    history: box("history"), info: box("info") };
  page(el("main", { id: "tournament", class: "tour-page" }, ui.head,
    el("div", { class: "tour-cols" }, el("div", { class: "tour-col-main" }, ui.me, ui.standings, ui.history, ui.info),
      el("div", { class: "tour-col-side" }, ui.rounds, ui.tools))));
  view.draw = () => draw(view, ui);
  view.showTeam = (n) => showTeam(view, n);
  view.refresh = async () => { view.tour = await loadTournament(id); view.draw(); };
  // after an action: the page at once, and any error in the page's words
  view.act = async (fn, after = null) => {
    try { const out = await fn(); await view.refresh(); if (after) after(out); return out; }
    catch (err) { showError(errorIn(err), err?.detail); await view.refresh().catch(() => {}); return null; }
  };
  view.draw();
  poll(hash, view.refresh, 3000);
}

function draw(view, ui) {
  const tour = view.tour;
  $("#tournament").dataset.status = tour.status;
  $("#tournament").dataset.mode = tour.mode;
  patch(ui.head, [tour.name, tour.status, tour.current_round, tour.round_count, tour.teams, tour.starts_at, tour.registration_open,
    tour.registration_closes, tour.standings[0]?.name, tour.options, tour.no_show_grace], () => header(tour));
  drawMe(view, ui.me);
  ui.me.hidden = !ui.me.children.length;
  if (tour.me.organiser) organiserTools(view, ui.tools);
  ui.tools.hidden = !tour.me.organiser;
  patch(ui.rounds, [tour.rounds, view.round, tour.me, tour.current_round, tour.teams.map((x) => [x.name, x.players]), tour.round_started_at],
    () => roundsBox(view));
  if (tour.status === "registration") patch(ui.standings, ["teams", tour.teams, tour.me.organiser], () => teamsBox(view));
  else patch(ui.standings, ["standings", tour.standings, tour.me.team, view.team], () => standingsTable(view));
  patch(ui.history, [view.team, view.team && tour.teams.find((x) => x.team === view.team), boardsOf(tour)], () => teamHistory(view));
  ui.history.hidden = view.team == null;
  patch(ui.info, [tour.referees, tour.helpers, tour.forbidden, tour.teams.length], () => infoBox(tour));
}

// -- the header ------------------------------------------------------------------------------------
function header(tour) {
  const champion = tour.status === "finished" ? tour.standings[0] : null;
  const closes = tour.registration_closes ? fill(t("tour_reg_until"), { when: fmtWhen(tour.registration_closes, { zone: "short" }) }) : t("tour_reg_until_half");
  return [
    el("div", { class: "tour-title" }, el("h1", {}, tour.name),
      el("span", { class: `tour-status tour-status-${tour.status}` }, t(`tour_status_${tour.status}`))),
    el("p", { class: "tour-facts" },
      el("span", {}, el("strong", {}, gameTitleOf(tour.game))), el("span", {}, t(`tour_mode_${tour.mode}_short`)),
      el("span", { class: "tour-round-line" }, roundsLine(tour)), el("span", {}, plural(teamCount(tour), "tour_teams"))),
    el("p", { class: "tour-facts tour-when" },
      el("span", { class: "tour-when-at" }, mark("clock"), el("time", { datetime: tour.starts_at }, fmtWhen(tour.starts_at))),
      el("span", {}, fill(t("tour_organiser_by"), { name: tour.organiser.name || "?" }))),
    el("p", { class: "tour-facts tour-rules-line" }, el("span", {}, rulesLine(tour.options, tour.mode)),
      el("span", {}, fill(t("tour_grace_n"), { n: Math.round(tour.no_show_grace / 60) })),
      tour.status !== "finished" ? el("span", {}, tour.registration_open ? closes : t("tour_reg_closed")) : null),
    champion ? el("p", { class: "tour-champion" }, mark("bracket"), fill(t("tour_champion"), { team: champion.name })) : null,
    shareBox(`${location.origin}/#/tournament/${encodeURIComponent(tour.id)}`,
      { label: "share_tour", text: "share_tour_text", parts: { name: tour.name }, id: "tour-share" }),
  ];
}

// -- what I can do ---------------------------------------------------------------------------------
function drawMe(view, box) {
  const tour = view.tour;
  const board = tour.me.board != null ? boardsOf(tour).find((b) => b.board === tour.me.board) : null;
  const mine = tour.teams.find((x) => x.team === tour.me.team);
  patch(box, ["me", tour.me, tour.status, tour.registration_open, mine, board, myself()?.id, myself()?.guest, tour.round_started_at],
    () => meBox(view, mine, board));
}

function meBox(view, mine, board) {
  const tour = view.tour;
  const out = [];
  const account = myself() && myself().guest === false;
  for (const no of tour.me.invited) {
    const team = tour.teams.find((x) => x.team === no);
    out.push(el("div", { class: "tour-invite", "data-team": no },
      el("p", {}, fill(t("tour_invited"), { name: team?.players[0]?.name || "?", team: team?.name || "?" })),
      el("button", { class: "primary", id: `accept-${no}`, onclick: () => view.act(() => tourCall(tour.id, `/teams/${no}/accept`)) }, t("tour_accept"))));
  }
  if (mine) out.push(...myTeam(view, mine, board));
  else if (!tour.me.invited.length && tour.status !== "finished") {
    if (!account && tour.registration_open) out.push(el("p", { class: "tour-note" }, t("tour_login_to_play")));
    else if (account && tour.registration_open) out.push(registerForm(view));
  }
  if ((tour.me.referee || tour.me.helper) && !tour.me.organiser) out.push(myBoards(tour));
  return out.length ? el("div", { class: "tour-card tour-me-card" }, out) : null;
}

function registerForm(view) {
  const tour = view.tour;
  const partner = el("input", { id: "tour-partner", required: true, pattern: "[A-Za-z0-9._-]{3,24}", autocomplete: "off",
    autocapitalize: "none", spellcheck: "false", placeholder: t("tour_partner_example") });
  const name = el("input", { id: "tour-team-name", maxlength: 64, autocomplete: "off" });
  return el("form", { id: "tour-register", class: "tour-register", onsubmit: (e) => {
    e.preventDefault();
    const body = { partner: partner.value.trim().toLowerCase() };
    if (name.value.trim()) body.name = name.value.trim();
    view.act(() => tourCall(tour.id, "/teams", "POST", body));
  } },
  el("h2", {}, t("tour_registration")),
  el("p", { class: "tour-help" }, t("tour_register_help")),
  tour.status === "running" ? el("p", { class: "tour-help" }, t("tour_late_entry")) : null,
  el("div", { class: "tour-row" },
    el("label", { for: "tour-partner", class: "tour-field" }, el("span", { class: "tour-label" }, t("tour_partner")), partner),
    el("label", { for: "tour-team-name", class: "tour-field" }, el("span", { class: "tour-label" }, t("tour_team_name")), name),
    el("button", { type: "submit", class: "primary", id: "tour-register-submit" }, t("tour_register"))));
}

function myTeam(view, mine, board) {
  const tour = view.tour;
  const partnerInvited = mine.status === "invited";
  const status = partnerInvited ? fill(t("tour_waiting_partner"), { name: mine.players[1]?.name || "?" }) : t(`tour_team_${mine.status}`);
  const parts = [el("div", { class: "tour-my-team" },
    el("span", { class: "tour-label" }, t("tour_your_team")),
    teamCell(mine, { onclick: (n) => showTeam(view, n) }),
    el("span", { class: `tour-team-status status-${mine.status}` }, status),
    mine.status !== "withdrawn" && tour.status !== "finished"
      ? el("button", { type: "button", class: "tour-withdraw", id: "tour-withdraw", onclick: () => {
        if (confirm(t("tour_withdraw_confirm"))) view.act(() => tourCall(tour.id, `/teams/${mine.team}/withdraw`));
      } }, t("tour_withdraw")) : null)];
  if (tour.status === "running" && mine.status === "registered") parts.push(myBoard(view, mine, board));
  const line = tour.standings.find((s) => s.team === mine.team);
  if (tour.status === "finished" && line) parts.push(el("p", { class: "tour-my-place" }, fill(t("tour_your_place"), { n: line.place, w: plural(line.wins, "tour_n_wins"), l: plural(line.losses, "tour_n_losses") })));
  return parts;
}

// My board in the round in play: check in (online), who has sat, the table; my bye; my result.
function myBoard(view, mine, board) {
  const tour = view.tour;
  const r = tour.current_round;
  if (!board) return el("p", { class: "tour-my-board" }, mine.entered_round > r ? t("tour_enters_next") : t("tour_no_board"));
  if (board.team_b == null) return el("p", { class: "tour-my-board tour-bye-note" }, fill(t("tour_bye_you"), { r }));
  const head = el("strong", { class: "tour-your-board" }, fill(t("tour_your_board"), { n: board.board, r }));
  if (board.status === "done") {
    const won = board.winner === mine.team;
    return el("p", { class: "tour-my-board" }, head, " ", el("span", { class: won ? "won" : "lost" }, won ? t("tour_win") : t("tour_loss")),
      ` · ${boardState(tour, board)}`, " ", el("span", { class: "tour-help" }, t("tour_wait_next")));
  }
  if (tour.mode === "board") return el("p", { class: "tour-my-board" }, head, " ", el("span", {}, t("tour_board_physical")));
  const mySeat = seatAt(tour, board, myself()?.id);
  const seated = board.seated;
  const go = el("a", { class: "button", href: `#/table/${board.table}`, id: "tour-go-table" }, t("tour_go_table"));
  if (!seated) return el("div", { class: "tour-my-board" }, head, el("span", {}, t("tour_match_on")), go);
  const deadline = tour.round_started_at ? new Date(new Date(tour.round_started_at).getTime() + tour.no_show_grace * 1000) : null;
  const dots = el("span", { class: "tour-seated", title: fill(t("tour_seated_n"), { n: seated.filter(Boolean).length }) },
    seated.map((s, k) => el("i", { class: s ? "in" : "", "data-seat": k, "aria-hidden": "true" })),
    el("span", {}, fill(t("tour_seated_n"), { n: seated.filter(Boolean).length })));
  const checked = mySeat != null && seated[mySeat];
  return el("div", { class: "tour-my-board tour-checkin" }, head, dots,
    deadline ? el("span", { class: "tour-help" }, fill(t("tour_noshow_at"), { when: deadline.toLocaleTimeString(language(), { hour: "2-digit", minute: "2-digit", timeZoneName: "short" }) })) : null,
    checked ? [el("span", { class: "tour-checked" }, mark("check"), t("tour_checked_in")), go]
      : el("button", { class: "primary big", id: "tour-checkin", onclick: () => view.act(() => tourCall(tour.id, "/checkin"),
        (out) => { if (out?.table) location.hash = `#/table/${out.table}`; }) }, t("tour_checkin")));
}

// The boards I referee, or (a game without a table referee) whose over-the-board results I enter.
function myBoards(tour) {
  const boards = boardsOf(tour).filter((b) => b.team_b != null && entersBoard(tour, b.board));
  const mine = tour.me.referee || tour.me.helper;
  const which = mine === "all" ? t("tour_all_boards") : mine.join(", ");
  return el("div", { class: "tour-my-referee" },
    el("p", {}, mark(tour.me.referee ? "whistle" : "sheet"), fill(t(tour.me.referee ? "tour_you_referee" : "tour_you_helper"), { boards: which })),
    boards.length ? el("div", { class: "tour-links" }, boards.map((b) => refereeLink(tour, b, true))) : null);
}

// The referee's (or result helper's) way to a board: the console (online, a game with a table referee) or
// the scoresheet (over the board).
function refereeLink(tour, b, long = false) {
  if (b.status === "done" || b.team_b == null) return null;
  if (tour.mode === "board") {
    return el("a", { class: "button tour-sheet-link", href: `#/tournament/${tour.id}/board/${tour.current_round}/${b.board}`, "data-board": b.board },
      mark("sheet"), long ? fill(t("tour_sheet_n"), { n: b.board }) : t("tour_sheet"));
  }
  if (!b.table || !hasReferee(tour)) return null; // a game without referees (GET /api/variants) has no console
  return el("a", { class: "button tour-ref-link", href: `#/referee/${b.table}`, "data-board": b.board },
    mark("whistle"), long ? fill(t("tour_referee_n"), { n: b.board }) : t("tour_referee"));
}

// -- the pairings -------------------------------------------------------------------------------------
function roundsBox(view) {
  const tour = view.tour;
  const head = el("div", { class: "tour-card-head" }, el("h2", {}, t("tour_pairings")));
  if (!tour.rounds.length) return el("div", { class: "tour-card" }, head, el("p", { class: "none" }, t("tour_no_rounds")));
  const r = view.round ?? tour.current_round;
  const tabs = el("div", { class: "tour-round-tabs", role: "tablist", "aria-label": t("tour_pairings") },
    tour.rounds.map((x) => el("button", { type: "button", role: "tab", class: `tab${x.round === r ? " current" : ""}`, "aria-selected": x.round === r ? "true" : "false",
      "data-round": x.round, onclick: () => { view.round = x.round === tour.current_round ? null : x.round; view.draw(); } },
    fill(t("tour_round_n"), { n: x.round }))));
  const teams = teamsOf(tour);
  const boards = boardsOf(tour, r);
  const list = el("ol", { class: "tour-boards", "data-round": r }, boards.map((b) => boardItem(view, teams, b, r)));
  return el("div", { class: "tour-card" }, head, tabs,
    el("div", { class: "tour-round-tools" },
      r === tour.current_round && tour.round_started_at ? el("span", { class: "tour-help" }, fill(t("tour_round_started"), { when: fmtWhen(tour.round_started_at, { weekday: false }) })) : null,
      el("a", { class: "button tour-print-link", href: `#/tournament/${tour.id}/print/${r}`, id: "tour-print" }, mark("print"), t("tour_print"))),
    list);
}

function boardItem(view, teams, b, r) {
  const tour = view.tour;
  const show = (n) => showTeam(view, n);
  const a = teams.get(b.team_a);
  if (b.team_b == null) {
    return el("li", { class: "tour-board bye", "data-board": b.board },
      el("span", { class: "tour-board-no" }, t("tour_bye")),
      el("span", { class: "tour-board-teams" }, teamCell(a, { onclick: show, cls: "side-a winner" }),
        el("span", { class: "tour-board-score" }, `${b.points[0]} × 0`)));
  }
  const bb = teams.get(b.team_b);
  const done = b.status === "done";
  const win = (team) => (done ? (b.winner === team ? " winner" : " loser") : "");
  const seated = b.seated ? el("span", { class: "tour-seated", title: fill(t("tour_seated_n"), { n: b.seated.filter(Boolean).length }) },
    b.seated.map((s, k) => el("i", { class: s ? "in" : "", "data-seat": k, "aria-hidden": "true" }))) : null;
  const live = !done && b.table && !b.seated && tour.mode === "online";
  const links = [
    b.table ? el("a", { class: "button tour-watch", href: `#/table/${b.table}`, "data-board": b.board }, done ? t("tour_see") : t("watch")) : null,
    r === tour.current_round && entersBoard(tour, b.board) ? refereeLink(tour, b) : null,
  ].filter(Boolean);
  const mine = tour.me.team != null && (b.team_a === tour.me.team || b.team_b === tour.me.team);
  return el("li", { class: `tour-board status-${b.status}${mine ? " tour-mine" : ""}`, "data-board": b.board },
    el("span", { class: "tour-board-no" }, fill(t("tour_board_n"), { n: b.board })),
    el("span", { class: "tour-board-teams" },
      teamCell(a, { onclick: show, cls: `side-a${win(b.team_a)}` }),
      el("span", { class: "tour-board-score" }, live ? el("span", { class: "live" }, t("tour_live")) : null, boardState(tour, b),
        boardNote(b) ? el("small", {}, boardNote(b)) : null, seated),
      teamCell(bb, { onclick: show, cls: `side-b${win(b.team_b)}` })),
    links.length ? el("span", { class: "tour-board-links" }, links) : null);
}

export function showTeam(view, n) {
  view.team = view.team === n ? null : n;
  view.draw();
  if (view.team != null) $("#tour-history")?.scrollIntoView({ block: "nearest", behavior: "smooth" });
}

// -- the teams (in registration) ------------------------------------------------------------------
function teamsBox(view) {
  const tour = view.tour;
  const teams = tour.teams.filter((x) => x.status !== "withdrawn");
  return el("div", { class: "tour-card" }, el("div", { class: "tour-card-head" }, el("h2", {}, t("tour_teams")),
    el("span", { class: "tour-help" }, plural(tour.teams.filter((x) => x.status === "registered").length, "tour_teams_registered"))),
  teams.length ? el("ol", { class: "tour-team-list" }, teams.map((x) => el("li", { "data-team": x.team, class: `status-${x.status}` }, el("div", { class: "tour-li" },
    teamCell(x, { onclick: (n) => showTeam(view, n) }),
    el("span", { class: `tour-team-status status-${x.status}` }, x.status === "invited"
      ? fill(t("tour_waiting_partner"), { name: x.players[1]?.name || "?" }) : t(`tour_team_${x.status}`)),
    tour.me.organiser ? el("button", { type: "button", class: "tour-small", onclick: () => {
      if (confirm(fill(t("tour_withdraw_team_confirm"), { team: x.name }))) view.act(() => tourCall(tour.id, `/teams/${x.team}/withdraw`));
    } }, t("tour_withdraw_team")) : null))))
    : el("p", { class: "none" }, t("tour_no_teams")));
}

// -- referees (or result helpers) and forbidden pairings, for everyone to see ---------------------------
function infoBox(tour) {
  const named = namedOf(tour);
  if (!named.length && !tour.forbidden.length) return null;
  const teams = teamsOf(tour);
  const referee = hasReferee(tour);
  return el("div", { class: "tour-card tour-info-card" },
    named.length ? [el("h2", {}, mark(referee ? "whistle" : "sheet"), t(referee ? "tour_referees" : "tour_helpers")),
      el("ul", { class: referee ? "tour-referees" : "tour-referees tour-helpers" }, named.map((r) =>
        el("li", {}, el("strong", {}, r.name || "?"), " · ", r.boards.length ? fill(t("tour_boards_list"), { boards: r.boards.join(", ") }) : t("tour_all_boards")))),
      referee ? null : el("p", { class: "tour-help" }, t("tour_helpers_note"))] : null,
    tour.forbidden.length ? [el("h2", {}, t("tour_forbidden_list")), el("ul", { class: "tour-forbidden" }, tour.forbidden.map(([a, b]) =>
      el("li", {}, `${teams.get(a)?.name || a} ≠ ${teams.get(b)?.name || b}`)))] : null);
}

