// The tournaments: the list (in registration, running, finished) and the form that creates one (account
// holders: the game of pairs, rounds, the match rules from GET /api/variants with their limits, the start
// and the registration window in the browser's zone, the no-show grace, online or over the board).
// Also the addresses of every tournament page: #/tournaments, #/tournament/ID, #/tournament/ID/print/R,
// #/tournament/ID/board/R/B and #/referee/TABLE.
import { api } from "../api.js";
import { $, el, showError } from "../dom.js";
import { allGames, gameNamed, optionHelp } from "../games.js";
import { myself } from "../identity.js";
import { fill, plural, t } from "../i18n.js";
import { page } from "../page.js";
import { unfollow } from "../socket.js";
import { renderBoardEntry } from "./board-entry.js";
import { renderPrint } from "./print.js";
import { renderReferee } from "./referee.js";
import { renderTournament } from "./tournament.js";
import { autoRounds, errorIn, fmtWhen, gameTitleOf, localInput, localIso, patch, poll, roundsLine, teamCount, zoneName } from "./tournament/common.js";
import { mark } from "./tournament/marks.js";

// The view for an address (main.js), or null when it is not a tournament page.
export function tournamentRoute(hash) {
  let m;
  if (/^#\/tournaments\/?$/.test(hash)) return () => renderTournaments();
  if ((m = /^#\/tournament\/([\w-]+)\/print\/(\d+)$/.exec(hash))) return () => renderPrint(m[1], Number(m[2]));
  if ((m = /^#\/tournament\/([\w-]+)\/board\/(\d+)\/(\d+)$/.exec(hash))) return () => renderBoardEntry(m[1], Number(m[2]), Number(m[3]));
  if ((m = /^#\/tournament\/([\w-]+)\/?$/.exec(hash))) return () => renderTournament(m[1]);
  if ((m = /^#\/referee\/([\w-]+)$/.exec(hash))) return () => renderReferee(m[1]);
  return null;
}

const STATUSES = ["registration", "running", "finished"];

export async function renderTournaments() {
  unfollow();
  const lists = Object.fromEntries(STATUSES.map((s) => [s, el("ul", { class: "tour-items", id: `tour-${s}` })]));
  const account = myself() && myself().guest === false;
  const toForm = () => { $("#tour-create").scrollIntoView({ block: "start" }); $("#tour-name")?.focus({ preventScroll: true }); };
  page(el("main", { id: "tournaments", class: "tour-list-page" },
    el("div", { class: "tour-list-main" },
      el("div", { class: "page-head" }, el("h1", {}, mark("bracket"), t("tour_tournaments")),
        account ? el("button", { type: "button", class: "primary tour-to-create", onclick: toForm }, t("tour_create")) : null),
      el("p", { class: "tour-intro" }, t("tour_intro")),
      STATUSES.map((s) => el("section", { class: `tour-section tour-section-${s}` }, el("h2", {}, t(`tour_list_${s}`)), lists[s]))),
    el("aside", { class: "tour-list-side" }, account ? createForm() : guestNote())));
  const refresh = async () => {
    const all = await api("/api/tournaments");
    for (const s of STATUSES) {
      const mine = all.filter((x) => x.status === s);
      patch(lists[s], mine, () => (mine.length ? mine.map(item) : el("li", { class: "none" }, t(`tour_none_${s}`))));
    }
  };
  await refresh();
  poll(location.hash.split("?")[0], refresh, 5000);
}

function item(x) {
  const facts = [gameTitleOf(x.game), t(`tour_mode_${x.mode}_short`), plural(teamCount(x), "tour_teams"), roundsLine(x)];
  return el("li", { class: `tour-item status-${x.status}`, "data-tournament": x.id },
    el("a", { href: `#/tournament/${x.id}`, class: "tour-item-name" }, x.name),
    el("span", { class: "tour-item-facts" }, facts.join(" · ")),
    el("span", { class: "tour-item-when" }, mark("clock"), el("time", { datetime: x.starts_at }, fmtWhen(x.starts_at))),
    el("span", { class: `tour-status tour-status-${x.status}` }, t(`tour_status_${x.status}`)));
}

function guestNote() {
  return el("section", { class: "tour-card tour-guest" }, el("h2", {}, t("tour_create")), el("p", {}, t("tour_accounts_only")),
    el("button", { type: "button", onclick: () => { const m = $("#menu"); if (m) { m.open = true; $("#username")?.focus(); } } }, t("sign_up")));
}

// The lobby's box: the tournaments taking teams or being played, and the way to all of them.
export function tournamentsBox() {
  const list = el("ul", { class: "tour-mini" });
  const box = el("section", { class: "tour-lobby-box", id: "lobby-tournaments" },
    el("h2", {}, el("a", { href: "#/tournaments" }, mark("bracket"), t("tour_tournaments"))), list,
    el("a", { href: "#/tournaments", class: "tour-all" }, t("tour_see_all")));
  api("/api/tournaments").then((all) => {
    const open = all.filter((x) => x.status !== "finished").slice(0, 4);
    list.replaceChildren(...(open.length ? open.map((x) => el("li", {},
      el("a", { href: `#/tournament/${x.id}` }, x.name),
      el("small", {}, `${t(`tour_status_${x.status}`)} · ${plural(teamCount(x), "tour_teams")} · ${fmtWhen(x.starts_at, { zone: "short" })}`)))
      : [el("li", { class: "none" }, t("tour_none_open"))]));
  }).catch(() => {});
  return box;
}

// -- the form ------------------------------------------------------------------------------------
const field = (id, label, input, help = null) => el("label", { for: id, class: "tour-field" },
  el("span", { class: "tour-label" }, label), input, help ? el("small", { class: "tour-help" }, help) : null);

const pairGames = () => allGames().filter((g) => g.partnerships && g.players.includes(4));

// The first full hour at least an hour from now.
function defaultStart() {
  const d = new Date(Date.now() + 60 * 60 * 1000);
  d.setMinutes(0, 0, 0);
  d.setHours(d.getHours() + 1);
  return localInput(d);
}

function createForm() {
  const games = pairGames();
  // the times are the organiser's own, in his zone: its name (for the chosen day: summer time has another) under them
  const zoneHelp = el("span", { id: "tour-zone" });
  const starts = el("input", { id: "tour-starts", type: "datetime-local", required: true, value: defaultStart(),
    oninput: () => showZone(zoneHelp, starts.value) });
  showZone(zoneHelp, starts.value);
  const rules = el("fieldset", { class: "tour-rules" });
  // the competition game first: the one with table referees (C8), as the server's default
  const first = games.find((g) => g.referee) || games[0];
  const note = el("small", { class: "tour-help", id: "tour-game-referee" });
  const mode = el("select", { id: "tour-mode" }, ["online", "board"].map((m) => el("option", { value: m }, t(`tour_mode_${m}`))));
  const chosen = (game) => { showRules(rules, game); refereeNote(note, mode, game); };
  const choose = el("select", { id: "tour-game", onchange: () => chosen(gameNamed(choose.value)) },
    games.map((g) => el("option", { value: g.name, selected: g === first }, gameTitleOf(g.name))));
  chosen(first);
  return el("form", { id: "tour-create", class: "tour-card tour-create", onsubmit: create },
    el("h2", {}, t("tour_create")),
    field("tour-name", t("tour_name"), el("input", { id: "tour-name", required: true, maxlength: 80, autocomplete: "off", placeholder: t("tour_name_example") })),
    el("label", { for: "tour-game", class: "tour-field" }, el("span", { class: "tour-label" }, t("variant")), choose, note),
    field("tour-mode", t("tour_mode"), mode),
    field("tour-rounds", t("tour_rounds"), el("input", { id: "tour-rounds", type: "number", min: 1, max: 30, step: 1, placeholder: t("tour_rounds_auto_short") }),
      fill(t("tour_rounds_help"), { a: autoRounds(16), na: 16, b: autoRounds(32), nb: 32 })),
    rules,
    field("tour-starts", t("tour_starts_at"), starts, zoneHelp),
    el("div", { class: "tour-pair" },
      field("tour-opens", t("tour_reg_opens"), el("input", { id: "tour-opens", type: "datetime-local" }), t("tour_reg_opens_help")),
      field("tour-closes", t("tour_reg_closes"), el("input", { id: "tour-closes", type: "datetime-local" }), t("tour_reg_closes_help"))),
    field("tour-grace", t("tour_grace"), el("input", { id: "tour-grace", type: "number", min: 0, max: 60, step: 1, value: 5 }), t("tour_grace_help")),
    el("label", { class: "tour-check", for: "tour-auto-pair" }, el("input", { id: "tour-auto-pair", type: "checkbox", checked: true }),
      el("span", {}, t("tour_auto_pair"))),
    el("button", { type: "submit", class: "primary", id: "tour-submit" }, t("tour_create")));
}

// Who decides at the chosen game's boards (GET /api/variants' `referee`, C8): table referees, or, in a game
// without them, nobody: over the board the organiser and his result helpers enter the results.
function refereeNote(note, mode, game) {
  const referee = Boolean(game?.referee);
  note.textContent = fill(t(referee ? "tour_game_referees" : "tour_game_no_referee"), { game: gameTitleOf(game?.name) });
  mode.querySelector("option[value='board']").textContent = t(referee ? "tour_mode_board" : "tour_mode_board_helpers");
}

function showZone(help, value) {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const name = zoneName(value ? new Date(value) : new Date());
  help.textContent = fill(t("tour_zone_help"), { zone: name === zone ? zone : `${name}, ${zone}` });
}

// The chosen game's options, the tournament's defaults filled in (strict mode on, C9).
function showRules(box, game) {
  box.replaceChildren(el("legend", {}, t("tour_match_rules")), ...game.options.map(optionField));
  const strict = $("#opt-strict", box);
  const auto = $("#opt-auto_pass", box);
  if (strict && auto) {
    const sync = () => { auto.disabled = strict.checked; if (strict.checked) auto.checked = false; };
    strict.addEventListener("change", sync);
    sync();
  }
}

function optionField(o) {
  const id = `opt-${o.name}`;
  if (o.type === "boolean") {
    const on = o.name === "strict" ? true : o.default;
    return el("label", { class: "tour-check", for: id, title: optionHelp(o) }, el("input", { id, type: "checkbox", checked: on, "data-option": o.name }),
      el("span", {}, t(o.name)));
  }
  if (o.type === "choice") {
    return field(id, t(o.name), el("select", { id, "data-option": o.name },
      o.choices.map((c) => el("option", { value: c, selected: c === o.default }, t(`${o.name}_${c}`, c)))));
  }
  const limits = o.maximum != null ? `${o.minimum ?? 0}–${o.maximum}` : o.minimum != null ? `≥ ${o.minimum}` : null;
  return field(id, t(o.name), el("input", { id, type: "number", step: 1, min: o.minimum, max: o.maximum, value: o.default,
    "data-option": o.name, title: optionHelp(o) }), limits);
}

function options(form) {
  const out = {};
  for (const input of form.querySelectorAll("[data-option]")) {
    if (input.disabled) continue;
    const name = input.dataset.option;
    if (input.type === "checkbox") out[name] = input.checked;
    else if (input.tagName === "SELECT") out[name] = input.value;
    else if (input.value !== "") out[name] = Number(input.value);
  }
  return out;
}

async function create(e) {
  e.preventDefault();
  const form = e.target;
  const value = (id) => $(`#${id}`, form).value;
  const body = {
    name: value("tour-name").trim(),
    game: value("tour-game"),
    starts_at: localIso(value("tour-starts")),
    options: options(form),
    mode: value("tour-mode"),
    no_show_grace: Math.round(Number(value("tour-grace") || 0) * 60),
    auto_pair: $("#tour-auto-pair", form).checked,
  };
  if (value("tour-rounds") !== "") body.rounds = Number(value("tour-rounds"));
  if (value("tour-opens")) body.registration_opens = localIso(value("tour-opens"));
  if (value("tour-closes")) body.registration_closes = localIso(value("tour-closes"));
  const submit = $("#tour-submit", form);
  submit.disabled = true;
  try {
    const tour = await api("/api/tournaments", { method: "POST", body: JSON.stringify(body) });
    location.hash = `#/tournament/${tour.id}`;
  } catch (err) {
    showError(errorIn(err), err?.detail);
    submit.disabled = false;
  }
}

