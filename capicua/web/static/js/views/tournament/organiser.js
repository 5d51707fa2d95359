// The organiser's tools on the tournament's page (me.organiser): start now, pair the next round (the Swiss
// system, or by hand), pair the current round again by hand while none of its matches has started,
// forbid pairings (teammates from one club), name referees with their boards (in a game without a table
// referee: result helpers, who enter over-the-board results only), and change the rounds,
// the automatic pairing and the no-show grace. Each part is drawn again only when its data changes, so
// what the organiser is typing stays.
import { $, el } from "../../dom.js";
import { fill, t } from "../../i18n.js";
import { boardsOf, gameTitleOf, hasReferee, namedOf, patch, tourCall } from "./common.js";
import { mark } from "./marks.js";

export function organiserTools(view, box) {
  if (!$("details", box) || box.dataset.status !== view.tour.status) { // drawn again, folded or not, when the status changes
    box.dataset.status = view.tour.status;
    const open = view.tour.status === "registration" || matchMedia("(min-width: 900px)").matches; // folded on a phone once it runs
    box.replaceChildren(el("details", { class: "tour-card tour-tools-card", open },
      el("summary", {}, el("h2", {}, t("tour_organiser_tools"))),
      el("div", { class: "tour-tools-body" },
        el("div", { id: "tour-tool-run", class: "tour-tool" }), el("div", { id: "tour-tool-settings", class: "tour-tool" }),
        el("div", { id: "tour-tool-pairing", class: "tour-tool" }), el("div", { id: "tour-tool-referees", class: "tour-tool" }),
        el("div", { id: "tour-tool-forbid", class: "tour-tool" }))));
  }
  const tour = view.tour;
  const boards = boardsOf(tour);
  const roundDone = boards.length > 0 && boards.every((b) => b.status === "done");
  const registered = tour.teams.filter((x) => x.status === "registered");
  patch($("#tour-tool-run", box), [tour.status, tour.current_round, tour.round_count, roundDone, registered.length, tour.auto_pair], () => runTool(view, roundDone, registered));
  patch($("#tour-tool-settings", box), [tour.status, tour.round_count, tour.current_round, tour.auto_pair, tour.no_show_grace], () => settingsTool(view));
  patch($("#tour-tool-pairing", box), [tour.status, tour.current_round, tour.round_count, roundDone, registered.map((x) => [x.team, x.name, x.entered_round]),
    boards.map((b) => [b.board, b.team_a, b.team_b, b.status, Boolean(b.seated)])], () => pairingTool(view, roundDone));
  patch($("#tour-tool-referees", box), [tour.referees, tour.helpers, tour.status, tour.mode, hasReferee(tour)], () => refereesTool(view));
  patch($("#tour-tool-forbid", box), [tour.forbidden, tour.teams.map((x) => [x.team, x.name, x.status]), tour.status], () => forbidTool(view));
}

const label = (id, words, input) => el("label", { for: id, class: "tour-field" }, el("span", { class: "tour-label" }, words), input);

function runTool(view, roundDone, registered) {
  const tour = view.tour;
  if (tour.status === "registration") {
    const enough = registered.length >= 2;
    return [el("button", { type: "button", class: "primary", id: "tour-start", disabled: !enough, onclick: () => {
      if (confirm(fill(t("tour_start_confirm"), { n: registered.length }))) view.act(() => tourCall(tour.id, "/start"));
    } }, t("tour_start_now")),
    el("span", { class: "tour-help" }, enough ? t("tour_start_help") : t("tour_start_too_few"))];
  }
  if (tour.status === "running" && roundDone && tour.current_round < (tour.round_count || 0)) {
    return [el("button", { type: "button", class: "primary", id: "tour-pair-next", onclick: () => view.act(() => tourCall(tour.id, "/rounds", "POST", {})) },
      fill(t("tour_pair_next"), { n: tour.current_round + 1 })), el("span", { class: "tour-help" }, t("tour_pair_next_help"))];
  }
  if (tour.status === "running") return el("span", { class: "tour-help" }, tour.auto_pair ? t("tour_running_auto") : t("tour_running_manual"));
  return el("span", { class: "tour-help" }, t("tour_over_note"));
}

