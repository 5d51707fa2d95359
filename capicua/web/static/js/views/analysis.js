// The hand review in the replay viewer (docs/analysis.md): start it (a progress bar while the server
// weighs every decision), then each player's counts as lichess shows them (imprecisões, erros, erros
// graves, precisão %), per step the evaluation of the move just played, the best move on request, and a
// graph of each player's accumulated loss across the match (its axis in pontos esperados perdidos): click
// a point to go to that step. Moves are written in the players' words: the tile, the end's arrow and
// name (← Oeste, → Direita), never the record's letters.
import { api } from "../api.js";
import { endLabel, parseAction } from "../actions.js";
import { el, showError, svg } from "../dom.js";
import { fill, plural, t } from "../i18n.js";

const W = 320;
const H = 128;
const PAD = { l: 30, r: 8, t: 16, b: 18 };

// A move of a record ("6-4 W galo", "pass") in words, for text with no pictures: "6-4 Oeste galo!", "passou".
export function moveText(move) {
  const a = parseAction(`0: ${move}`);
  if (a.kind === "play") return [a.tile, a.end ? t(`end_${a.end}`) : t("lead_word"), a.galo ? t("galo_call") : null].filter(Boolean).join(" ");
  return a.kind === "other" ? move : t(`act_${a.kind}`);
}

// The same move to show: the tile, then the end's arrow and its name ("6-4 ← Oeste").
export function moveLabel(move) {
  const a = parseAction(`0: ${move}`);
  if (a.kind !== "play") return el("span", { class: "an-mv" }, moveText(move));
  return el("span", { class: "an-mv", "data-move": move }, a.tile, " ", el("span", { class: "an-end" }, a.end ? endLabel(a.end) : t("lead_word")),
    a.galo ? [" ", el("strong", {}, t("galo_call"))] : null);
}

// words.json's "{move}" filled with nodes: "jogou {move}:" → ["jogou ", node, ":"].
function fillNodes(text, values) {
  return text.split(/(\{\w+\})/).map((part) => {
    const key = /^\{(\w+)\}$/.exec(part)?.[1];
    return key && key in values ? values[key] : part;
  }).filter((x) => x !== "");
}

const signed = (x) => `${x > 0 ? "+" : x < 0 ? "−" : ""}${Math.abs(x).toFixed(1)}`;
export const labelWord = (label) => (label ? t(`an_${label}`) : t("an_good"));

const sideClass = (people, seat) => `seat-${seat} side-${people.partnerships ? seat % 2 : seat}`;

// Each player's counts, as lichess shows them under a game: "Ana · 87% de precisão · 2 imprecisões · 1 erro
// · 0 erros graves" (an analysis's `summary`), shown first.
export function playerCounts(result, people) {
  const count = (n, kind) => el("span", { class: `an-count an-${kind}`, "data-kind": kind, "data-n": n }, plural(n, `an_n_${kind}`));
  return el("ul", { class: "an-players", id: "analysis-players" }, result.summary.map((s) => el("li", { class: `an-player ${sideClass(people, s.seat)}`, "data-seat": s.seat },
    el("span", { class: `an-key ${sideClass(people, s.seat)}` }, el("strong", { class: "an-who" }, s.name)),
    el("span", { class: "an-acc", "data-accuracy": Math.round(s.accuracy) }, el("strong", {}, `${Math.round(s.accuracy)}%`), " ", t("an_accuracy_of")),
    el("span", { class: "an-counts" }, count(s.inaccuracies, "inaccuracy"), count(s.mistakes, "mistake"), count(s.blunders, "blunder")))));
}

// Each player's accuracy, mean loss and labelled decisions (an analysis's `summary`), every header a word.
export function summaryTable(result, people) {
  return el("table", { class: "an-summary" },
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("player")), el("th", { scope: "col", class: "num" }, t("an_accuracy")),
      el("th", { scope: "col", class: "num", title: t("an_mean_loss") }, t("an_mean_loss_short")),
      el("th", { scope: "col", class: "num" }, t("an_n_inaccuracy_other")), el("th", { scope: "col", class: "num" }, t("an_n_mistake_other")),
      el("th", { scope: "col", class: "num" }, t("an_n_blunder_other")))),
    el("tbody", {}, result.summary.map((s) => el("tr", { class: `side-${people.partnerships ? s.seat % 2 : s.seat}` },
      el("td", {}, s.name), el("td", { class: "num" }, `${Math.round(s.accuracy)}%`), el("td", { class: "num" }, s.mean_loss.toFixed(1)),
      el("td", { class: "num" }, s.inaccuracies), el("td", { class: "num" }, s.mistakes), el("td", { class: "num" }, s.blunders)))));
}

