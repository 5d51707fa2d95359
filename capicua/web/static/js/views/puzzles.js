// Puzzles ("Desafios", docs/puzzles.md): a moment of a real hand where one move is clearly best, shown as the
// seat saw it (the felt, the other seats' tiles face down, my tiles, the hand's moves so far): "your turn, find
// the best move". Pick a tile (and an end where it fits more than one, and galo where it may be called); the
// answer comes back with every move's expected points and one reason, worded here from its code and numbers.
// Addresses: #/puzzles (the next near my rating), #/puzzles/daily, #/puzzles/streak (harder and harder, one
// mistake ends it), #/puzzles/ID. A guest's puzzle rating lives in this tab's sessionStorage: the session only.
import { actionBody, parseAction } from "../actions.js";
import { api } from "../api.js";
import { renderBoard } from "../board.js";
import { $, el, showError } from "../dom.js";
import { gameNamed } from "../games.js";
import { icon } from "../icons.js";
import { myself } from "../identity.js";
import { fill, plural, t } from "../i18n.js";
import { placesFrom } from "../names.js";
import { page } from "../page.js";
import { unfollow } from "../socket.js";
import { norm, tileBacks, tileButton, tileName } from "../tiles.js";
import { lastPlay } from "./table/felt.js";

const GUEST_RATING = "capicua.puzzleRating"; // {rating, rd, vol}: a guest's, this session
const SEEN = "capicua.puzzlesSeen"; // ids shown this session (not served again)
const STREAK = "capicua.puzzleStreak"; // the streak running: how many right
const BEST_STREAK = "capicua.puzzleBestStreak";
// Streak mode: the n-th puzzle is chosen near STREAK_FROM + n × STREAK_STEP (harder and harder).
const STREAK_FROM = 1100;
const STREAK_STEP = 60;

let observer = null;

const guest = () => myself()?.guest !== false;
const stored = (key, fallback) => { try { return JSON.parse(sessionStorage.getItem(key)) ?? fallback; } catch { return fallback; } };
const keep = (key, value) => sessionStorage.setItem(key, JSON.stringify(value));

function seen(id) {
  const ids = stored(SEEN, []).filter((x) => x !== id);
  ids.push(id);
  keep(SEEN, ids.slice(-400));
}

// The puzzle to pose: by mode.
async function fetchPuzzle(mode, id) {
  if (mode === "daily") return api("/api/puzzles/daily");
  if (mode === "id") return api(`/api/puzzles/${id}`);
  const params = new URLSearchParams();
  const ids = stored(SEEN, []);
  if (ids.length) params.set("exclude", ids.join(","));
  const mine = stored(GUEST_RATING, null);
  if (mode === "streak") params.set("rating", String(STREAK_FROM + STREAK_STEP * stored(STREAK, 0)));
  else if (guest() && mine) params.set("rating", String(Math.round(mine.rating)));
  return api(`/api/puzzles/next?${params}`);
}

// A move in words: "5-4 Oeste, galo".
export function moveText(move) {
  const a = parseAction(`0: ${move}`);
  if (a.kind !== "play") return move;
  return [tileName(a.tile), a.end ? t(`end_${a.end}`) : t("lead_word")].join(" ") + (a.galo ? `, ${t("galo_call")}` : "");
}

// A move drawn: the tile, its end, galo.
const moveBody = (move) => actionBody(parseAction(`0: ${move}`));

// The seat's name as the solver sees it: you, your partner, an opponent.
function seatName(seat, me, seats, partnerships) {
  if (seat === me) return t("pz_you");
  if (partnerships && seat === (me + 2) % seats) return t("pz_partner");
  return t("pz_opponent");
}

export async function renderPuzzles(mode = "next", id = null) {
  unfollow();
  let puzzle;
  try {
    puzzle = await fetchPuzzle(mode, id);
  } catch (err) {
    if (err.code !== "not-found") throw err;
    page(el("main", { class: "puzzle-empty" }, el("section", { class: "card" }, el("h1", {}, t("pz_title")),
      el("p", {}, mode === "next" || mode === "streak" ? t("pz_none_left") : t("pz_none")),
      el("a", { class: "button", href: "#/" }, t("lobby")))));
    return;
  }
  seen(puzzle.id);
  drawPuzzle(puzzle, mode);
}