function settingsTool(view) {
  const tour = view.tour;
  if (tour.status === "finished") return null;
  const min = Math.max(1, tour.current_round);
  const rounds = el("input", { id: "tour-set-rounds", type: "number", min, max: 30, step: 1, value: tour.round_count ?? "", placeholder: t("tour_rounds_auto_short") });
  const grace = el("input", { id: "tour-set-grace", type: "number", min: 0, max: 60, step: 1, value: Math.round(tour.no_show_grace / 60) });
  const auto = el("input", { id: "tour-set-auto", type: "checkbox", checked: tour.auto_pair });
  return el("form", { class: "tour-settings", onsubmit: (e) => {
    e.preventDefault();
    const body = { auto_pair: auto.checked, no_show_grace: Math.round(Number(grace.value || 0) * 60) };
    if (rounds.value !== "") body.rounds = Number(rounds.value);
    view.act(() => tourCall(tour.id, "", "PATCH", body));
  } },
  el("h3", {}, t("tour_settings")),
  el("div", { class: "tour-row" }, label("tour-set-rounds", t("tour_rounds"), rounds), label("tour-set-grace", t("tour_grace"), grace),
    el("label", { class: "tour-check", for: "tour-set-auto" }, auto, el("span", {}, t("tour_auto_pair"))),
    el("button", { type: "submit", id: "tour-set-save" }, t("save"))));
}

// -- pairing by hand ---------------------------------------------------------------------------------
function pairingTool(view, roundDone) {
  const tour = view.tour;
  if (tour.status !== "running" || tour.current_round < 1) return null;
  const r = tour.current_round;
  const boards = boardsOf(tour);
  const next = roundDone && r < (tour.round_count || 0);
  const started = boards.some((b) => (b.table && b.status !== "done" && !b.seated) || (b.status === "done" && b.kind !== "bye"));
  if (!next && started) return el("p", { class: "tour-help" }, fill(t("tour_repair_closed"), { n: r }));
  if (!next && roundDone) return null;
  const target = next ? r + 1 : r;
  const active = tour.teams.filter((x) => x.status === "registered" && x.entered_round <= target);
  const byTeam = new Map(tour.standings.map((s, i) => [s.team, i]));
  active.sort((a, b) => (byTeam.get(a.team) ?? 1e9) - (byTeam.get(b.team) ?? 1e9));
  let pairs;
  let bye = null;
  if (next) { // a starting point: down the standings, each with the next it has not met nor is kept from
    const apart = new Set(tour.forbidden.map(([x, y]) => `${Math.min(x, y)}-${Math.max(x, y)}`));
    const met = (x, y) => apart.has(`${Math.min(x.team, y.team)}-${Math.max(x.team, y.team)}`)
      || x.history.some((h) => h.met && h.opponent === y.team);
    const left = [...active];
    pairs = [];
    if (left.length % 2) {
      const k = [...left].reverse().findIndex((x) => !x.history.some((h) => h.kind === "bye"));
      bye = left.splice(k < 0 ? left.length - 1 : left.length - 1 - k, 1)[0].team;
    }
    while (left.length > 1) {
      const a = left.shift();
      const k = Math.max(0, left.findIndex((b) => !met(a, b)));
      pairs.push([a.team, left.splice(k, 1)[0].team]);
    }
  } else {
    pairs = boards.filter((b) => b.team_b != null).map((b) => [b.team_a, b.team_b]);
    bye = boards.find((b) => b.team_b == null)?.team_a ?? null;
  }
  const options = (chosen) => [el("option", { value: "" }, t("tour_none_option")),
    ...active.map((x) => el("option", { value: x.team, selected: x.team === chosen }, `${x.team}. ${x.name}`))];
  const list = el("ol", { class: "tour-editor-boards" });
  const row = (a, b) => el("li", { class: "tour-editor-board" },
    el("select", { class: "pick-a", "aria-label": t("tour_team_a") }, options(a)), el("span", { class: "vs" }, "×"),
    el("select", { class: "pick-b", "aria-label": t("tour_team_b") }, options(b)),
    el("button", { type: "button", class: "icon-button tour-small", "aria-label": t("tour_remove_board"), title: t("tour_remove_board"),
      onclick: (e) => e.target.closest("li").remove() }, "−"));
  list.append(...pairs.map(([a, b]) => row(a, b)));
  const byeSelect = el("select", { id: "tour-editor-bye" }, options(bye));
  const save = (e) => {
    e.preventDefault();
    const chosen = [...list.querySelectorAll("li")].map((li) => [Number($(".pick-a", li).value), Number($(".pick-b", li).value)])
      .filter(([a, b]) => a && b);
    const body = { pairs: chosen, bye: byeSelect.value ? Number(byeSelect.value) : null };
    const seen = [...chosen.flat(), ...(body.bye ? [body.bye] : [])];
    if (new Set(seen).size !== seen.length) { view.act(async () => { throw new Error(t("tour_editor_twice")); }); return; }
    if (!confirm(fill(t(next ? "tour_pair_hand_confirm" : "tour_repair_confirm"), { n: target }))) return;
    view.act(() => (next ? tourCall(tour.id, "/rounds", "POST", body) : tourCall(tour.id, `/rounds/${r}`, "PUT", body)));
  };
  return el("details", { class: "tour-editor" },
    el("summary", {}, fill(t(next ? "tour_pair_hand" : "tour_repair"), { n: target })),
    el("form", { id: "tour-editor", onsubmit: save },
      el("p", { class: "tour-help" }, t(next ? "tour_pair_hand_help" : "tour_repair_help")),
      el("div", { class: "tour-editor-head" }, el("span", {}, t("tour_board")), el("span", {}, t("tour_team_a")), el("span", {}), el("span", {}, t("tour_team_b"))),
      list,
      el("div", { class: "tour-row" }, label("tour-editor-bye", t("tour_bye"), byeSelect),
        el("button", { type: "button", id: "tour-editor-add", onclick: () => list.append(row(null, null)) }, t("tour_add_board")),
        el("button", { type: "submit", class: "primary", id: "tour-editor-save" }, t("tour_save_pairing")))));
}

