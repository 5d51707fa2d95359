// Over the board (#/tournament/ID/board/ROUND/BOARD, phone first): the board's referee enters each hand's
// points for team A and B, or a fine (its points go to the fined team's opponents, C6), with a note; he
// sees the running totals and every entry, and ends the board: the higher total wins; on equal points he
// names the winner (C8); or a team did not come (C10's no-show). POST …/entries and …/result.
// In a game without a table referee (GET /api/variants' `referee`) the board's result helper, or the
// organiser, uses it with no decision: hands only (no fine), and the points alone decide (no award).
import { el, showError } from "../dom.js";
import { fill, t } from "../i18n.js";
import { page } from "../page.js";
import { unfollow } from "../socket.js";
import { boardsOf, entersBoard, errorIn, hasReferee, loadTournament, patch, playersOf, poll, teamsOf, tourCall } from "./tournament/common.js";
import { mark } from "./tournament/marks.js";

export async function renderBoardEntry(id, round, boardNo) {
  unfollow();
  const hash = location.hash.split("?")[0];
  const view = { tour: await loadTournament(id), round, boardNo };
  const ui = { head: el("div", { class: "entry-head" }), score: el("section", { class: "entry-score", id: "entry-score", "aria-live": "polite" }),
    form: el("section", { class: "entry-form-box" }), list: el("section", { class: "entry-list-box" }), end: el("section", { class: "entry-end-box" }) };
  page(el("main", { id: "board-entry", class: "tour-entry" }, ui.head, ui.score, ui.form, ui.list, ui.end));
  view.refresh = async () => { view.tour = await loadTournament(id); draw(view, ui); };
  view.act = async (fn) => {
    try { await fn(); await view.refresh(); return true; } catch (err) { showError(errorIn(err, "entry"), err?.detail); await view.refresh().catch(() => {}); return false; }
  };
  draw(view, ui);
  poll(hash, view.refresh, 3000);
}

function draw(view, ui) {
  const tour = view.tour;
  const b = boardsOf(tour, view.round).find((x) => x.board === view.boardNo);
  const teams = teamsOf(tour);
  patch(ui.head, [tour.name, view.round, view.boardNo], () => [
    el("a", { href: `#/tournament/${tour.id}`, class: "entry-back" }, `← ${tour.name}`),
    el("h1", {}, mark("sheet"), fill(t("tour_entry_title"), { n: view.boardNo, r: view.round }))]);
  if (!b || b.team_b == null) {
    ui.score.replaceChildren(el("p", { class: "none" }, b ? t("tour_bye") : t("tour_entry_no_board")));
    for (const box of [ui.form, ui.list, ui.end]) box.replaceChildren();
    return;
  }
  const a = teams.get(b.team_a);
  const bb = teams.get(b.team_b);
  const done = b.status === "done";
  const mine = entersBoard(tour, b.board) && tour.mode === "board";
  const referee = hasReferee(tour);
  const notMine = t(referee ? "tour_entry_not_referee" : "tour_entry_not_helper");
  patch(ui.score, [b.points, b.status, b.winner, a?.name, bb?.name], () => scoreBox(b, a, bb));
  patch(ui.form, [done, mine, referee, a?.name, bb?.name], () => (done || !mine ? (mine || done ? null : el("p", { class: "tour-note" }, notMine)) : entryForm(view, b, a, bb, referee)));
  patch(ui.list, [b.hands], () => entries(b, a, bb));
  patch(ui.end, [done, mine, referee, b.points, a?.name, bb?.name], () => (done || !mine ? null : endBox(view, b, a, bb, referee)));
}

function scoreBox(b, a, bb) {
  const side = (team, pts, cls) => el("div", { class: `entry-side ${cls}${b.status === "done" && b.winner === team?.team ? " winner" : ""}`, "data-team": team?.team },
    el("span", { class: "entry-letter" }, cls === "side-a" ? "A" : "B"),
    el("strong", { class: "entry-team" }, team?.name || "?"), el("small", {}, playersOf(team)), el("span", { class: "entry-pts" }, pts));
  return [side(a, b.points[0], "side-a"), el("span", { class: "entry-times", "aria-hidden": "true" }, "×"), side(bb, b.points[1], "side-b"),
    b.status === "done" ? el("p", { class: "entry-final" }, mark("check"), resultWords(b, a, bb)) : null];
}

function resultWords(b, a, bb) {
  const winner = b.winner === a?.team ? a : b.winner === bb?.team ? bb : null;
  if (b.kind === "forfeit") return winner ? fill(t("tour_entry_forfeit_won"), { team: winner.name }) : t("tour_entry_both_absent");
  return fill(b.kind === "award" ? t("tour_entry_awarded") : t("tour_entry_won"), { team: winner?.name || "?" });
}