function drawPuzzle(puzzle, mode) {
  const view = puzzle.position;
  const game = gameNamed(puzzle.variant);
  const partnerships = Boolean(game?.partnerships);
  const me = puzzle.seat;
  const seats = view.seats;
  const plays = puzzle.moves.map((m) => ({ move: m, ...parseAction(`0: ${m}`) }));
  const hasGalo = plays.some((p) => p.galo);
  const state = { picked: null, galo: false, done: false };

  const felt = el("div", { class: "felt" }, el("div", { class: "board" }));
  const slots = { top: el("div", { class: "slot slot-top" }), left: el("div", { class: "slot slot-left" }),
    right: el("div", { class: "slot slot-right" }), bottom: el("div", { class: "slot slot-bottom" }) };
  const places = placesFrom(me, seats);
  for (const [k, place] of Object.entries(places)) {
    const seat = Number(k);
    slots[place].append(el("div", { class: `seat-chip place-${place}${seat === me ? " turn" : ""}${partnerships ? ` side-${seat % 2}` : ""}`,
      "data-seat": seat },
    el("div", { class: "who" }, icon("user"), el("span", { class: "name" }, seatName(seat, me, seats, partnerships))),
    seat === me ? null : el("div", { class: "meta" }, tileBacks(view.counts[seat], plural(view.counts[seat], "tiles")),
      el("span", { class: "count" }, view.counts[seat]))));
  }
  const tiles = el("div", { class: "mytiles", style: `--n: ${view.tiles.length}` });
  const ends = el("div", { class: "pz-ends", hidden: true });
  const galoButton = hasGalo ? el("button", { type: "button", class: "galo-toggle", id: "pz-galo", "aria-pressed": "false",
    onclick: () => { state.galo = !state.galo; drawTiles(); } }, t("pz_galo_toggle")) : null;
  const task = el("section", { class: "pz-task card" });
  const result = el("section", { class: "pz-result card", hidden: true, "aria-live": "polite" });
  const history = el("ol", { class: "steps", "aria-label": t("pz_history") }, view.history.map((text, k) => {
    const a = parseAction(text);
    return el("li", {}, el("span", { class: "step" }, el("span", { class: "no" }, k + 1),
      el("span", { class: "who" }, a.seat != null ? seatName(a.seat, me, seats, partnerships) : ""), actionBody(a)));
  }));
  const handPoints = partnerships
    ? `${t("pz_us")} ${view.points[me % 2]} · ${t("pz_them")} ${view.points[(me + 1) % 2]}`
    : view.points.map((p, s) => `${seatName(s, me, seats, false)} ${p}`).join(" · ");

  page(el("main", { id: "puzzle", class: "table-view replay-view puzzle-view", "data-players": seats, "data-puzzle": puzzle.id },
    el("div", { class: "bar" }, el("div", { class: "title" }, el("strong", {}, `${t("pz_title")} · ${t(puzzle.variant, game?.title)}`)),
      el("div", { class: "scoreboard" }, `${t("pz_hand_points")}: ${handPoints}`)),
    slots.top, slots.left, slots.right, felt, slots.bottom,
    el("div", { class: "mine" }, el("div", { class: "pz-hand" }, tiles, ends, galoButton)),
    el("aside", { class: "side" }, task, result, el("section", { class: "history-panel" }, el("h3", {}, t("pz_history")), history))));

  const drawTask = () => {
    const you = puzzle.you;
    const streak = stored(STREAK, 0);
    task.replaceChildren(...[
      el("nav", { class: "pz-modes", "aria-label": t("pz_title") },
        [["next", "#/puzzles", t("pz_training")], ["daily", "#/puzzles/daily", t("pz_daily")], ["streak", "#/puzzles/streak", t("pz_streak")]]
          .map(([m, href, label]) => el("a", { href, class: `tab${m === mode ? " current" : ""}` }, label))),
      el("h2", { id: "pz-prompt" }, state.done ? t("pz_solved") : t("pz_your_turn")),
      el("p", { class: "pz-meta" }, fill(t("pz_puzzle_n"), { n: puzzle.id }), " · ", fill(t("pz_puzzle_rating"), { n: Math.round(puzzle.rating) })),
      mode === "streak"
        ? el("p", { class: "pz-streak" }, el("strong", {}, fill(t("pz_streak_n"), { n: streak })), " · ",
          fill(t("pz_streak_best"), { n: Number(localStorage.getItem(BEST_STREAK) || 0) }), el("br"), el("small", {}, t("pz_streak_help")))
        : el("p", { class: "pz-you" }, fill(t("pz_your_rating"), { n: Math.round(you.rating) }),
          you.guest ? el("small", {}, " ", t("pz_guest_note")) : null)].filter(Boolean));
  };

  const movesOf = (tileText) => plays.filter((p) => norm(p.tile) === tileText && !p.galo);
  // The move to send for a plain play: with galo when it is armed and that play may carry it.
  const withGalo = (p) => (state.galo && plays.some((q) => q.galo && q.tile === p.tile && q.end === p.end) ? `${p.move} galo` : p.move);

  const targets = () => (state.picked && !state.done ? movesOf(state.picked).filter((p) => p.end).map((p) => ({
    end: p.end, tile: state.picked, pip: view.layout.ends[p.end], label: fill(t("play_at"), { end: t(`end_${p.end}`) }),
    onclick: () => submit(withGalo(p)) })) : []);

  const drawBoard = () => {
    const box = $(".board", felt);
    if (!box) return;
    box.replaceChildren(renderBoard(view.layout, box.clientWidth || 320, box.clientHeight || 240,
      { last: lastPlay(view.history), targets: targets() }));
  };

  const drawTiles = () => {
    tiles.replaceChildren(...view.tiles.map((x) => tileButton(x, { playable: !state.done && movesOf(norm(x)).length > 0,
      pressed: state.picked === norm(x), onclick: () => pick(norm(x)) })));
    if (galoButton) {
      galoButton.setAttribute("aria-pressed", state.galo ? "true" : "false");
      galoButton.classList.toggle("armed", state.galo);
      galoButton.disabled = state.done;
    }
    const options = state.picked && !state.done ? movesOf(state.picked) : [];
    ends.hidden = options.length < 2;
    ends.replaceChildren(...(options.length < 2 ? [] : [el("span", { class: "hint" }, fill(t("pz_choose_end"), { tile: tileName(state.picked) })),
      ...options.map((p) => el("button", { type: "button", class: "pz-end", "data-move": p.move, onclick: () => submit(withGalo(p)) },
        p.end ? t(`end_${p.end}`) : t("lead_word")))]));
    drawBoard();
  };

  const pick = (tileText) => {
    if (state.done) return;
    const options = movesOf(tileText);
    if (options.length === 1) { submit(withGalo(options[0])); return; }
    state.picked = state.picked === tileText ? null : tileText;
    drawTiles();
  };

  const submit = async (move) => {
    if (state.done) return;
    const body = { move };
    const mine = stored(GUEST_RATING, null);
    if (guest() && mine) body.rating = mine;
    let answer;
    try {
      answer = await api(`/api/puzzles/${puzzle.id}/solve`, { method: "POST", body: JSON.stringify(body) });
    } catch (err) { showError(err.message); return; }
    state.done = true;
    state.picked = null;
    if (answer.you.guest && answer.rated) keep(GUEST_RATING, { rating: answer.you.rating, rd: answer.you.rd, vol: answer.you.vol });
    puzzle.you = answer.you;
    let streakOver = null;
    if (mode === "streak") {
      const n = stored(STREAK, 0);
      if (answer.right) keep(STREAK, n + 1);
      else { streakOver = n; keep(STREAK, 0); }
      const best = Math.max(Number(localStorage.getItem(BEST_STREAK) || 0), answer.right ? n + 1 : n);
      localStorage.setItem(BEST_STREAK, String(best));
    }
    drawTiles();
    drawTask();
    drawResult(answer, move, streakOver);
  };

  const drawResult = (answer, move, streakOver) => {
    const why = answer.why;
    const code = why.code === "contagem" && why.numbers.number == null ? "contagem_all" : why.code;
    const table = el("table", { class: "pz-moves" },
      el("thead", {}, el("tr", {}, el("th", {}, t("pz_move_col")), el("th", {}, t("pz_points_col")), el("th", {}, t("pz_loss_col")))),
      el("tbody", {}, answer.moves.map((m) => el("tr", { class: [answer.answers.includes(m.move) ? "best" : "", m.move === move ? "chosen" : ""].join(" ").trim(),
        "data-move": m.move },
      el("td", {}, moveBody(m.move), m.move === move ? el("span", { class: "you-tag" }, t("pz_you")) : null),
      el("td", { class: "num" }, m.points.toFixed(1)), el("td", { class: "num" }, m.loss ? `−${m.loss.toFixed(1)}` : "—")))));
    const change = answer.rated ? ` (${answer.change >= 0 ? "+" : "−"}${Math.abs(Math.round(answer.change))})` : "";
    const next = mode === "streak" && streakOver !== null
      ? el("button", { type: "button", class: "primary", id: "pz-next", onclick: () => renderPuzzles("streak").catch((e) => showError(e.message)) }, t("pz_streak_again"))
      : el("button", { type: "button", class: "primary", id: "pz-next",
        onclick: () => renderPuzzles(mode === "streak" ? "streak" : "next").catch((e) => showError(e.message)) }, t("pz_next"));
    const source = answer.source.kind === "record"
      ? el("p", { class: "pz-source" }, fill(t("pz_from_record"), answer.source), " ",
        el("a", { href: `#/replay/${answer.source.record_id}` }, t("pz_see_match")))
      : el("p", { class: "pz-source" }, fill(t("pz_from_self_play"), answer.source));
    result.hidden = false;
    $("#puzzle")?.setAttribute("data-solved", answer.right ? "right" : "wrong");
    result.replaceChildren(...[
      el("h2", { class: answer.right ? "pz-right" : "pz-wrong", id: "pz-verdict" }, el("span", { class: "pz-mark", "aria-hidden": "true" }, answer.right ? "✓" : "✗"),
        answer.right ? t("pz_right") : t("pz_wrong")),
      answer.right ? null : el("p", { class: "pz-best" }, fill(t("pz_best_was"), { move: moveText(answer.answer) })),
      el("p", { class: "pz-why", "data-why": why.code }, fill(t(`pz_why_${code}`), why.numbers)),
      streakOver !== null ? el("p", { class: "pz-streak-over" }, el("strong", {}, fill(t("pz_streak_over"), { n: streakOver }))) : null,
      table,
      el("p", { class: "pz-note" }, answer.method === "exact" ? t("pz_exact") : fill(t("pz_worlds"), { n: answer.worlds })),
      answer.themes.length ? el("p", { class: "pz-themes" }, `${t("pz_themes")}: `,
        answer.themes.map((x) => el("span", { class: "pz-theme" }, t(`pz_theme_${x}`)))) : null,
      el("p", { class: "pz-you" }, fill(t("pz_your_rating"), { n: Math.round(answer.you.rating) }), change),
      source,
      el("div", { class: "actions" }, next)].filter(Boolean));
    result.scrollIntoView({ block: "nearest" });
  };

  drawTask();
  drawTiles();
  if (observer) observer.disconnect();
  observer = new ResizeObserver(() => drawBoard());
  observer.observe(felt);
}

// The lobby's card: the day's puzzle (nothing when none was made).
export function dailyPuzzleCard() {
  const box = el("section", { class: "card pz-daily-card", id: "daily-puzzle", hidden: true });
  api("/api/puzzles/daily").then((p) => {
    const game = gameNamed(p.variant);
    const board = el("div", { class: "pz-mini" });
    box.replaceChildren(el("h2", {}, icon("trophy"), t("pz_daily")),
      el("p", { class: "sub" }, `${t(p.variant, game?.title)} · ${fill(t("pz_puzzle_rating"), { n: Math.round(p.rating) })}`),
      board, el("p", { class: "note" }, t("pz_daily_help")),
      el("a", { class: "button primary", href: "#/puzzles/daily" }, t("pz_solve")));
    box.hidden = false;
    const v = p.position;
    board.append(renderBoard(v.layout, 280, 140, { last: lastPlay(v.history) }));
  }).catch(() => {});
  return box;
}