// -- referees ------------------------------------------------------------------------------------------
function parseBoards(text) {
  return [...new Set(text.split(/[\s,;]+/).filter(Boolean).map(Number).filter((n) => Number.isInteger(n) && n >= 1))].sort((a, b) => a - b);
}

// The words of each role: a table referee (C8), or a result helper where the game has no table referee.
const ROLES = {
  referee: { path: "referees", icon: "whistle", title: "tour_referees", none: "tour_referees_none", user: "tour_referee_user", add: "tour_name_referee" },
  helper: { path: "helpers", icon: "sheet", title: "tour_helpers", none: "tour_helpers_none", user: "tour_helper_user", add: "tour_name_helper" },
};

function refereesTool(view) {
  const tour = view.tour;
  if (tour.status === "finished") return null;
  const referee = hasReferee(tour); // GET /api/variants' `referee`, never the game's name
  const game = gameTitleOf(tour.game);
  // Online, a game without a table referee has nobody to name: its matches give the results.
  if (!referee && tour.mode !== "board") return [el("h3", {}, mark("sheet"), t("tour_helpers")), el("p", { class: "tour-help", id: "tour-no-referee" }, fill(t("tour_no_referee_online"), { game }))];
  const role = ROLES[referee ? "referee" : "helper"];
  const named = namedOf(tour);
  const user = el("input", { id: "tour-ref-user", required: true, pattern: "[A-Za-z0-9._-]{3,24}", autocomplete: "off", autocapitalize: "none",
    spellcheck: "false", placeholder: t("tour_partner_example") });
  const boards = el("input", { id: "tour-ref-boards", inputmode: "numeric", placeholder: t("tour_all_boards"), autocomplete: "off" });
  return [el("h3", {}, mark(role.icon), t(role.title)),
    referee ? null : el("p", { class: "tour-help", id: "tour-helpers-help" }, fill(t("tour_helpers_help"), { game })),
    named.length ? el("ul", { class: "tour-referees-edit" }, named.map((r) => el("li", {},
      el("strong", {}, r.name || "?"), el("span", {}, r.boards.length ? fill(t("tour_boards_list"), { boards: r.boards.join(", ") }) : t("tour_all_boards")),
      el("button", { type: "button", class: "tour-small", "data-referee": r.id, onclick: () => {
        const username = usernameOf(tour.id, r);
        if (username) view.act(() => tourCall(tour.id, `/${role.path}/${encodeURIComponent(username)}`, "DELETE"));
      } }, t("tour_remove"))))) : el("p", { class: "tour-help" }, t(role.none)),
    el("form", { id: "tour-referee-form", class: "tour-row", "data-role": referee ? "referee" : "helper", onsubmit: (e) => {
      e.preventDefault();
      const username = user.value.trim().toLowerCase();
      const before = new Set(named.map((r) => r.id));
      view.act(() => tourCall(tour.id, `/${role.path}/${encodeURIComponent(username)}`, "PUT", { boards: parseBoards(boards.value) }),
        (out) => { const added = out?.[role.path]?.find((r) => !before.has(r.id)); if (added) remember(tour.id, added.id, username); });
    } },
    label("tour-ref-user", t(role.user), user), label("tour-ref-boards", t("tour_referee_boards"), boards),
    el("button", { type: "submit", id: "tour-ref-add" }, t(role.add)))];
}

