// DOM helpers: find and build elements (HTML and SVG), and the status and error lines.
import { t } from "./i18n.js";

export const $ = (sel, root = document) => root.querySelector(sel);

function build(node, attrs, children) {
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.setAttribute("class", v);
    // through the CSSOM: a style *attribute* is inline style, which the Content-Security-Policy refuses
    else if (k === "style") node.style.cssText = v || "";
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v === true) node.setAttribute(k, "");
    else if (v !== false && v != null) node.setAttribute(k, v);
  }
  for (const c of children.flat()) if (c != null && c !== false) node.append(c.nodeType ? c : document.createTextNode(String(c)));
  return node;
}

// el("button", { class: "primary", onclick: f }, "text", child…): attributes, listeners (on…), children;
// style: "--n: 3" is set through the CSSOM (element.style), never as an attribute.
export function el(tag, attrs = {}, ...children) {
  return build(document.createElement(tag), attrs, children);
}

// The same for SVG elements.
export function svg(tag, attrs = {}, ...children) {
  return build(document.createElementNS("http://www.w3.org/2000/svg", tag), attrs, children);
}

export function setStatus(text) {
  const s = $("#status");
  if (s) { s.textContent = text; s.hidden = !text; }
}

// What went wrong, in the page's words, and the server's own (English) detail, if any, kept apart: a refused
// request (api.js's ApiError: its translated message and its detail), a text of ours, or anything else (a
// browser's own error, "Failed to fetch": something went wrong, its text the detail).
export function errorParts(err, detail = null) {
  if (typeof err === "string") return { text: err, detail };
  if (err && err.code !== undefined) return { text: err.message, detail: detail ?? err.detail ?? null };
  return { text: t("error_unexpected"), detail: detail ?? (err?.message ? String(err.message) : null) };
}

// The detail behind a closed "detalhes" toggle (nothing without one).
export function detailsOf(detail) {
  return detail ? el("details", { class: "error-details" }, el("summary", {}, t("details")), el("code", {}, detail)) : null;
}

let errorTimer = null;
// The page's error line, for a few seconds (longer while its details are open).
export function showError(err, detail = null) {
  const box = $("#error");
  if (!box) return;
  const parts = errorParts(err, detail);
  const details = detailsOf(parts.detail);
  box.replaceChildren(el("span", {}, `${t("error")}: ${parts.text}`), details);
  box.hidden = false;
  const hideLater = () => { clearTimeout(errorTimer); errorTimer = setTimeout(() => { box.hidden = true; }, parts.detail ? 8000 : 5000); };
  if (details) details.addEventListener("toggle", () => (details.open ? clearTimeout(errorTimer) : hideLater()));
  hideLater();
}
