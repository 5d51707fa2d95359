// The referee console (#/referee/TABLE, C8): the table as a spectator sees it (the table view's own
// parts: no hidden tile), and beside it the decision panel: a fine (seat, points, reason), a score
// correction (side, ± points), the hand annulled, the match awarded, a touched tile (C7: seat and tile,
// which then lies face up for everyone). Each needs a written reason; it goes over the websocket as a
// `referee` message, and the panel shows its ack or its error in the referee's words.
// Only the table's referees get it: the console first asks GET /api/tables/ID/referee, and anyone it
// refuses (a guest, a stranger, a player at the table, everyone in a game without a table referee) gets
// the table as anyone watches it (at #/table/ID), with one line saying why, and no console.
import { api } from "../api.js";
import { $, el, errorParts } from "../dom.js";
import { gameNamed } from "../games.js";
import { errorText, fill, t } from "../i18n.js";
import { peopleOf, sideName } from "../names.js";
import { page } from "../page.js";
import { request, unfollow } from "../socket.js";
import { norm, tile, tileName } from "../tiles.js";
import { followTable, skeleton, tableFrame } from "./table.js";
import { touchedOf } from "./table/decisions.js";
import { errorIn, stopPolling } from "./tournament/common.js";
import { mark } from "./tournament/marks.js";

const DECISIONS = ["fine", "score", "annul", "award", "touch"];
// C6's fines: [words key, points]
const FINES = [["ref_fine_behaviour", 20], ["ref_fine_pass", 50], ["ref_fine_turn", 20], ["ref_fine_wrong", 50],
  ["ref_fine_corrida", 20], ["ref_fine_claim", 20], ["ref_fine_other", null]];
// The 28 tiles as the domino chart lays them: a row for each high half, 6-6 … 6-0 down to 0-0.
const TILE_ROWS = [6, 5, 4, 3, 2, 1, 0].map((hi) => Array.from({ length: hi + 1 }, (_, i) => `${hi}-${hi - i}`));

export async function renderReferee(id) {
  stopPolling();
  try {
    await api(`/api/tables/${encodeURIComponent(id)}/referee`);
  } catch (err) {
    if (!err.status || err.status >= 500) throw err;
    unfollow();
    await refused(id, err);
    return;
  }
  const main = skeleton();
  main.classList.add("ref-console");
  const panel = new RefereePanel(id);
  $(".side", main).insertBefore(panel.box, $(".history-panel", main));
  const toggle = el("button", { class: "icon-button panel-toggle ref-toggle", id: "show-referee", type: "button", "aria-expanded": "false",
    "aria-label": t("ref_console"), title: t("ref_console"),
    onclick: () => { const open = main.dataset.panel !== "referee"; main.dataset.panel = open ? "referee" : ""; toggle.setAttribute("aria-expanded", String(open)); } },
  mark("whistle"), el("span", { class: "label" }, t("ref_short")));
  $(".bar .tools", main).prepend(toggle);
  main.dataset.panel = "referee";
  toggle.setAttribute("aria-expanded", "true");
  main.addEventListener("drawn", () => panel.update(tableFrame()));
  await followTable(id, main);
}

// The console refused (a guest, a stranger, a player at the table; everyone in a game without a table
// referee): the table itself, as anyone watches it, at its own address, with one line saying why. A table
// that is not there gets its error and the way back to the lobby.
async function refused(id, err) {
  if (err.status === 404) {
    page(el("main", { id: "ref-refused", class: "tour-entry ref-refused" },
      el("section", { class: "tour-card", role: "alert" },
        el("h1", {}, mark("whistle"), t("ref_console")),
        el("p", { class: "ref-refused-why" }, errorParts(err).text), // (in the player's words: a table not found…)
        el("a", { class: "button", href: "#/" }, t("lobby")))));
    return;
  }
  const table = await api(`/api/tables/${encodeURIComponent(id)}`).catch(() => null);
  const noReferee = table && !gameNamed(table.variant)?.referee; // GET /api/variants says, not the game's name
  const why = err.status === 401 || err.status === 403 ? t(noReferee ? "ref_refused_no_referee" : "ref_refused_not_referee")
    : errorParts(err).text; // (in the player's words already)
  history.replaceState(null, "", `#/table/${encodeURIComponent(id)}`); // (no hashchange: the table is drawn here)
  const main = skeleton();
  const following = followTable(id, main); // (it draws the page at once, then follows the table)
  // over the table, not above it (the table keeps its size), until closed or for 15 s
  const note = el("p", { id: "ref-refused", class: "ref-refused-note", role: "status" }, mark("whistle"), el("span", {}, why),
    el("button", { type: "button", class: "ref-refused-close", "aria-label": t("close"), title: t("close"), onclick: () => note.remove() }, "×"));
  main.before(note);
  setTimeout(() => note.remove(), 15000);
  await following;
}

