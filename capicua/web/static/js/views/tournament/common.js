// What the tournament pages share: the page's data (GET /api/tournaments/ID), teams by number and in words,
// a board's result in words, times in the viewer's zone with its name, errors in the organiser's or referee's words,
// a part of the page drawn again only when its data changed, and the one poll of the page on screen.
import { api } from "../../api.js";
import { el } from "../../dom.js";
import { gameNamed } from "../../games.js";
import { errorText, fill, hasWord, language, plural, t } from "../../i18n.js";

export const loadTournament = (id) => api(`/api/tournaments/${encodeURIComponent(id)}`);

// POST/PUT/PATCH/DELETE a tournament's endpoint (path after /api/tournaments/ID).
export function tourCall(id, path, method = "POST", body = undefined) {
  return api(`/api/tournaments/${encodeURIComponent(id)}${path}`, { method, body: body === undefined ? undefined : JSON.stringify(body) });
}

export const teamsOf = (tour) => new Map(tour.teams.map((x) => [x.team, x]));

// "Ana & Bia" (a team's players).
export const playersOf = (team) => (team ? team.players.map((p) => p.name || "?").join(" & ") : "?");

// A team as a line: its name, and its players under it when the name is not just them.
export function teamCell(team, { onclick = null, cls = "" } = {}) {
  if (!team) return el("span", { class: "tour-team unknown" }, "?");
  const players = playersOf(team);
  const name = onclick
    ? el("button", { type: "button", class: "link tour-team-name", "data-team": team.team, onclick: () => onclick(team.team) }, team.name)
    : el("span", { class: "tour-team-name" }, team.name);
  return el("span", { class: `tour-team ${cls}`.trim(), "data-team": team.team }, name,
    players !== team.name ? el("small", { class: "tour-players" }, players) : null);
}

export const gameTitleOf = (name) => t(name, gameNamed(name)?.title || name);

// How many rounds it has (null: the automatic count, autoRounds, at the start): a list's `rounds`, a page's `round_count`.
export const roundCount = (tour) => (typeof tour.rounds === "number" || tour.rounds === null ? tour.rounds : tour.round_count);

// How many teams are registered: a list's `teams`, or a page's registered teams.
export const teamCount = (tour) => (Array.isArray(tour.teams) ? tour.teams.filter((x) => x.status === "registered").length : tour.teams ?? 0);

// The automatic number of rounds for so many teams (C10): one more each time the teams double, at least 1
// (the server's swiss.default_rounds).
export const autoRounds = (teams) => Math.max(1, Math.ceil(Math.log2(Math.max(1, teams))));

// "automático (4 para 16 duplas)"
export const autoRoundsFor = (teams) => fill(t("tour_rounds_auto_for"), { n: autoRounds(teams), teams });

// "Rodada 2 de 3", "3 rodadas", or the automatic count ("Número de rodadas: automático (3 para 6 duplas)").
export function roundsLine(tour) {
  const n = roundCount(tour);
  const teams = teamCount(tour);
  if (tour.status === "registration") return n ? plural(n, "tour_rounds") : `${t("tour_rounds")}: ${teams >= 2 ? autoRoundsFor(teams) : t("tour_rounds_auto_short")}`;
  if (tour.status === "finished") return plural(n ?? tour.current_round, "tour_rounds");
  return fill(t("tour_round_of"), { r: tour.current_round, n: n ?? "?" });
}

// The match rules in a line: "a 200 pontos ou 40 min · estrito · 40 s por jogada".
export function rulesLine(options = {}, mode = "online") {
  const parts = [];
  if (options.target != null) parts.push(fill(t("to_points"), { n: options.target }));
  if (options.match_minutes != null) parts.push(fill(t("tour_minutes_n"), { n: options.match_minutes }));
  if (options.strict) parts.push(t("tour_strict"));
  if (options.move_seconds != null && mode === "online") parts.push(fill(t("tour_move_seconds_n"), { n: options.move_seconds }));
  return parts.join(" · ");
}

// A server time (UTC) in the viewer's zone and the UI's language, with the weekday and the zone's name:
// "dom., 10 de mar., 19:00 Horário Padrão do Amazonas" in Manaus. `zone`: "long" (its name), "short"
// ("AMT", "GMT-4": where room is short) or false.
export function fmtWhen(iso, { zone = "long", weekday = true } = {}) {
  if (!iso) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(language(), { weekday: weekday ? "short" : undefined, day: "numeric", month: "short",
    hour: "2-digit", minute: "2-digit", timeZoneName: zone || undefined });
}

