// The match's result, over the table: who won (named), the final score, every hand with its named sides
// and reasons, and what next: rematch, a new table, the replay and the record.
import { api, knownRatingRules, loadRatingRules, recordOf } from "../../api.js";
import { el, showError } from "../../dom.js";
import { icon } from "../../icons.js";
import { inviteCode } from "../../identity.js";
import { fill, plural, t } from "../../i18n.js";
import { seatsOf, sideName, sideOf } from "../../names.js";
import { outcomeOf, outcomeText, pointsByReason, scoreBoard } from "../../outcome.js";
import { changeClass, changeParts, signed } from "../../ratings.js";

// The record of each finished match seen here (its replay link, and at a rated table the rating changes:
// both written before the match's end is announced), fetched once however often the dialog is drawn; asked
// again a few times if it is not there yet.
const records = new Map();
async function fetchRecord(tableId, match, invite, rated) {
  for (let attempt = 0; ; attempt++) {
    const rec = await recordOf(tableId, match, invite);
    if ((rec && (!rated || rec.ratings?.length)) || attempt >= 4) return rec;
    await new Promise((done) => setTimeout(done, 600));
  }
}
function recordOnce(tableId, match, invite, rated) {
  const key = `${tableId}:${match}`;
  if (!records.has(key)) {
    const promise = fetchRecord(tableId, match, invite, rated).then((rec) => {
      if (!rec) records.delete(key); // not saved yet: ask again next time
      promise.value = rec; // drawn at once the next time (no "working out…" between two frames)
      return rec;
    }, (err) => { records.delete(key); throw err; });
    records.set(key, promise);
  }
  return records.get(key);
}

// D3: what each seat scored himself in the match (right galos, batidas, table points), from the scoreboard.
function ownScores(hands, seat) {
  const own = { galo: 0, batida: 0, table: 0 };
  for (const h of hands || []) {
    for (const s of h.scores || []) {
      if (s.seat !== seat) continue;
      if (s.kind === "galo" || s.kind === "batida") own[s.kind] += 1;
      else if (s.kind === "table") own.table += s.points;
    }
  }
  return own;
}

// "+6 bônus: 1 galo · 1 batida · 45 pontos nas pontas" (and "o máximo" at the cap)
function bonusLine(bonus, own, cap) {
  const why = [own.galo ? plural(own.galo, "galos") : null, own.batida ? plural(own.batida, "batidas") : null,
    own.table ? fill(t("table_points"), { n: own.table }) : null].filter(Boolean).join(" · ");
  return el("span", { class: "bonus-line", "data-bonus": bonus, title: cap ? fill(t("bonus_help"), { n: cap }) : null },
    el("strong", {}, fill(t("bonus_short"), { n: signed(bonus) })), why ? `: ${why}` : "",
    cap && bonus >= cap ? ` (${t("bonus_at_cap")})` : "");
}

// Each player's rating change (a rated match): the match's part, the D3 bonus as its own line, the new rating.
function ratingChanges(frame, people, changes, cap) {
  const order = [...changes].sort((a, b) => sideOf(people, a.seat) - sideOf(people, b.seat) || a.seat - b.seat);
  return el("section", { class: "rating-changes", "aria-label": t("rating_changes") },
    el("h3", {}, t("rating_changes")),
    el("ul", {}, order.map((c) => {
      const p = changeParts(c);
      const side = sideOf(people, c.seat);
      return el("li", { class: `rating-row side-${people.partnerships ? side : c.seat}${frame.seat === c.seat ? " me" : ""}`, "data-seat": c.seat },
        el("span", { class: "name" }, people.names[c.seat], c.abandoned ? el("small", { class: "abandoned" }, ` · ${t("abandoned")}`) : null),
        el("span", { class: `change ${changeClass(p.match)}`, title: t("match_change") }, signed(p.match)),
        el("span", { class: "new", title: t("rating") }, el("small", {}, `${p.before} → `), el("strong", {}, p.after)),
        p.bonus ? bonusLine(p.bonus, ownScores(frame.hands, c.seat), cap) : null);
    })));
}