// A hand's points, or (only with a table referee) a fine.
function entryForm(view, b, a, bb, referee) {
  let kind = "hand";
  const pa = el("input", { id: "entry-a", type: "number", min: 0, max: 1000, step: 1, inputmode: "numeric", placeholder: "0", "aria-label": fill(t("tour_entry_points_of"), { team: a?.name }) });
  const pb = el("input", { id: "entry-b", type: "number", min: 0, max: 1000, step: 1, inputmode: "numeric", placeholder: "0", "aria-label": fill(t("tour_entry_points_of"), { team: bb?.name }) });
  const fined = el("select", { id: "entry-fined" }, el("option", { value: "a" }, `A · ${a?.name}`), el("option", { value: "b" }, `B · ${bb?.name}`));
  const finePts = el("select", { id: "entry-fine-points" }, [20, 50].map((n) => el("option", { value: n }, n)), el("option", { value: "other" }, t("tour_entry_other")));
  const fineOther = el("input", { id: "entry-fine-other", type: "number", min: 1, max: 1000, step: 1, inputmode: "numeric", hidden: true, "aria-label": t("ref_points") });
  finePts.addEventListener("change", () => { fineOther.hidden = finePts.value !== "other"; });
  const note = el("input", { id: "entry-note", maxlength: 200, autocomplete: "off", placeholder: t("tour_entry_note_hint") });
  const handBox = el("div", { class: "entry-hand" },
    el("label", { for: "entry-a", class: "entry-pts-field side-a" }, el("span", {}, `A · ${a?.name}`), pa),
    el("label", { for: "entry-b", class: "entry-pts-field side-b" }, el("span", {}, `B · ${bb?.name}`), pb));
  const fineBox = el("div", { class: "entry-fine", hidden: true },
    el("label", { for: "entry-fined", class: "tour-field" }, el("span", { class: "tour-label" }, t("tour_entry_fined")), fined),
    el("label", { for: "entry-fine-points", class: "tour-field" }, el("span", { class: "tour-label" }, t("ref_points")), finePts, fineOther),
    el("p", { class: "tour-help" }, t("tour_entry_fine_help")));
  const tabs = el("div", { class: "entry-kinds", role: "radiogroup" }, ["hand", "fine"].map((k) => el("button", { type: "button", role: "radio", class: "ref-choice",
    "data-kind": k, "aria-checked": k === kind ? "true" : "false", onclick: () => {
      kind = k;
      for (const x of tabs.children) x.setAttribute("aria-checked", x.dataset.kind === kind ? "true" : "false");
      handBox.hidden = kind !== "hand";
      fineBox.hidden = kind !== "fine";
    } }, t(`tour_entry_${k}`))));
  const submit = async (e) => {
    e.preventDefault();
    let body;
    if (kind === "hand") {
      const x = Number(pa.value || 0), y = Number(pb.value || 0);
      if (!(x >= 0 && y >= 0 && x + y > 0)) { showError(t("tour_entry_need_points")); return; }
      body = { a: x, b: y, kind: "hand", note: note.value.trim() };
      if (!confirm(fill(t("tour_entry_hand_confirm"), { n: b.hands.filter((h) => h.kind === "hand").length + 1, a: x, b: y }))) return;
    } else {
      const pts = finePts.value === "other" ? Number(fineOther.value || 0) : Number(finePts.value);
      if (!(pts > 0)) { showError(t("tour_entry_need_points")); return; }
      const onA = fined.value === "a";
      body = { a: onA ? 0 : pts, b: onA ? pts : 0, kind: "fine", note: note.value.trim() };
      const team = onA ? a?.name : bb?.name;
      if (!confirm(fill(t("tour_entry_fine_confirm"), { n: pts, team }))) return;
    }
    if (await view.act(() => tourCall(view.tour.id, `/rounds/${view.round}/boards/${view.boardNo}/entries`, "POST", body))) {
      pa.value = ""; pb.value = ""; note.value = "";
      pa.focus();
    }
  };
  return el("form", { id: "entry-form", class: "tour-card entry-form", onsubmit: submit },
    referee ? [tabs, handBox, fineBox] : handBox,
    el("label", { for: "entry-note", class: "tour-field" }, el("span", { class: "tour-label" }, t("tour_note")), note),
    el("button", { type: "submit", class: "primary big", id: "entry-add" }, t("tour_entry_add")));
}

