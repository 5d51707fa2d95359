// capicua browser client: lobby, tables and play over one websocket. No build step, no CDN.
// This module starts the client and routes the address (#/, #/table/ID, #/profile/ID, #/replay/ID[/STEP]
// where ID is a record or an uploaded one's key, #/ratings[/GAME], #/analyse, #/lesson/GAME (a guided hand), the
// tournaments' addresses, #/admin for moderators, #/rules[/GAME[/SECTION]] for how to play,
// #/puzzles[/daily|/streak|/ID]) to a view.
import { ensureGuest } from "./api.js";
import { detailsOf, el, errorParts, setStatus, showError } from "./dom.js";
import { allGames, loadGames } from "./games.js";
import { pickLanguage, setLanguage, t } from "./i18n.js";
import { draws, onChange, page } from "./page.js";
import { listen } from "./socket.js";
import { unlockOnGesture } from "./sounds.js";
import { renderAdmin } from "./views/admin.js";
import { startLesson } from "./views/lesson.js";
import { renderLobby } from "./views/lobby.js";
import { renderProfile } from "./views/profile.js";
import { renderPuzzles } from "./views/puzzles.js";
import { renderRatings } from "./views/ratings.js";
import { renderReplay } from "./views/replay.js";
import { renderRules } from "./views/rules.js";
import { onFrame, openTable } from "./views/table.js";
import { tournamentRoute } from "./views/tournaments.js";
import { renderUpload } from "./views/upload.js";

// Routes run side by side (each awaits the server), so an older one can finish after a newer one and draw its
// view over the newer one's. A route that finishes after a newer one, and drew since, routes again: the address wins.
let started = 0; // the routes begun
let finished = 0; // the newest route that has finished
let drawsThen = 0; // the views drawn when it finished

async function route() {
  const mine = ++started;
  try {
    await show(true);
  } finally {
    if (finished < mine) {
      finished = mine;
      drawsThen = draws();
    } else if (draws() > drawsThen) route();
  }
}

async function show(again) {
  try {
    await ensureGuest();
    await loadGames();
    const hash = location.hash.split("?")[0];
    const table = hash.match(/^#\/table\/([\w-]+)/);
    const profile = hash.match(/^#\/profile\/(.+)/);
    const replay = hash.match(/^#\/replay\/(\d+|u[0-9a-f]{64})(?:\/(\d+))?/); // a match played here, or an uploaded record
    const ratings = hash.match(/^#\/ratings(?:\/([\w-]+))?/);
    const rules = hash.match(/^#\/rules(?:\/([\w-]+))?(?:\/([\w-]+))?/); // how to play a game, at a rule
    const tournaments = tournamentRoute(hash); // #/tournaments, #/tournament/ID…, #/referee/TABLE
    const lesson = hash.match(/^#\/lesson\/([\w-]+)/); // a guided hand of a game: its table, made now
    const puzzles = hash.match(/^#\/puzzles(?:\/(daily|streak|\d+))?$/); // #/puzzles, #/puzzles/daily|streak|ID
    if (table) await openTable(table[1]);
    else if (lesson) await startLesson(lesson[1], { replace: true });
    else if (profile) await renderProfile(decodeURIComponent(profile[1]));
    else if (replay) await renderReplay(replay[1], replay[2] ? Number(replay[2]) : null);
    else if (ratings) await renderRatings(ratings[1] || null);
    else if (rules) await renderRules(rules[1] || allGames()[0]?.name || "amazonense", rules[2] || null);
    else if (tournaments) await tournaments();
    else if (puzzles) await renderPuzzles(/^\d+$/.test(puzzles[1] || "") ? "id" : puzzles[1] || "next", puzzles[1]);
    else if (hash === "#/analyse") renderUpload();
    else if (hash === "#/admin") await renderAdmin();
    else await renderLobby();
  } catch (err) {
    if (err.code === "session-ended" && again) { // my account's session was ended elsewhere: go on as a guest
      await show(false);
      showError(err);
      return;
    }
    const parts = errorParts(err);
    page(el("div", { role: "alert", class: "fatal" }, el("p", {}, `${t("error")}: ${parts.text}`), detailsOf(parts.detail)));
  }
}

setLanguage(pickLanguage());
unlockOnGesture();
listen(onFrame, () => setStatus(t("reconnecting")));
onChange(route);
window.addEventListener("hashchange", route);
route();
