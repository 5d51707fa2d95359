// "Como jogar": the rules page of a game (#/rules/GAME, #/rules/GAME/SECTION), written for players in their
// language (static/rules/GAME.json), one section a rule, each with an anchor other pages link to, and step by
// step examples of the plays that cost newcomers points. An example's boards come from the engine
// (scripts/rules-examples wrote them, tests/web/test_rules_pages.py checks them): this page computes no rule,
// it draws them with the table's own drawing (board.js).
import { parseAction } from "../actions.js";
import { loadBots } from "../api.js";
import { renderBoard } from "../board.js";
import { $, el } from "../dom.js";
import { allGames, gameNamed } from "../games.js";
import { fill, language, plural, t } from "../i18n.js";
import { icon } from "../icons.js";
import { levelAbout, levelName } from "../names.js";
import { page } from "../page.js";
import { gameTitle } from "../ratings.js";
import { tile } from "../tiles.js";
import { lastPlay } from "./table/felt.js";

const loaded = new Map(); // game → its page's data (a promise)

function load(game) {
  if (!loaded.has(game)) {
    loaded.set(game, fetch(`/static/rules/${encodeURIComponent(game)}.json`).then((r) => (r.ok ? r.json() : null))
      .catch(() => { loaded.delete(game); return null; }));
  }
  return loaded.get(game);
}

// "**galo**" in a text: the words between the stars in bold.
function inline(text) {
  return text.split(/\*\*(.+?)\*\*/g).map((part, i) => (i % 2 ? el("strong", {}, part) : part));
}

// A section's body: paragraphs, and the lines that start with "- " as a list.
function body(lines) {
  const out = [];
  let list = null;
  for (const line of lines) {
    if (line.startsWith("- ")) {
      if (!list) { list = el("ul", {}); out.push(list); }
      list.append(el("li", {}, inline(line.slice(2))));
    } else {
      list = null;
      out.push(el("p", {}, inline(line)));
    }
  }
  return out;
}

export async function renderRules(game, section) {
  const current = $("main.rules-view");
  if (current && current.dataset.game === game && current.dataset.lang === language()) { goTo(section); return; }
  const [data, bots] = await Promise.all([load(game), loadBots().catch(() => null)]);
  const lang = language();
  const games = allGames().map((g) => g.name);
  const tabs = el("nav", { class: "game-tabs", "aria-label": t("variant") }, games.map((g) =>
    el("a", { href: `#/rules/${g}`, class: `tab${g === game ? " current" : ""}`, "aria-current": g === game ? "page" : false,
      "data-game": g }, gameTitle(g))));
  const head = el("div", { class: "page-head" }, el("h1", {}, t("how_to_play")), tabs);
  if (!data) {
    page(el("main", { class: "rules-view", "data-game": game, "data-lang": lang }, head, el("p", { class: "none" }, t("rules_missing"))));
    return;
  }
  const examples = new Map(data.examples.map((x) => [x.id, x]));
  const all = bots ? [...data.sections, { id: BOTS, title: { [lang]: t("rules_bots") } }] : data.sections;
  const toc = el("nav", { class: "rules-toc", "aria-label": t("rules_contents") },
    all.map((s) => el("a", { href: `#/rules/${game}/${s.id}`, "data-section": s.id }, s.title[lang])));
  const sections = all.map((s) => el("section", { class: "rule card", id: `rule-${s.id}`, "data-section": s.id },
    el("h2", {}, el("a", { class: "anchor", href: `#/rules/${game}/${s.id}`, title: t("rules_anchor"), "aria-label": t("rules_anchor") }, "#"),
      s.title[lang]),
    s.id === BOTS ? botLevels(bots, game) : body(s.body[lang]),
    (s.examples || []).map((id) => exampleBox(examples.get(id), game, lang))));
  page(el("main", { class: "rules-view", "data-game": game, "data-lang": lang },
    head, el("p", { class: "rules-intro" }, data.intro[lang]), toc, el("div", { class: "rules" }, sections)));
  for (const box of document.querySelectorAll(".rule-example")) box.draw();
  goTo(section);
}

// The last section of every game's page: the bot levels, weakest first, each with what it does and how it
// fared against the level below in this game, as the bench measured it (GET /api/bots, capicua/bots/levels.json).
const BOTS = "robos";

function botLevels(bots, game) {
  const pct = new Intl.NumberFormat(language(), { style: "percent", maximumFractionDigits: 1 });
  const rungs = bots.flatMap((b) => b.measured.filter((m) => m.game === game));
  const players = rungs.find((r) => r.players)?.players; // a game of 2 to 4 seats measured at one count
  const intro = !rungs.length ? t("rules_bots_none") : fill(t("rules_bots_intro"), { date: day(rungs[0].measured_on) })
    + (players ? ` ${fill(t("rules_bots_players"), { players })}` : "");
  return [el("p", {}, intro), el("ul", { class: "bot-levels" }, bots.map((b) => {
    const rung = b.measured.find((m) => m.game === game);
    return el("li", { "data-level": b.name }, el("strong", {}, levelName(b.name)), `: ${levelAbout(b.name)}`,
      rung ? el("p", { class: "bot-rung" }, fill(t("rules_bots_rung"), {
        pct: pct.format(rung.win_rate), below: levelName(rung.below), n: rung.matches,
        lo: pct.format(rung.ci95[0]), hi: pct.format(rung.ci95[1]),
      }) + (rung.think_ms ? ` ${fill(t("rules_bots_think"), { ms: rung.think_ms })}` : "")) : "");
  }))];
}

