// A round's printable pairing sheet and result slips (#/tournament/ID/print/ROUND): the boards with their
// table numbers and teams, then one slip a board (the teams, a box for each hand's points and fines, the
// totals, the winner, the signatures of both captains and the referee; in a game without a table referee, no
// fines, and the result helper signs). On paper (@media print) the
// page's header and buttons are left out, and each slip stays whole.
import { el } from "../dom.js";
import { fill, t } from "../i18n.js";
import { page } from "../page.js";
import { unfollow } from "../socket.js";
import { boardsOf, fmtWhen, gameTitleOf, hasReferee, loadTournament, playersOf, rulesLine, stopPolling, teamsOf } from "./tournament/common.js";
import { mark } from "./tournament/marks.js";

const HANDS = 12;

export async function renderPrint(id, round) {
  stopPolling();
  unfollow();
  const tour = await loadTournament(id);
  const teams = teamsOf(tour);
  const boards = boardsOf(tour, round);
  const played = boards.filter((b) => b.team_b != null);
  const bye = boards.find((b) => b.team_b == null);
  const title = el("div", { class: "print-title" }, el("h1", {}, tour.name),
    el("p", {}, [gameTitleOf(tour.game), rulesLine(tour.options, tour.mode), fill(t("tour_round_of"), { r: round, n: tour.round_count ?? "?" })].filter(Boolean).join(" · ")));
  const sheet = el("section", { class: "print-sheet", id: "print-sheet" }, title,
    el("h2", {}, fill(t("tour_print_pairings"), { n: round })),
    boards.length ? el("table", { class: "print-pairings" },
      el("thead", {}, el("tr", {}, el("th", { class: "num" }, t("tour_board")), el("th", {}, t("tour_team_a")), el("th", { class: "vs" }, ""),
        el("th", {}, t("tour_team_b")), el("th", {}, t("tour_result")))),
      el("tbody", {}, played.map((b) => el("tr", { "data-board": b.board },
        el("td", { class: "num board-no" }, b.board),
        el("td", {}, teamBlock(teams.get(b.team_a))), el("td", { class: "vs" }, "×"), el("td", {}, teamBlock(teams.get(b.team_b))),
        el("td", { class: "print-result" }, b.status === "done" ? `${b.points[0]} × ${b.points[1]}` : ""))))) : el("p", {}, t("tour_no_rounds")),
    bye ? el("p", { class: "print-bye" }, fill(t("tour_print_bye"), { team: teams.get(bye.team_a)?.name || "?" })) : null,
    el("p", { class: "print-stamp" }, fill(t("tour_printed_at"), { when: fmtWhen(new Date().toISOString()) })));
  const slips = el("section", { class: "print-slips", id: "print-slips" }, played.map((b) => slip(tour, round, b, teams)));
  page(el("main", { id: "tour-print", class: "tour-print" },
    el("div", { class: "print-tools" },
      el("a", { class: "button", href: `#/tournament/${tour.id}` }, t("tour_back")),
      tour.rounds.length > 1 ? el("span", { class: "print-rounds" }, tour.rounds.map((r) =>
        el("a", { class: `button${r.round === round ? " current" : ""}`, href: `#/tournament/${tour.id}/print/${r.round}` }, fill(t("tour_round_n"), { n: r.round })))) : null,
      el("button", { type: "button", class: "primary", id: "print-now", onclick: () => window.print() }, mark("print"), t("tour_print_button"))),
    sheet, slips));
}

function teamBlock(team) {
  if (!team) return "?";
  return el("span", { class: "print-team" }, el("strong", {}, `${team.team}. ${team.name}`), el("small", {}, playersOf(team)));
}

function slip(tour, round, b, teams) {
  const a = teams.get(b.team_a);
  const bb = teams.get(b.team_b);
  const referee = hasReferee(tour); // fines (C6) and a referee's signature only in a game with a table referee (C8)
  const cols = referee ? [t("tour_slip_points"), t("tour_slip_fines")] : [t("tour_slip_points")];
  const n = cols.length;
  return el("article", { class: "slip", "data-board": b.board },
    el("div", { class: "slip-head" }, el("strong", {}, fill(t("tour_slip_title"), { n: b.board })),
      el("span", {}, `${tour.name} · ${fill(t("tour_round_n"), { n: round })}`)),
    el("div", { class: "slip-teams" }, el("div", {}, el("span", { class: "slip-side" }, "A"), teamBlock(a)),
      el("div", {}, el("span", { class: "slip-side" }, "B"), teamBlock(bb))),
    el("table", { class: "slip-hands" },
      el("thead", {}, el("tr", {}, el("th", { rowspan: 2, class: "num" }, t("hand_no")), el("th", { colspan: n }, `A · ${a?.name || "?"}`),
        el("th", { colspan: n }, `B · ${bb?.name || "?"}`)),
      el("tr", {}, cols.map((c) => el("th", {}, c)), cols.map((c) => el("th", {}, c)))),
      el("tbody", {}, Array.from({ length: HANDS }, (_, i) => el("tr", {}, el("td", { class: "num" }, i + 1), Array.from({ length: 2 * n }, () => el("td")))),
        el("tr", { class: "slip-total" }, el("th", { scope: "row" }, t("tour_total")), el("td", { colspan: n }), el("td", { colspan: n })))),
    el("p", { class: "slip-winner" }, `${t("tour_slip_winner")}: `, el("span", { class: "line" }), ` ${t("tour_slip_time")}: `, el("span", { class: "line short" })),
    el("div", { class: "slip-signs" },
      el("div", {}, el("span", { class: "line" }), el("small", {}, fill(t("tour_sign_captain"), { team: a?.name || "A" }))),
      el("div", {}, el("span", { class: "line" }), el("small", {}, fill(t("tour_sign_captain"), { team: bb?.name || "B" }))),
      el("div", {}, el("span", { class: "line" }), el("small", {}, t(referee ? "tour_sign_referee" : "tour_sign_helper")))));
}