// How a past hand of the scoreboard ended, from its entry ({end, points, scores, outcome?}).
function pastOutcome(h) {
  if (h.outcome) return h.outcome;
  const batida = (h.scores || []).find((s) => s.kind === "batida" || s.kind === "batida-double");
  const tranca = (h.scores || []).find((s) => s.kind === "tranca");
  if (h.end === "tranca" && !tranca) return { termination: "tranca-plain", winner: null, seat: null };
  return { termination: h.end, winner: tranca ? tranca.to : null, seat: batida ? batida.seat : null };
}


export function resultDialog(frame, people, close) {
  if (frame.winner == null) return null;
  const w = frame.winner;
  const number = seatsOf(people, w).length > 1 ? "other" : "one";
  const mine = frame.seat != null && (people.partnerships ? frame.seat % 2 === w : frame.seat === w);
  const hands = frame.hands || [];
  const sides = (frame.totals || []).map((_, i) => el("th", { scope: "col" }, sideName(people, i)));
  const rows = hands.map((h, i) => el("tr", {}, el("th", { scope: "row" }, i + 1),
    el("td", { class: "how" }, h.end ? outcomeText(pastOutcome(h), people) : "—"),
    h.points.map((p, k) => el("td", { class: "pts" }, el("strong", {}, p), el("small", { class: "why" }, pointsByReason(h.scores, k))))));
  const links = el("div", { class: "actions" });
  const invite = inviteCode();
  const rated = frame.table.rated ? el("div", { class: "rating-box" }, el("p", { class: "muted" }, t("rated_pending"))) : null;
  const showRatings = (rec) => {
    const draw = (rules) => rated.replaceChildren(rec.ratings?.length ? ratingChanges(frame, people, rec.ratings, rules?.d3_bonus_cap) : "");
    if (knownRatingRules()) draw(knownRatingRules()); else loadRatingRules().then(draw, () => draw(null));
  };
  const fetched = recordOnce(frame.table.id, frame.table.match, invite, Boolean(frame.table.rated));
  if (rated && fetched.value) showRatings(fetched.value);
  fetched.then((rec) => {
    if (!rec) return;
    if (rated) showRatings(rec);
    links.prepend(
      el("a", { class: "button", id: "open-replay", href: `#/replay/${rec.id}` }, icon("play"), t("replay")),
      el("a", { class: "button", id: "open-analysis", href: `#/replay/${rec.id}?analysis` }, t("an_analyse")),
      el("a", { class: "button", id: "download", href: `/api/records/${rec.id}`, download: `capicua-${frame.table.id}-${rec.match}.json` },
        icon("download"), t("download")));
  }).catch(() => {});
  if (frame.seat != null) {
    links.append(el("button", { class: "primary", id: "rematch", onclick: async () => {
      try { await api(`/api/tables/${frame.table.id}/rematch`, { method: "POST", body: "{}" }); }
      catch (err) { showError(err); }
    } }, t("rematch")));
  }
  links.append(el("a", { class: "button", id: "new-table", href: "#/?create" }, t("new_table")),
    el("button", { id: "see-table", onclick: close }, t("see_table")));
  const gone = frame.abandoned; // a seat left the match: say who, and why, instead of how the last hand ended
  const last = gone ? null : outcomeOf(frame.hand);
  return el("section", { class: "result", role: "dialog", "aria-modal": "false", "aria-labelledby": "result-title" },
    el("p", { class: "over" }, t("match_over")),
    el("h2", { id: "result-title", class: `winners${mine ? " mine" : ""}` }, fill(t(`won_${number}`), { side: sideName(people, w) })),
    scoreBoard(people, frame.totals, { cls: "final" }),
    last ? el("p", { class: "last-hand" }, outcomeText(last, people)) : null,
    gone ? el("p", { class: "last-hand left-match", "data-reason": gone.reason || "" },
      fill(t(`left_${gone.reason || "resign"}`), { name: people.names[gone.seat] ?? "?" })) : null,
    rated,
    el("div", { class: "per-hand" }, el("table", {},
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("hand_no")), el("th", { scope: "col" }, t("how")), sides)),
      el("tbody", {}, rows))),
    links);
}
