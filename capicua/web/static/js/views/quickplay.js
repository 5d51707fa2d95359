// Rated quick play, in the lobby: an account holder picks a game and waits in its queue (POST
// /api/quickplay) while the server looks for people of near ratings, the range widening as he waits; the
// ticket is asked about every second (GET /api/quickplay/TICKET) until it is seated, and the table opens.
// Leaving the lobby or pressing Cancel stops waiting (DELETE). Guests are shown the way to an account.
import { api } from "../api.js";
import { $, el, showError } from "../dom.js";
import { allGames } from "../games.js";
import { icon } from "../icons.js";
import { myself } from "../identity.js";
import { fill, t } from "../i18n.js";
import { gameTitle, ratingBadge } from "../ratings.js";

let wait = null; // the server's last answer about my ticket, while I wait
let poller = null;

// The lobby's section: a button per game, or the wait in progress.
export function ratedBox() {
  const box = el("section", { id: "quick-rated", class: "quick quick-rated" });
  draw(box);
  return box;
}

function draw(box) {
  const me = myself();
  const head = el("h2", {}, icon("trophy"), t("quick_rated"), el("small", { class: "h-note" }, t("quick_rated_help")));
  if (!me || me.guest !== false) {
    box.replaceChildren(head, el("p", { class: "guest-hint" }, t("quick_rated_guest"), " ",
      el("button", { type: "button", id: "rated-sign-up", onclick: openAccountMenu }, t("sign_up"))));
    return;
  }
  if (wait) { box.replaceChildren(head, waitingPanel(wait)); return; }
  const buttons = allGames().map((g) => el("button", { type: "button", class: "quick-game rated", "data-game": g.name,
    onclick: () => join(g.name) }, el("strong", {}, gameTitle(g.name)), el("small", { class: "my-rating" }, t("no_rating_yet"))));
  box.replaceChildren(head, el("div", { class: "quick-games" }, buttons));
  // my rating in each game, on its button
  api(`/api/players/${encodeURIComponent(me.id)}/profile`).then((p) => {
    for (const r of p.ratings) {
      const small = box.querySelector(`button[data-game="${r.game}"] .my-rating`);
      if (small) small.replaceChildren(el("span", { class: "wide-only" }, `${t("your_rating")} `), ratingBadge(r));
    }
  }).catch(() => {});
}

function openAccountMenu() {
  const menu = $("#menu");
  if (!menu) return;
  menu.open = true;
  const user = $("#username");
  if (user) user.focus();
}

function waitingPanel(w) {
  const range = w.range == null ? t("search_anyone")
    : fill(t("search_range"), { lo: Math.max(0, w.rating - w.range), hi: w.rating + w.range });
  return el("div", { class: "rated-wait", id: "rated-wait", role: "status", "aria-live": "polite", "data-game": w.game },
    el("span", { class: "loading-spinner", "aria-hidden": "true" }),
    el("div", { class: "wait-text" },
      el("strong", {}, `${t("searching")} · ${gameTitle(w.game)}`),
      el("span", {}, `${t("your_rating")} ${w.rating} · ${range}`),
      el("span", { class: "muted" }, `${Math.floor(w.waited)} s · ${fill(t("in_queue"), { n: w.waiting })}`)),
    el("button", { type: "button", id: "cancel-rated", onclick: cancel }, t("cancel")));
}

function redraw() {
  const box = $("#quick-rated");
  if (box) draw(box);
}

async function join(game) {
  try {
    wait = await api("/api/quickplay", { method: "POST", body: JSON.stringify({ variant: game }) });
  } catch (err) { showError(err); return; }
  if (seated()) return;
  redraw();
  clearInterval(poller);
  poller = setInterval(poll, 1000);
}

function seated() {
  if (!wait || wait.state !== "seated" || !wait.table) return false;
  const table = wait.table;
  stop();
  location.hash = `#/table/${table}`;
  return true;
}

function stop() {
  clearInterval(poller);
  poller = null;
  wait = null;
}

let asking = false;
async function poll() {
  if (!wait || asking) return;
  if (!$("main.lobby")) { // the player left the lobby: stop waiting
    const ticket = wait.ticket;
    stop();
    api(`/api/quickplay/${ticket}`, { method: "DELETE" }).catch(() => {});
    return;
  }
  asking = true;
  const ticket = wait.ticket;
  try {
    const answer = await api(`/api/quickplay/${ticket}`);
    if (!wait || wait.ticket !== ticket) return; // cancelled meanwhile
    wait = answer;
    if (!seated()) {
      const panel = $("#rated-wait");
      if (panel) panel.replaceWith(waitingPanel(wait)); else redraw();
    }
  } catch (err) {
    if (!wait || wait.ticket !== ticket) return;
    stop();
    showError(err);
    redraw();
  } finally { asking = false; }
}

async function cancel() {
  if (!wait) return;
  const ticket = wait.ticket;
  stop();
  redraw();
  try { await api(`/api/quickplay/${ticket}`, { method: "DELETE" }); } catch (err) { showError(err); }
}