// The decision panel: the decision, its arguments and written reason, and the server's answer.
class RefereePanel {
  constructor(tableId) {
    this.tableId = tableId;
    this.decision = "fine";
    this.picked = null; // the touched tile chosen
    this.sending = false;
    this.build();
    this.drawChoice();
  }

  build() {
    const seat = el("select", { id: "ref-seat" });
    const side = el("select", { id: "ref-side" });
    const fineKind = el("select", { id: "ref-fine-kind" }, FINES.map(([key, pts], i) => el("option", { value: i }, pts ? `${t(key)} (${pts})` : t(key))));
    const points = el("input", { id: "ref-points", type: "number", step: 1, min: -1000, max: 1000, value: 20, inputmode: "numeric" });
    const reason = el("textarea", { id: "ref-reason", rows: 2, maxlength: 200, required: true, placeholder: t("ref_reason_hint") });
    const tiles = el("div", { class: "ref-tiles", role: "group", "aria-label": t("ref_tile") }, TILE_ROWS.map((row) => el("div", { class: "ref-tile-row" },
      row.map((x) => el("button", { type: "button", class: "ref-tile", "data-tile": x, "aria-pressed": "false", "aria-label": tileName(x), title: tileName(x),
        onclick: () => { this.picked = this.picked === x ? null : x; this.drawTiles(); } }, tile(x, { cls: "small", lying: true }))))));
    const answer = el("p", { class: "ref-answer", id: "ref-answer", role: "status", "aria-live": "polite" });
    const state = el("p", { class: "ref-state", id: "ref-state" });
    const apply = el("button", { type: "submit", class: "primary", id: "ref-apply" }, t("ref_apply"));
    const tabs = el("div", { class: "ref-decisions", role: "radiogroup", "aria-label": t("ref_decision") },
      DECISIONS.map((d) => el("button", { type: "button", role: "radio", class: "ref-choice", "data-decision": d, "aria-checked": d === this.decision ? "true" : "false",
        onclick: () => { this.decision = d; this.drawChoice(); } }, t(`ref_${d}`))));
    const row = (name, words, input) => el("label", { class: `tour-field ref-${name}-field`, for: input.id }, el("span", { class: "tour-label" }, words), input);
    const fields = {
      seat: row("seat", t("ref_seat"), seat),
      side: row("side", t("ref_side"), side),
      kind: row("kind", t("ref_fine_kind"), fineKind),
      points: row("points", t("ref_points"), points),
      tile: el("div", { class: "tour-field ref-tile-field" }, el("span", { class: "tour-label" }, t("ref_tile")), tiles),
    };
    fineKind.addEventListener("change", () => {
      const [key, pts] = FINES[Number(fineKind.value)];
      if (pts) points.value = pts;
      if (pts && (!reason.value || reason.dataset.auto === "1")) { reason.value = t(key); reason.dataset.auto = "1"; }
    });
    reason.addEventListener("input", () => { reason.dataset.auto = ""; });
    points.addEventListener("input", () => { points.dataset.touched = "1"; });
    const form = el("form", { id: "ref-form", class: "ref-form", onsubmit: (e) => { e.preventDefault(); this.submit(); } },
      tabs, fields.seat, fields.side, fields.kind, fields.points, fields.tile,
      el("label", { class: "tour-field", for: "ref-reason" }, el("span", { class: "tour-label" }, t("ref_reason")), reason),
      el("div", { class: "ref-send" }, apply, answer));
    this.box = el("section", { class: "ref-panel", id: "ref-panel", "aria-label": t("ref_console") },
      el("h2", {}, mark("whistle"), t("ref_console")), state, form, el("p", { class: "tour-help ref-final" }, t("ref_final_note")));
    Object.assign(this, { seat, side, points, reason, tiles, answer, state, apply, tabs, fields });
  }

  drawChoice() {
    const { decision, fields, points } = this;
    for (const b of this.tabs.children) b.setAttribute("aria-checked", b.dataset.decision === decision ? "true" : "false");
    fields.seat.hidden = !(decision === "fine" || decision === "touch");
    fields.side.hidden = !(decision === "score" || decision === "award");
    fields.kind.hidden = decision !== "fine";
    fields.points.hidden = !(decision === "fine" || decision === "score");
    fields.tile.hidden = decision !== "touch";
    points.min = decision === "fine" ? 1 : -1000;
    if (decision === "score" && Number(points.value) === 20 && !points.dataset.touched) points.value = "";
    if (decision === "fine" && points.value === "") points.value = 20;
    points.placeholder = decision === "score" ? "±" : "";
    this.update(tableFrame());
  }