// A referee is removed by his username, which the page does not show (usernames sign in): this browser
// keeps the ones it named; for another, the organiser types it (his name, lower-cased, is offered).
const KEY = "capicua.tour-referees";
const known = () => JSON.parse(localStorage.getItem(KEY) || "{}");
function remember(tournament, id, username) {
  const all = known();
  all[tournament] = { ...(all[tournament] || {}), [id]: username };
  localStorage.setItem(KEY, JSON.stringify(all));
}
function usernameOf(tournament, r) {
  const kept = known()[tournament]?.[r.id];
  if (kept) return kept;
  const typed = prompt(fill(t("tour_ref_remove_prompt"), { name: r.name || "?" }), (r.name || "").toLowerCase().replace(/[^a-z0-9._-]/g, ""));
  return typed ? typed.trim().toLowerCase() : null;
}

// -- forbidden pairings ---------------------------------------------------------------------------------
function forbidTool(view) {
  const tour = view.tour;
  if (tour.status === "finished") return null;
  const teams = tour.teams.filter((x) => x.status !== "withdrawn");
  if (teams.length < 2) return [el("h3", {}, t("tour_forbid")), el("p", { class: "tour-help" }, t("tour_forbid_help"))];
  const byNo = new Map(tour.teams.map((x) => [x.team, x]));
  const pick = (id) => el("select", { id }, teams.map((x) => el("option", { value: x.team }, `${x.team}. ${x.name}`)));
  const a = pick("tour-forbid-a");
  const b = pick("tour-forbid-b");
  if (b.options.length > 1) b.selectedIndex = 1;
  return [el("h3", {}, t("tour_forbid")), el("p", { class: "tour-help" }, t("tour_forbid_help")),
    tour.forbidden.length ? el("ul", { class: "tour-forbidden-edit" }, tour.forbidden.map(([x, y]) => el("li", {},
      el("span", {}, `${byNo.get(x)?.name || x} ≠ ${byNo.get(y)?.name || y}`),
      el("button", { type: "button", class: "tour-small", onclick: () => view.act(() => tourCall(tour.id, "/forbidden", "POST", { a: x, b: y, forbidden: false })) },
        t("tour_allow"))))) : null,
    el("form", { id: "tour-forbid-form", class: "tour-row", onsubmit: (e) => {
      e.preventDefault();
      view.act(() => tourCall(tour.id, "/forbidden", "POST", { a: Number(a.value), b: Number(b.value) }));
    } }, label("tour-forbid-a", t("tour_team_a"), a), label("tour-forbid-b", t("tour_team_b"), b),
    el("button", { type: "submit", id: "tour-forbid-add" }, t("tour_forbid_button")))];
}

