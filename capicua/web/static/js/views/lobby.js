// The lobby: people waiting for players (join in one click), quick play against bots for each game, rated
// quick play against people of near ratings (account holders), the tables being played (their score, hand,
// watchers and players' ratings), this week's leaders, and the form to create a table, built from the games
// the server describes (GET /api/variants): the chosen game's options only. On a wide screen the form and
// the leaders sit in a column of their own, beside the tables, so however many tables there are the form
// is in view; on a phone a button at the top of the tables leads to it.
import { api, DEFAULT_BOT, loadBots } from "../api.js";
import { $, el, showError } from "../dom.js";
import { allGames, gameNamed, optionHelp } from "../games.js";
import { icon } from "../icons.js";
import { fill, plural, t } from "../i18n.js";
import { levelAbout, levelName, scoreLine } from "../names.js";
import { page } from "../page.js";
import { gameTitle, nameWithRating } from "../ratings.js";
import { unfollow } from "../socket.js";
import { lessonGames, offerLesson, quickGame, startLesson } from "./lesson.js";
import { startTicker, tick } from "./table/clock.js";
import { dailyPuzzleCard } from "./puzzles.js";
import { ratedBox } from "./quickplay.js";
import { leadersBox } from "./ratings.js";
import { howToPlayLinks } from "./rules.js";
import { tournamentsBox } from "./tournaments.js";

let timer = null; // the lobby's refresh

export async function renderLobby() {
  unfollow();
  const bots = await loadBots();
  const seeks = el("ul", { class: "seeks", "aria-label": t("seeks") });
  const list = el("ul", { class: "tables", "aria-label": t("lobby") });
  const leaders = el("section", { class: "leaders-box" });
  const online = el("span", { class: "online-count", id: "online", hidden: true });
  const toForm = () => { $("#create").scrollIntoView({ block: "start" }); $("#variant").focus({ preventScroll: true }); };
  page(el("main", { class: "lobby" },
    el("div", { class: "lobby-main" },
      el("section", { class: "seeks-box", hidden: true }, el("h2", {}, t("seeks")), seeks),
      el("section", { id: "quick", class: "quick" }, el("h2", {}, t("quick"), el("small", { class: "h-note phone-only" }, t("quick_help"))),
        el("div", { class: "quick-games" }, allGames().map(quickButtons)),
        howToPlayLinks(),
        el("p", { class: "learn-line", id: "learn", hidden: true })),
      ratedBox(),
      el("section", { class: "tables-box" },
        el("div", { class: "box-head" }, el("h1", {}, t("lobby")), online,
          el("button", { type: "button", class: "to-create", id: "to-create", onclick: toForm }, t("create"))),
        list)),
    el("aside", { class: "lobby-side" }, createForm(allGames(), bots), dailyPuzzleCard(), leaders, tournamentsBox())));
  const main = $("main.lobby");
  const refresh = async () => {
    const tables = await api("/api/tables");
    const waiting = tables.filter((tb) => tb.waiting === true);
    seeks.replaceChildren(...waiting.map(seekItem));
    seeks.parentElement.hidden = !waiting.length;
    const others = tables.filter((tb) => tb.waiting !== true);
    list.replaceChildren(...(others.length ? others.map(tableItem) : [el("li", { class: "none" }, t("no_tables"))]));
    tick(); // the countdowns of full tables
    const people = (await api("/api/online").catch(() => null))?.people; // (the count is not worth failing the lobby)
    if (people != null) online.replaceChildren(el("span", { class: "dot", "aria-hidden": "true" }), fill(t("online_n"), { n: people }));
    online.hidden = people == null;
  };
  await refresh();
  learnLine($("#learn", main)).catch(() => {});
  startTicker();
  leadersBox(leaders).catch(() => {});
  if (location.hash.includes("create")) toForm();
  else if (location.hash.includes("rated")) $("#quick-rated").scrollIntoView();
  clearInterval(timer);
  const every = setInterval(() => { // refreshed while this lobby is on the page
    if (main.isConnected) refresh().catch(() => {}); else clearInterval(every);
  }, 3000);
  timer = every;
}

// The names at a table, as sides: "Ana & Caio × Bia & Davi" (from its summary).
function peopleOfSummary(tb) {
  const game = gameNamed(tb.variant);
  return { names: tb.seats.map(seatName), partnerships: Boolean(game?.partnerships), me: null };
}

// "Ana (1523), Bia (1500?)": the people at a table, with their ratings.
const seatName = (s) => (s.empty ? t("empty_seat") : s.bot ? s.name : nameWithRating(s.name, s.rating));