  drawTiles() {
    const f = tableFrame();
    const laid = new Set(layoutTiles(f?.hand?.layout).map(norm));
    const touched = new Set((f?.hand?.public?.touched || []).flat().map(norm));
    for (const b of this.tiles.querySelectorAll("button.ref-tile")) {
      const x = b.dataset.tile;
      b.disabled = laid.has(x) || touched.has(x);
      if (b.disabled && this.picked === x) this.picked = null;
      b.setAttribute("aria-pressed", this.picked === x ? "true" : "false");
      b.classList.toggle("laid", laid.has(x));
      b.classList.toggle("touched", touched.has(x));
    }
  }

  // The seats and sides by name, and what may be decided now (C8: between hands only a fine, a score
  // correction or an award; nothing after the match's end).
  update(f) {
    if (!f) return;
    const people = peopleOf(f);
    const n = f.table.players;
    // "Ana · Lugar 2"; an empty seat is named by its number alone (peopleOf names it so already)
    fillSelect(this.seat, Array.from({ length: n }, (_, k) => [k, people.empty[k] ? people.names[k] : `${people.names[k]} · ${fill(t("seat_n"), { n: k + 1 })}`]));
    const sides = people.partnerships ? 2 : n;
    fillSelect(this.side, Array.from({ length: sides }, (_, k) => [k, sideName(people, k)]));
    const hand = f.hand;
    const over = f.winner != null || f.table.status !== "playing";
    const between = Boolean(hand?.end);
    const allowed = (d) => !over && hand && (!between || d === "fine" || d === "score" || d === "award");
    for (const b of this.tabs.children) b.disabled = !allowed(b.dataset.decision);
    this.apply.disabled = this.sending || !allowed(this.decision);
    this.state.replaceChildren(over ? t(f.table.status === "open" ? "ref_not_started" : "ref_over")
      : between ? t("ref_between_hands") : fill(t("ref_in_hand"), { n: hand?.hand ?? "" }),
    f.table.tournament ? el("a", { href: `#/tournament/${f.table.tournament}`, class: "ref-tour-link" }, mark("bracket"), t("tour_tournament")) : null);
    const touched = people.names.map((name, k) => [name, touchedOf(f, k)]).filter(([, x]) => x.length);
    if (touched.length) this.state.append(el("span", { class: "ref-touched-now" }, `${t("ref_touched")}: `, touched.map(([name, x]) => `${name} ${x.join(", ")}`).join(" · ")));
    this.drawTiles();
  }

  // The decision as the websocket's `referee` message, or null (what is missing is said, and focused).
  message() {
    const { decision, reason, points } = this;
    const text = reason.value.trim();
    if (!text) { this.say(t("ref_need_reason"), true); reason.focus(); return null; }
    const msg = { type: "referee", table: this.tableId, decision, reason: text };
    if (decision === "fine" || decision === "touch") msg.seat = Number(this.seat.value);
    if (decision === "score" || decision === "award") msg.seat = Number(this.side.value);
    if (decision === "fine" || decision === "score") {
      const p = Number(points.value);
      if (!Number.isInteger(p) || p === 0 || (decision === "fine" && p < 0)) { this.say(t("ref_need_points"), true); points.focus(); return null; }
      msg.points = p;
    }
    if (decision === "touch") {
      if (!this.picked) { this.say(t("ref_need_tile"), true); return null; }
      msg.tile = this.picked;
    }
    return msg;
  }

  async submit() {
    const f = tableFrame();
    if (!f || this.sending) return;
    const msg = this.message();
    if (!msg) return;
    const { decision } = this;
    if ((decision === "award" || decision === "annul") && !confirm(decision === "award"
      ? fill(t("ref_award_confirm"), { side: sideName(peopleOf(f), msg.seat) }) : t("ref_annul_confirm"))) return;
    this.sending = true;
    this.apply.disabled = true;
    this.say(t("ref_sending"));
    const reply = await request(msg);
    this.sending = false;
    if (reply.type === "ack") {
      this.say(fill(t("ref_done"), { n: reply.n }));
      this.reason.value = "";
      this.reason.dataset.auto = "";
      this.picked = null;
    } else {
      this.say(errorIn({ code: reply.code, message: errorText(reply.code, reply.message) }, "ref"), true);
    }
    this.update(tableFrame());
  }

  say(text, bad = false) {
    this.answer.textContent = text;
    this.answer.classList.toggle("bad", bad);
    this.answer.classList.toggle("good", !bad && text !== t("ref_sending"));
  }
}

function fillSelect(select, items) {
  const key = JSON.stringify(items);
  if (select.dataset.items === key) return;
  const keep = select.value;
  select.dataset.items = key;
  select.replaceChildren(...items.map(([v, words]) => el("option", { value: v, selected: String(v) === keep }, words)));
}

// The tiles on the table: the line, or the spinner and its arms.
function layoutTiles(layout) {
  if (!layout) return [];
  if (layout.shape === "line") return layout.line || [];
  return [layout.spinner, ...Object.values(layout.arms || {}).flat()].filter(Boolean);
}