// The name of the viewer's time zone at `date`, in the UI's language ("Horário Padrão do Amazonas"; a zone with
// summer time has two), else its id ("America/Manaus").
export function zoneName(date = new Date()) {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (Number.isNaN(date.getTime())) return zone;
  const parts = new Intl.DateTimeFormat(language(), { timeZoneName: "long" }).formatToParts(date);
  return parts.find((p) => p.type === "timeZoneName")?.value || zone;
}

// An <input type=datetime-local> value ("2030-01-04T19:00"), the organiser's local time, as ISO 8601 with his
// zone's offset at that moment ("2030-01-04T19:00:00-04:00" in Manaus): the server keeps the moment.
export function localIso(value) {
  if (!value) return null;
  const date = new Date(value); // a local time (no zone in the value)
  if (Number.isNaN(date.getTime())) return null;
  const off = -date.getTimezoneOffset();
  const sign = off >= 0 ? "+" : "-";
  const pad = (n) => String(Math.floor(Math.abs(n))).padStart(2, "0");
  // the date's own local fields: a time that does not exist (skipped by summer time) is the one the browser made of it
  return `${localInput(date)}:${pad(date.getSeconds())}${sign}${pad(off / 60)}:${pad(off % 60)}`;
}

// A Date as an <input type=datetime-local> value, in the browser's zone.
export function localInput(date) {
  const pad = (n) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

// An error in the words of the page it happened on: `tour_err_<code>` / `ref_err_<code>` first.
export function errorIn(err, prefix = "tour") {
  const code = err?.code;
  if (code && hasWord(`${prefix}_err_${code}`)) return t(`${prefix}_err_${code}`);
  return code !== undefined && err?.message ? err.message : errorText(code);
}

// Draw box's content again only when its data (sig) changed: the forms keep what is typed in them.
export function patch(box, sig, build) {
  const key = typeof sig === "string" ? sig : JSON.stringify(sig);
  if (box.dataset.sig === key) return false;
  box.dataset.sig = key;
  box.replaceChildren(...[build()].flat().filter((x) => x != null && x !== false));
  return true;
}

// The one refresh of the tournament page on screen: every `ms` while its address stays, none after.
let timer = null;
export function poll(hash, fn, ms = 3000) {
  clearInterval(timer);
  timer = setInterval(() => {
    if (location.hash.split("?")[0] !== hash) { clearInterval(timer); timer = null; return; }
    if (!document.hidden) fn().catch(() => {});
  }, ms);
}
export const stopPolling = () => { clearInterval(timer); timer = null; };

const inBoards = (mine, n) => mine === "all" || (Array.isArray(mine) && mine.includes(n));

// Whether the tournament's game has a table referee (GET /api/variants' `referee`, C8). Without one nobody
// makes a C8 decision: those the organiser names are result helpers (over-the-board results only).
export const hasReferee = (tour) => Boolean(gameNamed(tour.game)?.referee);

// Those the organiser named for some boards: the referees, or (no table referee) the result helpers.
export const namedOf = (tour) => (hasReferee(tour) ? tour.referees : tour.helpers || []);

// Whether I referee board n (me.referee: "all", or the numbers of my boards).
export const refereesBoard = (tour, n) => inBoards(tour.me.referee, n);

// Whether I enter board n's over-the-board results: as its referee, or (no table referee) its result helper.
export const entersBoard = (tour, n) => inBoards(tour.me.referee, n) || inBoards(tour.me.helper, n);

// A board's state in words: "em jogo", "aguardando 3/4", "W.O.", the points.
export function boardState(tour, b) {
  if (b.team_b == null) return t("tour_bye");
  if (b.status !== "done") {
    if (b.seated) return fill(t("tour_seated_n"), { n: b.seated.filter(Boolean).length });
    return tour.mode === "board" && b.points.some((p) => p > 0) ? `${b.points[0]} × ${b.points[1]}` : t("tour_res_playing");
  }
  return b.kind === "forfeit" ? t("tour_res_forfeit") : `${b.points[0]} × ${b.points[1]}`;
}

// How a finished board was decided, when it was not played out: the referee's award, an abandon.
export const boardNote = (b) => (b.status !== "done" ? null : b.kind === "award" ? t("tour_res_award") : b.kind === "abandon" ? t("tour_res_abandon") : null);

// The seat of the account `id` at board b's table (team A at 0 and 2, team B at 1 and 3), or null.
export function seatAt(tour, b, id) {
  const teams = teamsOf(tour);
  const a = teams.get(b.team_a), bb = teams.get(b.team_b);
  const seats = [a?.players[0]?.id, bb?.players[0]?.id, a?.players[1]?.id, bb?.players[1]?.id];
  const k = seats.indexOf(id);
  return k < 0 ? null : k;
}

// The current round's boards (or those of round r).
export const boardsOf = (tour, r = tour.current_round) => tour.rounds.find((x) => x.round === r)?.boards || [];
