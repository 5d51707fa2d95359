// One ticker for every running clock on the page: move clocks and the match clock ([data-deadline]),
// and the countdown to the next deal ([data-until], its text in data-text with {n}).
import { fill } from "../../i18n.js";
import { warnLow } from "./keys.js";

const secondsLeft = (iso) => Math.max(0, Math.ceil((Date.parse(iso) - Date.now()) / 1000));
const mmss = (n) => `${Math.floor(n / 60)}:${String(n % 60).padStart(2, "0")}`;

let timer = null;

// Set every clock's text now (a clock just drawn has none yet).
export function tick() {
  for (const e of document.querySelectorAll("[data-deadline]")) {
    const n = secondsLeft(e.dataset.deadline);
    (e.querySelector(".left") || e).textContent = mmss(n);
    e.classList.toggle("low", n <= 10 && !e.dataset.long);
    if (n <= 10 && !e.dataset.long) warnLow(e, n);
  }
  for (const e of document.querySelectorAll("[data-until]")) e.textContent = fill(e.dataset.text, { n: secondsLeft(e.dataset.until) });
}

export function startTicker() {
  clearInterval(timer);
  tick();
  timer = setInterval(tick, 250);
}