// A day ("2026-12-06") in the page's language.
const day = (iso) => new Date(`${iso}T12:00:00Z`).toLocaleDateString(language(), { dateStyle: "long" });

function goTo(section) {
  for (const a of document.querySelectorAll(".rules-toc a")) a.classList.toggle("current", a.dataset.section === section);
  for (const s of document.querySelectorAll(".rule")) s.classList.toggle("current", s.dataset.section === section);
  const target = section ? document.getElementById(`rule-${section}`) : null;
  if (target) target.scrollIntoView({ block: "start" });
  else window.scrollTo(0, 0);
}

// The names of a side in an example: a partnership's two ("Ana & Caio"), or the player.
const sideOf = (x, k) => (x.players.length === 4 && x.deal.length === 4 && x.steps[0].board.points.length === 2
  ? `${x.players[k]} & ${x.players[k + 2]}` : x.players[k]);

// One example: the board of each step drawn as the table draws it, the hands it shows (the tiles that fit an
// open end outlined, as the engine says), the sentence, the points, and Anterior / Próximo through the steps.
function exampleBox(x, game, lang) {
  let i = 0;
  const felt = el("div", { class: "ex-felt felt" }, el("div", { class: "board" }), el("div", { class: "felt-info" }));
  const counted = Boolean(gameNamed(game)?.table_count); // the ends' sum scores (as on the table: felt.js)
  const drawing = (x.boneyard || []).length > 0;
  const hands = el("div", { class: "ex-hands" });
  const text = el("p", { class: "ex-text", "aria-live": "polite" });
  const scored = el("ul", { class: "ex-scored" });
  const points = el("p", { class: "ex-points" });
  const count = el("span", { class: "ex-count" });
  const prev = el("button", { type: "button", class: "ex-prev", onclick: () => show(i - 1) }, `‹ ${t("rules_prev")}`);
  const next = el("button", { type: "button", class: "ex-next primary", onclick: () => show(i + 1) }, `${t("rules_next")} ›`);
  const box = el("figure", { class: "rule-example", "data-example": x.id },
    el("figcaption", {}, el("span", { class: "ex-tag" }, t("rules_example")), " ", x.title[lang]),
    felt, hands, text, scored, points, el("div", { class: "ex-nav" }, prev, count, next));
  function draw() {
    const step = x.steps[i];
    const b = step.board;
    const history = x.actions.slice(0, step.at);
    const board = felt.firstChild;
    const w = board.clientWidth || 320;
    const h = board.clientHeight || 220;
    board.replaceChildren(b.layout.spinner || b.layout.line?.length ? renderBoard(b.layout, w, h, { last: lastPlay(history) }) : "");
    const info = [];
    if (counted && b.layout.spinner) {
      const n = b.layout.count;
      info.push(el("span", { class: `pill count${n && n % 5 === 0 ? " scores" : ""}` }, `${t("count")} ${n}`));
    }
    if (drawing) info.push(el("span", { class: "pill ex-boneyard" }, `${t("boneyard")}: ${plural(b.boneyard, "tiles")}`));
    felt.lastChild.replaceChildren(...info);
    hands.replaceChildren(...Object.entries(b.hands).map(([k, tiles]) => {
      const touched = new Set(b.touched[k] || []);
      const fits = new Set(b.fits[k] || []);
      const a = parseAction(step.board.action || "");
      return el("div", { class: `ex-hand${a.seat === Number(k) ? " acting" : ""}`, "data-seat": k },
        el("span", { class: "name" }, x.players[k]),
        el("span", { class: "tiles" }, tiles.length ? tiles.map((p) => {
          const marks = [touched.has(p) && "touched", fits.has(p) && "fits"].filter(Boolean);
          return marks.length ? el("span", { class: marks.join(" "), title: marks.map((m) => t(`rules_${m}`)).join(" · ") }, tile(p, { cls: "small" }))
            : tile(p, { cls: "small" });
        }) : el("em", {}, t("went_out"))));
    }));
    text.textContent = step.text[lang];
    scored.replaceChildren(...b.scored.map(([kind, n, to]) => el("li", { class: `ex-chip kind-${kind}`, "data-kind": kind },
      el("strong", {}, `+${n}`), ` ${t(`kind_${kind}`, kind)} → ${sideOf(x, to)}`)));
    points.textContent = `${t("rules_hand_points")}: ${b.points.map((n, k) => `${sideOf(x, k)} ${n}`).join(" · ")}`;
    points.hidden = x.steps.every((s) => s.board.points.every((n) => n === 0)); // an example where nobody scores
    count.textContent = fill(t("rules_step"), { n: i + 1, of: x.steps.length });
    prev.disabled = i === 0;
    next.disabled = i === x.steps.length - 1;
    box.dataset.step = String(i);
  }
  function show(k) {
    i = Math.max(0, Math.min(x.steps.length - 1, k));
    draw();
  }
  box.draw = draw;
  return box;
}

// Redraw the examples' boards at their felts' new size.
window.addEventListener("resize", () => { for (const box of document.querySelectorAll(".rule-example")) box.draw?.(); });

// "Como jogar" under each of the lobby's quick play buttons: the way to that game's rules (the same grid).
export function howToPlayLinks() {
  return el("div", { class: "how-links quick-games", id: "how-to-play" }, allGames().map((g) =>
    el("a", { href: `#/rules/${g.name}`, "data-game": g.name, title: `${t("how_to_play")}: ${gameTitle(g.name)}` },
      icon("help"), t("how_to_play"), el("span", { class: "sr" }, `: ${gameTitle(g.name)}`))));
}
