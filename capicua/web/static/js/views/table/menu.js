// The table's menu (☰ in its bar) and what it offers a seated player: leaving. During the match he resigns
// ("Desistir": his side loses the match, and its result says he resigned); before it he frees his seat ("Sair
// da mesa"). Either after a confirmation, in a modal dialog that names what happens.
import { api } from "../../api.js";
import { rulesHref } from "../../costs.js";
import { $, el, showError } from "../../dom.js";
import { icon } from "../../icons.js";
import { errorText, t } from "../../i18n.js";
import { resubscribe } from "../../socket.js";

// What leaving means at this table now, for me: "resign", "leave" or null (a spectator, a finished match).
export function leaving(frame) {
  if (frame.seat == null) return null;
  const status = frame.table.status;
  if (status === "open") return "leave";
  if (status === "playing" && frame.winner == null) return "resign";
  return null;
}

async function leave(frame, what) {
  try {
    await api(`/api/tables/${frame.table.id}/${what}`, { method: "POST", body: "{}" });
    if (what === "leave") await resubscribe(true); // the table anew, as a spectator sees it
  } catch (err) { showError(errorText(err.code, err.message)); }
}

// The confirmation: what happens, and the two answers (staying is the default, and Escape).
function confirmLeaving(frame, what) {
  $("#leave-confirm")?.remove();
  const resign = what === "resign";
  const dialog = el("dialog", { id: "leave-confirm", class: "confirm", "aria-labelledby": "leave-confirm-title" },
    el("h2", { id: "leave-confirm-title" }, t(resign ? "resign" : "leave_table")),
    el("p", {}, t(resign ? "resign_confirm" : "leave_confirm")),
    resign && frame.table.rated ? el("p", { class: "note" }, t("resign_rated_note")) : null,
    el("div", { class: "actions" },
      el("button", { type: "button", id: "leave-cancel", autofocus: true, onclick: () => dialog.close() },
        t(resign ? "keep_playing" : "stay_seated")),
      el("button", { type: "button", id: "leave-confirmed", class: "danger", onclick: () => { dialog.close(); leave(frame, what); } },
        t(resign ? "resign" : "leave_table"))));
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
}

// The menu of the table's bar: how to play this game (for everyone at the table, watching too), and leaving
// (a seated player's, while there is something to leave).
export function tableMenu(frame) {
  const what = leaving(frame);
  const list = el("div", { class: "menu-list", id: "table-menu-list", role: "menu", hidden: true });
  const button = el("button", { class: "icon-button", id: "table-menu", type: "button", "aria-label": t("table_menu"),
    title: t("table_menu"), "aria-haspopup": "menu", "aria-expanded": "false", "aria-controls": "table-menu-list" }, icon("menu"));
  const open = (on) => {
    list.hidden = !on;
    button.setAttribute("aria-expanded", on ? "true" : "false");
    if (on) list.querySelector("[role=menuitem]")?.focus();
  };
  button.addEventListener("click", () => open(list.hidden));
  list.append(el("a", { role: "menuitem", id: "table-rules", href: rulesHref(frame.table.variant), onclick: () => open(false) },
    icon("help"), t("how_to_play")));
  if (what) {
    list.append(el("button", { type: "button", role: "menuitem", class: "danger", id: `menu-${what}`,
      onclick: () => { open(false); confirmLeaving(frame, what); } }, t(what === "resign" ? "resign" : "leave_table")));
  }
  const box = el("div", { class: "table-menu" }, button, list);
  box.addEventListener("keydown", (e) => { if (e.key === "Escape" && !list.hidden) { open(false); button.focus(); } });
  box.addEventListener("focusout", (e) => { if (!box.contains(e.relatedTarget) && e.relatedTarget) open(false); });
  return box;
}
