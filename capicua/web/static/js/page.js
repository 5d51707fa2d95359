// The page frame every view shares: a compact header (the logo, the leaderboards, the sound, the language,
// and a menu with my name, my account and the ways to the lobby and the leaderboards), the status and
// error lines, then the view's content.
import { api, logOut, remember, rename } from "./api.js";
import { $, el, showError } from "./dom.js";
import { icon } from "./icons.js";
import { myself } from "./identity.js";
import { LANG_SHORT, LANGS, setLanguage, t } from "./i18n.js";
import { muted, setMuted } from "./sounds.js";
import { mark } from "./views/tournament/marks.js";

let refresh = () => {};

// What to run after the language or the player changes (main.js: the router, to draw the view again).
export function onChange(fn) {
  refresh = fn;
}

// Draw the view again (the player changed: logged out everywhere…).
export function redraw() {
  refresh();
}

let drawn = 0;
// How many views page() has drawn (main.js: did a route that finished late draw over a newer one?).
export const draws = () => drawn;

export function page(...content) {
  drawn += 1;
  document.title = t("title");
  $("#app").replaceChildren(header(), el("p", { id: "status", role: "status", hidden: true }),
    el("div", { id: "error", role: "alert", hidden: true }), ...content);
}

function soundButton() {
  const b = el("button", { id: "mute", class: "icon-button", type: "button" });
  const draw = () => {
    const off = muted();
    b.replaceChildren(icon(off ? "mute" : "sound"));
    b.setAttribute("aria-pressed", off ? "true" : "false");
    b.setAttribute("aria-label", off ? t("sound_off") : t("sound_on"));
    b.title = b.getAttribute("aria-label");
  };
  b.addEventListener("click", () => { setMuted(!muted()); draw(); });
  draw();
  return b;
}

function header() {
  const langs = el("select", { id: "lang", "aria-label": t("language"), title: t("language"),
    onchange: (e) => { setLanguage(e.target.value); refresh(); } },
  Object.entries(LANGS).map(([k, v]) => el("option", { value: k, selected: k === document.documentElement.lang, title: v }, LANG_SHORT[k])));
  const me = myself();
  const menu = el("details", { id: "menu", class: "menu" },
    el("summary", { "aria-label": t("account") }, icon("user"), el("span", { class: "who" }, me?.name || t("account"))),
    el("div", { class: "menu-body" }, nameForm(), accountBox(),
      el("nav", { class: "menu-links" }, el("a", { href: "#/ratings", id: "menu-ratings" }, icon("trophy"), t("ratings")),
        el("a", { href: "#/tournaments", id: "menu-tournaments" }, mark("bracket"), t("tour_tournaments")),
        el("a", { href: "#/analyse", id: "menu-analyse" }, icon("chart"), t("an_upload_link")),
        el("a", { href: "#/rules", id: "menu-rules" }, icon("help"), t("how_to_play")),
        el("a", { href: "#/puzzles", id: "menu-puzzles" }, icon("trophy"), t("pz_title")),
        me?.admin ? el("a", { href: "#/admin", id: "menu-admin" }, icon("user"), t("mod_link")) : null,
        el("a", { href: "#/" }, t("lobby")))));
  const ratings = el("a", { href: "#/ratings", id: "ratings-link", class: "icon-button header-link", title: t("ratings"), "aria-label": t("ratings") },
    icon("trophy"), el("span", { class: "label" }, t("ratings")));
  return el("header", {}, el("a", { href: "#/", class: "logo" }, "capicua"), el("span", { class: "spacer" }),
    tournamentsLink(), ratings, soundButton(), langs, menu);
}

// The way to the tournaments (wide screens; on a phone it is in the menu).
const tournamentsLink = () => el("a", { href: "#/tournaments", id: "tournaments-link", class: "icon-button header-link tour-header-link",
  title: t("tour_tournaments"), "aria-label": t("tour_tournaments") }, mark("bracket"), el("span", { class: "label" }, t("tour_tournaments")));

// My name: a guest renames himself and stays the same player (POST /api/me/name).
function nameForm() {
  const input = el("input", { id: "name", value: myself()?.name || "", maxlength: 32, autocomplete: "nickname" });
  return el("form", { class: "name", onsubmit: async (e) => {
    e.preventDefault();
    const name = input.value.trim();
    if (!name || name === myself()?.name) return;
    try { await rename(name); refresh(); } catch (err) { showError(err); }
  } }, el("label", { for: "name" }, t("name")), el("span", { class: "row" }, input, el("button", { type: "submit" }, t("save"))));
}

function accountBox() {
  const me = myself();
  if (me && me.guest === false) {
    return el("div", { class: "account" },
      el("a", { href: `#/profile/${encodeURIComponent(me.id)}` }, t("profile")),
      el("button", { id: "logout", type: "button", onclick: async () => { await logOut(); refresh(); } }, t("log_out")));
  }
  const user = el("input", { id: "username", autocomplete: "username", "aria-label": t("username"), placeholder: t("username") });
  const pass = el("input", { id: "password", type: "password", autocomplete: "current-password", "aria-label": t("password"), placeholder: t("password") });
  const submit = (path) => async (e) => {
    e.preventDefault();
    try {
      remember(await api(path, { method: "POST", body: JSON.stringify({ username: user.value, password: pass.value }) }));
      refresh();
    } catch (err) { showError(err); }
  };
  return el("form", { class: "account", onsubmit: submit("/api/login") }, el("p", { class: "hint" }, t("account_hint")), user, pass,
    el("span", { class: "row" }, el("button", { type: "submit", id: "login" }, t("log_in")),
      el("button", { type: "button", id: "signup", onclick: submit("/api/accounts") }, t("sign_up"))),
    me ? el("a", { href: `#/profile/${encodeURIComponent(me.id)}` }, t("profile")) : null);
}