function entries(b, a, bb) {
  const rows = [];
  let hand = 0;
  for (const h of b.hands) {
    if (h.result) continue;
    const isHand = h.kind === "hand";
    if (isHand) hand += 1;
    const what = isHand ? fill(t("hand_n"), { n: hand })
      : fill(t("tour_entry_fine_on"), { team: h.a > 0 ? bb?.name : a?.name });
    rows.push(el("li", { class: `entry kind-${h.kind}` }, el("span", { class: "entry-what" }, what),
      el("span", { class: "entry-pts-pair" }, el("span", { class: "side-a" }, h.a ? `+${h.a}` : "0"), " · ", el("span", { class: "side-b" }, h.b ? `+${h.b}` : "0")),
      h.note ? el("small", { class: "entry-note" }, h.note) : null));
  }
  const end = b.hands.find((h) => h.result);
  return el("div", { class: "tour-card" }, el("h2", {}, t("tour_entries")),
    rows.length ? el("ol", { class: "entry-list", id: "entry-list" }, rows.reverse()) : el("p", { class: "none" }, t("tour_entries_none")),
    end?.note ? el("p", { class: "tour-help" }, `${t("tour_note")}: ${end.note}`) : null);
}

// The board's end: the points' winner, or (with a table referee) his decision; or a no-show.
function endBox(view, b, a, bb, referee) {
  const [x, y] = b.points;
  const equal = x === y;
  const reason = el("input", { id: "entry-reason", maxlength: 200, autocomplete: "off", placeholder: t("tour_entry_reason_hint") });
  const winner = el("select", { id: "entry-winner" }, el("option", { value: "" }, t("tour_none_option")),
    el("option", { value: b.team_a }, `A · ${a?.name}`), el("option", { value: b.team_b }, `B · ${bb?.name}`));
  const absentA = el("input", { type: "checkbox", id: "entry-absent-a" });
  const absentB = el("input", { type: "checkbox", id: "entry-absent-b" });
  const url = `/rounds/${view.round}/boards/${view.boardNo}/result`;
  const end = () => {
    const chosen = referee && winner.value ? Number(winner.value) : null;
    if (equal && !referee) { showError(t("tour_entry_tie_no_referee")); return; }
    if (equal && chosen == null) { showError(t("tour_entry_tie")); winner.focus(); return; }
    const team = chosen != null ? (chosen === b.team_a ? a : bb) : x > y ? a : bb;
    if (!confirm(fill(t("tour_entry_end_confirm"), { team: team?.name, a: x, b: y }))) return;
    const body = { reason: reason.value.trim() };
    if (chosen != null) body.winner = chosen;
    view.act(() => tourCall(view.tour.id, url, "POST", body));
  };
  const absent = () => {
    const gone = [absentA.checked ? b.team_a : null, absentB.checked ? b.team_b : null].filter((n) => n != null);
    if (!gone.length) { showError(t("tour_entry_pick_absent")); return; }
    if (!confirm(t("tour_entry_absent_confirm"))) return;
    view.act(() => tourCall(view.tour.id, url, "POST", { absent: gone, reason: reason.value.trim() }));
  };
  const lead = equal ? t(referee ? "tour_entry_equal" : "tour_entry_equal_no_referee") : fill(t("tour_entry_leads"), { team: (x > y ? a : bb)?.name, a: x, b: y });
  return el("div", { class: "tour-card entry-end" }, el("h2", {}, t("tour_entry_end")),
    el("p", { class: "entry-lead" }, lead),
    referee ? el("label", { for: "entry-winner", class: "tour-field" }, el("span", { class: "tour-label" }, equal ? t("tour_entry_winner_tie") : t("tour_entry_winner_other")), winner) : null,
    el("label", { for: "entry-reason", class: "tour-field" }, el("span", { class: "tour-label" }, t("tour_note")), reason),
    el("button", { type: "button", class: "primary", id: "entry-end", onclick: end, disabled: equal && !referee }, t("tour_entry_end_button")),
    el("fieldset", { class: "entry-absent" }, el("legend", {}, t("tour_entry_absent")),
      el("label", { class: "tour-check", for: "entry-absent-a" }, absentA, el("span", {}, `A · ${a?.name}`)),
      el("label", { class: "tour-check", for: "entry-absent-b" }, absentB, el("span", {}, `B · ${bb?.name}`)),
      el("button", { type: "button", id: "entry-absent", onclick: absent }, t("tour_entry_absent_button"))),
    el("p", { class: "tour-help" }, t(referee ? "tour_entry_final" : "tour_entry_final_no_referee")));
}