// A rated table's mark.
const ratedTag = (tb) => (tb.rated ? el("span", { class: "rated-tag", title: t("rated_help") }, t("rated_badge")) : null);

// "2 assistindo", with its eye: how many watch a table (none: nothing).
const watchersTag = (tb) => (tb.watchers
  ? el("span", { class: "watchers", title: t("watchers") }, icon("eye"), plural(tb.watchers, "watching")) : null);

// Quick play against bots for one game: its usual number of players, and the others it offers beside it
// (individual: two with the morto, three beside it; GET /api/variants' quick_players).
function quickButtons(g) {
  const [usual, ...others] = g.quick_players || [g.players[g.players.length - 1]];
  const main = el("button", { class: "primary quick-game", "data-game": g.name, "data-players": usual,
    onclick: () => quickPlay(g.name, usual) }, el("strong", {}, gameTitle(g.name)),
  el("small", {}, others.length ? `${fill(t(`quick_players_${g.name}`, t("players_n")), { n: usual })} · ${t("quick_help")}` : t("quick_help")));
  if (!others.length) return main;
  return el("div", { class: "quick-pick" }, main, others.map((n) => el("button", { class: "quick-more", "data-game": g.name,
    "data-players": n, title: `${gameTitle(g.name)}: ${fill(t("players_n"), { n })}`, onclick: () => quickPlay(g.name, n) },
  el("strong", {}, String(n)), el("small", {}, t("players_word")))));
}

function seekItem(tb) {
  const who = tb.seats.filter((s) => !s.empty).map(seatName).join(", ");
  const free = tb.seats.filter((s) => s.empty).length;
  return el("li", { class: "seek" },
    el("span", { class: "what" }, el("strong", {}, gameTitle(tb.variant)), ` · ${fill(t("to_points"), { n: tb.options.target })}`, ratedTag(tb),
      watchersTag(tb)),
    el("span", { class: "who" }, fill(t("seek_who"), { who }), " · ", fill(t("seats_free"), { n: free })),
    el("button", { class: "primary join-seek", "data-table": tb.id, onclick: () => joinSeek(tb.id) }, t("join")));
}

// Where a table is: open with a free seat (Sentar), full and not started (cheia: Assistir, counting down to
// its start when it starts by itself), or in play (its hand; Assistir).
function tableItem(tb) {
  const people = peopleOfSummary(tb);
  const playing = tb.status === "playing";
  const full = tb.status === "open" && !tb.seats.some((s) => s.empty);
  const where = full ? "full" : tb.status;
  const status = playing ? (tb.hand ? fill(t("hand_n"), { n: tb.hand }) : t("status_playing")) : t(`status_${where}`, tb.status);
  const countdown = full && tb.starts_at
    ? el("span", { class: "starts-in", "data-until": tb.starts_at, "data-text": t("starts_in") }) : null;
  return el("li", { class: `table-item status-${where}`, "data-table": tb.id },
    el("span", { class: "what" }, el("strong", {}, gameTitle(tb.variant)), el("span", { class: "status" }, status), countdown,
      ratedTag(tb), watchersTag(tb)),
    el("span", { class: "who" }, playing && tb.totals ? scoreLine(people, tb.totals) : tb.seats.map(seatName).join(", ")),
    el("a", { href: `#/table/${tb.id}`, class: "button" }, where === "open" ? t("join") : t("watch")));
}

async function joinSeek(id) {
  try {
    await api(`/api/tables/${id}/join`, { method: "POST", body: "{}" });
    location.hash = `#/table/${id}`;
  } catch (err) { showError(err); }
}

const field = (id, label, input, help = null) => el("label", { for: id, title: help }, el("span", {}, label), input);

function createForm(games, bots) {
  const gameFields = el("div", { class: "game-fields" });
  const choose = el("select", { id: "variant", onchange: () => showGame(gameFields, gameNamed(choose.value)) },
    games.map((g) => el("option", { value: g.name }, gameTitle(g.name))));
  showGame(gameFields, games[0]);
  return el("form", { id: "create", class: "create", onsubmit: createTable },
    el("h2", {}, t("create")),
    field("variant", t("variant"), choose),
    gameFields,
    field("private", t("private"), el("input", { id: "private", type: "checkbox" })),
    field("rated", t("rated"), el("input", { id: "rated", type: "checkbox", onchange: linkRatedAndBots }), t("rated_help")),
    field("autostart", t("autostart"), el("input", { id: "autostart", type: "checkbox", checked: true }), t("autostart_help")),
    field("bots_after", t("bots_after"), el("input", { id: "bots_after", type: "number", min: 0, max: 600, placeholder: "—" })),
    field("bot", t("bot"), el("select", { id: "bot" }, bots.map((b) =>
      el("option", { value: b.name, title: levelAbout(b.name), selected: b.name === DEFAULT_BOT }, levelName(b.name))))),
    el("p", { class: "form-note", id: "rated-note", hidden: true }, t("rated_help")),
    el("button", { type: "submit", class: "primary" }, t("create")));
}

