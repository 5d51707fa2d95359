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

let errorTimer = null;
export function showError(message) {
  const box = $("#error");
  if (!box) return;
  box.textContent = `${t("error")}: ${message}`;
  box.hidden = false;
  clearTimeout(errorTimer);
  errorTimer = setTimeout(() => { box.hidden = true; }, 5000);
}