// The thresholds and the number of worlds, under the numbers.
export const thresholdsNote = (result) => el("p", { class: "muted an-note" }, fill(t("an_thresholds"),
  { a: result.thresholds.inaccuracy, b: result.thresholds.mistake, c: result.thresholds.blunder, w: result.worlds }));

// The panel: `people` (names, partnerships), `total` steps, `go(k)` jumps to step k (0-based).
export function analysisPanel({ id, people, total, go, auto }) {
  // an uploaded record's analysis (key u…) was started by its upload; a match's is started here
  const url = id.startsWith("u") ? `/api/analysis/${id}` : `/api/records/${id}/analysis`;
  const startable = !id.startsWith("u");
  const box = el("section", { class: "analysis", id: "analysis", "aria-label": t("an_title") });
  let result = null;
  let current = 0;
  let showBest = false;
  let timer = null;
  let bySteps = new Map();
  let moreOpen = false;

  const stop = () => { clearTimeout(timer); timer = null; };
  const follow = async (first) => {
    stop();
    try {
      const status = first && startable ? await api(url, { method: "POST", body: "{}" }) : await api(url);
      show(status);
      if (status.state === "running" && document.body.contains(box)) timer = setTimeout(() => follow(false), 600);
    } catch (err) { showError(err); drawStart(); }
  };
  const drawStart = () => box.replaceChildren(
    el("button", { type: "button", id: "analyse", class: "primary", onclick: () => follow(true) }, t("an_analyse")),
    el("p", { class: "muted an-note" }, t("an_intro")));
  const show = (status) => {
    if (status.state === "none") { drawStart(); return; }
    if (status.state === "failed") {
      box.replaceChildren(el("p", { role: "alert" }, t("an_failed")), el("button", { type: "button", id: "analyse", onclick: () => follow(true) }, t("an_analyse")));
      return;
    }
    if (status.state === "running") {
      box.replaceChildren(el("label", { class: "an-progress" }, fill(t("an_progress"), { done: status.done, total: status.total }),
        el("progress", { id: "analysis-progress", max: String(Math.max(1, status.total)), value: String(status.done) })));
      return;
    }
    result = status.result;
    bySteps = new Map(result.decisions.map((d) => [d.step, d]));
    draw();
  };

  const graph = () => {
    const seats = people.names.map((_, s) => s);
    const sums = seats.map(() => 0);
    const series = seats.map(() => [[0, 0]]);
    const points = [];
    for (const d of result.decisions) {
      sums[d.seat] += d.loss;
      series[d.seat].push([d.step, sums[d.seat]]);
      points.push({ d, y: sums[d.seat] });
    }
    for (const s of seats) series[s].push([total - 1, sums[s]]);
    const top = Math.max(10, ...sums);
    const x = (k) => PAD.l + (k / Math.max(1, total - 1)) * (W - PAD.l - PAD.r);
    const y = (v) => H - PAD.b - (v / top) * (H - PAD.t - PAD.b);
    const cls = (seat) => sideClass(people, seat);
    const line = (seat) => svg("polyline", { class: `an-line ${cls(seat)}`, points: series[seat].map(([k, v]) => `${x(k).toFixed(1)},${y(v).toFixed(1)}`).join(" ") });
    return el("figure", { class: "an-graph" },
      svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": t("an_graph"), id: "analysis-graph" },
        svg("line", { class: "an-axis", x1: PAD.l, y1: y(0), x2: W - PAD.r, y2: y(0) }),
        svg("line", { class: "an-axis", x1: PAD.l, y1: PAD.t, x2: PAD.l, y2: y(0) }),
        svg("text", { class: "an-tick", x: PAD.l - 4, y: y(top) + 4, "text-anchor": "end" }, Math.round(top)),
        svg("text", { class: "an-tick", x: PAD.l - 4, y: y(0), "text-anchor": "end" }, "0"),
        svg("text", { class: "an-axis-title", id: "analysis-axis-y", x: 2, y: 10 }, t("an_axis_y")), // the unit
        svg("text", { class: "an-axis-title", id: "analysis-axis-x", x: W - PAD.r, y: H - 4, "text-anchor": "end" }, t("an_axis_x")),
        svg("line", { class: "an-now", x1: x(current), y1: PAD.t, x2: x(current), y2: y(0) }),
        seats.map(line),
        points.map(({ d, y: v }) => svg("circle", {
          class: `an-point ${cls(d.seat)}${d.label ? ` an-${d.label}` : ""}${d.step === current ? " current" : ""}`,
          cx: x(d.step).toFixed(1), cy: y(v).toFixed(1), r: d.label === "blunder" ? 4.5 : d.label ? 3.5 : 2.5,
          "data-step": d.step, tabindex: "-1", onclick: () => go(d.step) },
        svg("title", {}, `${people.names[d.seat]} · ${t("step")} ${d.step + 1}: ${moveText(d.played)} (${labelWord(d.label)}, −${d.loss.toFixed(1)})`)))),
      el("figcaption", {}, el("span", { class: "muted" }, t("an_graph")))); // (each line's colour: the counts above)
  };

  const evaluation = () => {
    const d = bySteps.get(current);
    if (!d) return el("div", { class: "an-step", id: "analysis-step" }, el("p", { class: "muted" }, t("an_no_decision")));
    const mine = d.moves.find((m) => m.move === d.played);
    const best = d.moves[0];
    const list = showBest ? el("ol", { class: "an-moves" }, d.moves.map((m) =>
      el("li", { class: m.move === d.played ? "played" : m.move === d.best ? "best" : "" },
        el("span", { class: "mv" }, moveLabel(m.move)), el("span", { class: "pts" }, signed(m.points))))) : null;
    const open = showBest && d.open_hands ? el("p", { class: "an-open" },
      el("strong", {}, t("an_open_hands")), " ", fillNodes(t("an_open_best"), { move: moveLabel(d.open_hands.best) }),
      d.open_hands.exact ? "" : ` (${t("an_estimated")})`, el("br"), el("small", { class: "muted" }, t("an_open_note"))) : null;
    return el("div", { class: `an-step${d.label ? ` an-${d.label}` : ""}`, id: "analysis-step", "data-step": d.step },
      el("p", {}, el("strong", {}, people.names[d.seat]), " ", fillNodes(t("an_played"), { move: moveLabel(d.played) }), " ",
        el("span", { class: `an-label${d.label ? ` an-${d.label}` : ""}` }, d.played === d.best ? t("an_best_move") : labelWord(d.label))),
      el("p", { class: "an-numbers" }, fill(t("an_expected"), { n: signed(mine?.points ?? 0) }),
        d.loss > 0 ? ` · ${fill(t("an_loss"), { n: d.loss.toFixed(1) })}` : ""),
      el("button", { type: "button", id: "show-best", "aria-expanded": String(showBest), onclick: () => { showBest = !showBest; draw(); } },
        showBest ? t("an_hide_best") : fill(t("an_show_best"), { n: d.moves.length })),
      showBest ? el("p", { class: "an-best" }, fillNodes(t("an_best_is"), { move: moveLabel(best.move), n: signed(best.points) })) : null,
      list, open);
  };

  const summary = () => summaryTable(result, people);

  const draw = () => {
    if (!result) return;
    box.replaceChildren(
      el("h3", {}, t("an_title")),
      playerCounts(result, people),
      evaluation(),
      graph(),
      el("details", { class: "an-more", open: moreOpen, ontoggle: (e) => { moreOpen = e.target.open; } }, el("summary", {}, t("an_accuracy")), summary(), thresholdsNote(result)));
  };

  return {
    element: box,
    update(step) { current = step; showBest = false; draw(); },
    async load() {
      try {
        const status = await api(url);
        if (status.state === "none" && auto && startable) { await follow(true); return; }
        show(status);
        if (status.state === "running") timer = setTimeout(() => follow(false), 600);
      } catch { drawStart(); }
    },
    stop,
  };
}
