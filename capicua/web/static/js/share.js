// Sharing a table or a tournament (issue 22, item 10): its link in a box, a button that copies it ("Copiar
// link"), and a plain WhatsApp link (https://wa.me/?text=…: a link, no script of theirs) with the same link in
// a sentence of the page's language.
import { el } from "./dom.js";
import { icon } from "./icons.js";
import { fill, t } from "./i18n.js";

// The wa.me address that opens WhatsApp with `text` ready to send.
export const whatsappUrl = (text) => `https://wa.me/?text=${encodeURIComponent(text)}`;

async function copy(url, input, note) {
  try {
    await navigator.clipboard.writeText(url);
  } catch { // no clipboard API (a page served over plain http): the selected box, copied the old way
    input.focus();
    input.select();
    document.execCommand("copy");
  }
  note.textContent = t("link_copied");
}

// The share box: `url` (absolute), `text` the key of its sentence ({url}, and `parts`), `label` its heading's key.
export function shareBox(url, { label = "share", text = "share_text", parts = {}, id = "share" } = {}) {
  const input = el("input", { readonly: true, value: url, id: `${id}-url`, "aria-label": t(label), onfocus: (e) => e.target.select() });
  const note = el("span", { class: "share-note", role: "status" });
  return el("div", { class: "share", id },
    el("span", { class: "share-label" }, t(label)),
    input,
    el("div", { class: "share-actions" },
      el("button", { type: "button", class: "copy-link", id: `${id}-copy`, onclick: () => copy(url, input, note) }, icon("copy"), t("copy_link_button")),
      el("a", { class: "button whatsapp", id: `${id}-whatsapp`, href: whatsappUrl(fill(t(text), { ...parts, url })),
        target: "_blank", rel: "noopener noreferrer" }, icon("share"), t("share_whatsapp")),
      note));
}