// D1: no bot plays a rated match: with "rated", the bot fields are off (and not sent).
function linkRatedAndBots(e) {
  const form = e.target.form;
  const rated = e.target.checked;
  for (const id of ["bots_after", "bot"]) $(`#${id}`, form).disabled = rated;
  $("#rated-note", form).hidden = !rated;
}

// The fields of one game: how many players (when it has a choice), then its options.
function showGame(box, game) {
  const counts = game.players;
  const players = counts.length > 1
    ? [field("players", t("players"), el("select", { id: "players" },
      counts.map((n, i) => el("option", { value: n, selected: i === counts.length - 1 }, n))))]
    : [];
  box.replaceChildren(...players, ...game.options.map(optionField));
  linkStrictAndAutoPass(box);
}

// Strict mode plays every pass by hand: with it, the forced pass is off (and not sent).
function linkStrictAndAutoPass(box) {
  const strict = $("#strict", box);
  const auto = $("#auto_pass", box);
  if (!strict || !auto) return;
  const sync = () => { auto.disabled = strict.checked; if (strict.checked) auto.checked = false; else if (!auto.dataset.touched) auto.checked = true; };
  auto.addEventListener("change", () => { auto.dataset.touched = "1"; });
  strict.addEventListener("change", sync);
  sync();
}

function optionField(o) {
  let input;
  if (o.type === "boolean") {
    input = el("input", { id: o.name, type: "checkbox", checked: o.default });
  } else if (o.type === "choice") {
    input = el("select", { id: o.name }, o.choices.map((c) =>
      el("option", { value: c, selected: c === o.default }, t(`${o.name}_${c}`, c))));
  } else {
    input = el("input", { id: o.name, type: "number", step: 1, min: o.minimum, max: o.maximum, placeholder: o.default });
  }
  return field(o.name, t(o.name), input, optionHelp(o));
}

// An option's value as the server takes it; undefined (left out: the game's default) for an empty number
// or a disabled field.
function optionValue(o, form) {
  const input = $(`#${o.name}`, form);
  if (input.disabled) return undefined;
  if (o.type === "boolean") return input.checked;
  if (o.type === "choice") return input.value;
  return input.value === "" ? undefined : Number(input.value);
}

async function createTable(e) {
  e.preventDefault();
  const form = e.target;
  const game = gameNamed($("#variant", form).value);
  const bots = $("#bots_after", form).value;
  const rated = $("#rated", form).checked;
  const body = { variant: game.name, sit: true, private: $("#private", form).checked, rated,
    bots_after: bots === "" || rated ? null : Number(bots), bot: $("#bot", form).value, autostart: $("#autostart", form).checked };
  if (game.players.length > 1) body.players = Number($("#players", form).value);
  for (const o of game.options) {
    const value = optionValue(o, form);
    if (value !== undefined) body[o.name] = value;
  }
  try {
    const tb = await api("/api/tables", { method: "POST", body: JSON.stringify(body) });
    location.hash = `#/table/${tb.id}${tb.invite ? `?invite=${tb.invite}` : ""}`;
  } catch (err) { showError(err); }
}

// Quick play: a game against bots, who sit after two seconds unless people come; a guest's first of a game
// that has a guided hand offers it first (views/lesson.js).
async function quickPlay(variant, players) {
  if (!(await offerLesson(variant, players))) await quickGame(variant, players);
}

// "Aprender a jogar": a guided hand of each game that has one, and its rules.
async function learnLine(box) {
  const games = await lessonGames();
  if (!games.length) return;
  box.replaceChildren(el("strong", {}, t("lesson_learn")), el("small", {}, ` · ${t("lesson_learn_help")}: `),
    ...games.map((g) => el("button", { type: "button", class: "link learn-game", "data-game": g, onclick: () => startLesson(g) }, gameTitle(g))));
  box.hidden = false;
}
