// Analyse a record from a file (#/analyse): a game record (capicua-record/1, shared/spec/records.md) chosen
// on this computer is sent to POST /api/analysis and weighed like a finished match (docs/analysis.md); the
// page follows its progress, then shows each player's accuracy and every decision with what it lost, and
// opens the record in the replay viewer, on the table. The same file sent again gives the stored analysis at once.
import { api } from "../api.js";
import { detailsOf, el, errorParts, showError } from "../dom.js";
import { gameNamed } from "../games.js";
import { icon } from "../icons.js";
import { fill, t } from "../i18n.js";
import { page } from "../page.js";
import { gameTitle } from "../ratings.js";
import { unfollow } from "../socket.js";
import { labelWord, moveLabel, playerCounts, summaryTable, thresholdsNote } from "./analysis.js";

let timer = null;
// The largest record the server takes (docs/protocol.md): a larger file is refused here, before it is read.
const MAX_UPLOAD = 1 << 20;

export function renderUpload() {
  unfollow();
  clearTimeout(timer);
  const out = el("section", { class: "upload-result", id: "upload-result", "aria-live": "polite" });
  // the browser's own file button would speak the browser's language: ours, over an input kept for the keyboard
  const chosen = el("span", { class: "file-name", id: "record-file-name" }, t("an_upload_none"));
  const input = el("input", { type: "file", id: "record-file", class: "file-input", accept: ".json,application/json",
    onchange: () => { if (input.files[0]) { chosen.textContent = input.files[0].name; send(input.files[0], out); } } });
  page(el("main", { class: "upload-page" },
    el("h1", {}, icon("chart"), t("an_upload_title")),
    el("p", { class: "muted" }, t("an_upload_intro")),
    el("label", { class: "file-pick" }, el("span", {}, t("an_upload_file")), input,
      el("span", { class: "button file-button", "aria-hidden": "true" }, t("an_upload_choose")), chosen),
    out));
}

async function send(file, out) {
  clearTimeout(timer);
  const tooLarge = () => out.replaceChildren(el("p", { role: "alert", class: "error" }, fill(t("an_upload_too_large"), { name: file.name })));
  if (file.size > MAX_UPLOAD) { tooLarge(); return; }
  let record;
  try { record = JSON.parse(await file.text()); } catch {
    out.replaceChildren(el("p", { role: "alert", class: "error" }, fill(t("an_upload_not_json"), { name: file.name })));
    return;
  }
  try { follow(await api("/api/analysis", { method: "POST", body: JSON.stringify(record) }), out); }
  catch (err) {
    if (err.code === "too-large") { tooLarge(); return; } // (its JSON sent again may be longer than the file)
    const parts = errorParts(err);
    const text = err.code === "invalid" ? fill(t("an_upload_bad_record"), { name: file.name }) : parts.text;
    out.replaceChildren(el("div", { role: "alert", class: "error" }, el("p", {}, text), detailsOf(parts.detail)));
  }
}

function follow(status, out) {
  if (!document.body.contains(out)) return; // the player went elsewhere
  if (status.state === "done") { out.replaceChildren(...report(status.result, status.key)); return; }
  if (status.state === "failed") { out.replaceChildren(el("p", { role: "alert" }, t("an_failed"))); return; }
  out.replaceChildren(el("label", { class: "an-progress" }, fill(t("an_progress"), { done: status.done, total: status.total }),
    el("progress", { id: "analysis-progress", max: String(Math.max(1, status.total)), value: String(status.done) })));
  timer = setTimeout(async () => {
    try { follow(await api(`/api/analysis/${status.key}`), out); } catch (err) { showError(err); }
  }, 600);
}

// The accuracy table, then every decision: hand, player, the move played, the best, the loss and its word;
// the record replays on the table (#/replay/KEY), each decision's row opening it at that step.
function report(result, key) {
  const people = { names: result.players, partnerships: Boolean(gameNamed(result.variant)?.partnerships) };
  const replay = (step) => `#/replay/${key}${step == null ? "" : `/${step + 1}`}?analysis`;
  return [
    el("h2", {}, gameTitle(result.variant), " · ", result.players.join(", ")),
    el("p", {}, el("a", { class: "button primary", id: "upload-replay", href: replay(null) }, icon("play"), t("an_upload_replay"))),
    playerCounts(result, people),
    summaryTable(result, people),
    thresholdsNote(result),
    el("h3", {}, t("an_decisions")),
    el("div", { class: "table-scroll" }, el("table", { class: "an-decisions", id: "upload-decisions" },
      el("thead", {}, el("tr", {}, [[t("hand_no"), "num"], [t("player")], [t("an_played_col")], [t("an_best_col")], [t("an_mean_loss_short"), "num"], [""]]
        .map(([h, cls]) => el("th", { scope: "col", class: cls || "" }, h)))),
      el("tbody", {}, result.decisions.map((d) => el("tr", { class: d.label ? `an-${d.label}` : "", "data-label": d.label || "" },
        el("td", { class: "num" }, el("a", { href: replay(d.step), title: t("an_upload_replay") }, d.hand)),
        el("td", {}, result.players[d.seat]), el("td", { class: "mv" }, moveLabel(d.played)),
        el("td", { class: "mv" }, d.played === d.best ? "=" : moveLabel(d.best)), el("td", { class: "num" }, d.loss.toFixed(1)),
        el("td", {}, d.label ? el("span", { class: `an-label an-${d.label}` }, labelWord(d.label)) : "")))))),
  ];
}
