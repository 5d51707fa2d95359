// The replay viewer: a finished match step by step, on the same felt as a live table with every hand
// shown. Step with the buttons, the list of steps, the keyboard (← →, Home, End) or autoplay; the
// address names the step (#/replay/ID/STEP, STEP counted from 1 as the viewer shows it). ID is a record of a
// match played here, or the key (u…) of a record uploaded for analysis (kept beside its analysis).
import { actionBody, parseAction } from "../actions.js";
import { api } from "../api.js";
import { renderBoard } from "../board.js";
import { costItem, isCost } from "../costs.js";
import { $, el } from "../dom.js";
import { gameNamed } from "../games.js";
import { icon } from "../icons.js";
import { fill, t } from "../i18n.js";
import { placesFrom, scoreLine } from "../names.js";
import { scoreItem } from "../outcome.js";
import { page } from "../page.js";
import { unfollow } from "../socket.js";
import { tile } from "../tiles.js";
import { analysisPanel } from "./analysis.js";
import { decisionBody } from "./table/decisions.js";
import { lastPlay } from "./table/felt.js";

let keyHandler = null;
let player = null;
let observer = null;

export async function renderReplay(id, stepFromUrl = null) {
  clearInterval(player);
  unfollow();
  const uploaded = id.startsWith("u");
  const data = await api(uploaded ? `/api/analysis/${id}/steps` : `/api/records/${id}/steps`);
  const game = gameNamed(data.variant);
  const people = { names: data.players, levels: data.players.map(() => null), partnerships: Boolean(game?.partnerships), me: null };
  const steps = data.steps;
  const total = steps.length;
  let i = Math.max(0, Math.min(total - 1, (stepFromUrl || 1) - 1));
  const handStarts = steps.map((s, k) => (s.action === null ? k : -1)).filter((k) => k >= 0);
  const handOf = (k) => steps[k].hand;

  const jump = el("select", { id: "jump", "aria-label": t("hand_no"), onchange: (e) => go(Number(e.target.value)) },
    handStarts.map((k) => el("option", { value: k }, fill(t("hand_n"), { n: steps[k].hand }))));
  const playButton = el("button", { id: "autoplay", class: "icon-button", "aria-pressed": "false", "aria-label": t("autoplay"),
    title: t("autoplay"), onclick: () => toggleAutoplay() }, icon("play"));
  const button = (idName, iconName, label, fn) => el("button", { id: idName, class: "icon-button", "aria-label": label, title: label, onclick: fn }, icon(iconName));
  const controls = el("div", { class: "replay-controls", role: "toolbar", "aria-label": t("replay") },
    button("first", "first", t("first"), () => go(0)), button("prev", "prev", t("prev"), () => go(i - 1)), playButton,
    button("next", "next", t("next"), () => go(i + 1)), button("last", "last", t("last"), () => go(total - 1)), jump);

  const list = el("ol", { class: "steps", "aria-label": t("steps") }, steps.map((s, k) => {
    const a = s.action ? parseAction(s.action) : null;
    return el("li", { "data-step": k + 1 }, el("button", { type: "button", class: "step", onclick: () => go(k) },
      el("span", { class: "no" }, k + 1),
      a?.kind === "referee" ? decisionBody(s.action, people)
        : a ? [el("span", { class: "who" }, a.seat != null ? data.players[a.seat] : a.kind === "time" ? "" : t("referee")), actionBody(a)]
        : el("strong", {}, fill(t("deal_n"), { n: s.hand }))));
  }));
  const felt = el("div", { class: "felt" }, el("div", { class: "board" }));
  const slots = { top: el("div", { class: "slot slot-top" }), left: el("div", { class: "slot slot-left" }),
    right: el("div", { class: "slot slot-right" }), bottom: el("div", { class: "slot slot-bottom" }) };
  const info = el("div", { class: "replay-info" });
  // ?analysis (the result dialog's "analyse"): start the hand review at once
  const withAnalysis = /[?&]analysis\b/.test(location.hash);
  const review = analysisPanel({ id, people, total, go: (k) => go(k), auto: withAnalysis });
  page(el("main", { id: "replay", class: "table-view replay-view", "data-players": data.players.length },
    el("div", { class: "bar" }, el("div", { class: "title" }, el("strong", {}, `${t("replay")} · ${t(data.variant, game?.title)}`),
      uploaded ? el("span", { class: "target" }, t("an_from_file")) : null),
      el("div", { class: "scoreboard", id: "step" })),
    slots.top, slots.left, slots.right, felt, slots.bottom,
    el("div", { class: "mine" }, controls),
    el("aside", { class: "side" }, review.element, info, el("section", { class: "history-panel" }, list))));

  const drawBoard = () => {
    const s = steps[i];
    const box = $(".board", felt);
    if (!box) return;
    const start = handStarts.filter((k) => k <= i).pop() ?? 0;
    const history = steps.slice(start + 1, i + 1).map((x) => x.action).filter(Boolean);
    box.replaceChildren(renderBoard(s.layout, box.clientWidth || 320, box.clientHeight || 240, { last: lastPlay(history) }));
  };
  const draw = () => {
    const s = steps[i];
    const a = s.action ? parseAction(s.action) : null;
    $("#step").replaceChildren(`${fill(t("hand_n"), { n: s.hand })} · ${t("step")} ${i + 1}/${total}`,
      s.end ? ` · ${t(`end_${s.end}`, s.end)}` : "");
    const places = placesFrom(0, data.players.length);
    for (const slot of Object.values(slots)) slot.replaceChildren();
    for (const [k, place] of Object.entries(places)) {
      const seat = Number(k);
      slots[place].append(el("div", { class: `seat-chip place-${place}${s.turn === seat ? " turn" : ""}${people.partnerships ? ` side-${seat % 2}` : ""}`, "data-seat": seat },
        el("div", { class: "who" }, data.bots?.[seat] ? el("span", { class: "bot-mark", title: t("bot_label"), role: "img",
          "aria-label": t("bot_label") }, icon("bot")) : icon("user"), el("span", { class: "name" }, data.players[seat])),
        el("div", { class: "open-tiles" }, s.hands[seat].map((p) => tile(p, { cls: "small" }))),
        a && a.seat === seat ? el("span", { class: "bubble still" }, a.kind === "play" ? actionBody(a) : t(`act_${a.kind}`, a.kind)) : null));
    }
    drawBoard();
    info.replaceChildren(...[
      el("p", { class: "totals" }, el("strong", {}, t("score")), " ", scoreLine(people, s.totals)),
      el("p", { class: "hand-points" }, fill(t("this_hand"), { n: s.hand }), " ", scoreLine(people, s.points)),
      s.scores.length ? el("ul", { class: "scores" }, s.scores.map((x) => (isCost(x) ? costItem(x, people, data.variant) : scoreItem(x, people)))) : null,
      s.boneyard ? el("p", {}, `${t("boneyard")}: ${s.boneyard}`) : null,
      i === total - 1 && data.winner != null ? el("p", { class: "winners" }, fill(t(people.partnerships ? "won_other" : "won_one"),
        { side: people.partnerships ? `${data.players[data.winner]} & ${data.players[data.winner + 2]}` : data.players[data.winner] })) : null,
    ].filter(Boolean));
    jump.value = String(handStarts.filter((k) => k <= i).pop() ?? 0);
    for (const li of list.children) li.classList.toggle("current", Number(li.dataset.step) === i + 1);
    const current = list.children[i];
    if (current) current.scrollIntoView({ block: "nearest" });
    review.update(i);
    history.replaceState(null, "", `#/replay/${id}/${i + 1}${withAnalysis ? "?analysis" : ""}`);
  };
  const go = (k) => { i = Math.max(0, Math.min(total - 1, k)); draw(); if (i === total - 1) stopAutoplay(); };
  const stopAutoplay = () => { clearInterval(player); player = null; playButton.setAttribute("aria-pressed", "false"); playButton.replaceChildren(icon("play")); };
  const toggleAutoplay = () => {
    if (player) { stopAutoplay(); return; }
    if (i === total - 1) go(0);
    player = setInterval(() => go(i + 1), 900);
    playButton.setAttribute("aria-pressed", "true");
    playButton.replaceChildren(icon("pause"));
  };
  if (keyHandler) document.removeEventListener("keydown", keyHandler);
  keyHandler = (e) => {
    if (!document.getElementById("replay")) { document.removeEventListener("keydown", keyHandler); stopAutoplay(); return; }
    if (e.target.closest && e.target.closest("input, select, textarea")) return;
    const moves = { ArrowLeft: () => go(i - 1), ArrowRight: () => go(i + 1), Home: () => go(0), End: () => go(total - 1) };
    if (moves[e.key]) { e.preventDefault(); moves[e.key](); }
    if (e.key === " " && !e.target.closest("button")) { e.preventDefault(); toggleAutoplay(); }
  };
  document.addEventListener("keydown", keyHandler);
  if (observer) observer.disconnect();
  observer = new ResizeObserver(() => drawBoard());
  observer.observe(felt);
  draw();
  review.load();
}
