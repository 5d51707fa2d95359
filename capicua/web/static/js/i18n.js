// The players' words in their languages: pt-BR (Amazonas, individual), es (Dominousa), en.
// words.json holds every text of the client: key → its words in pt-BR, es and en (the order of LANGS).
import WORDS from "./words.json" with { type: "json" };

export const LANGS = { "pt-BR": "Português", es: "Español", en: "English" };
export const LANG_SHORT = { "pt-BR": "PT", es: "ES", en: "EN" };

const ORDER = Object.keys(LANGS);
const T = Object.fromEntries(ORDER.map((lang, i) =>
  [lang, Object.fromEntries(Object.entries(WORDS).map(([key, words]) => [key, words[i]]))]));

export function pickLanguage() {
  const saved = localStorage.getItem("capicua.lang");
  if (saved && T[saved]) return saved;
  for (const lang of navigator.languages || [navigator.language || "pt-BR"]) {
    if (lang.toLowerCase().startsWith("pt")) return "pt-BR";
    if (lang.toLowerCase().startsWith("es")) return "es";
    if (lang.toLowerCase().startsWith("en")) return "en";
  }
  return "pt-BR";
}

let current = "pt-BR";
export function setLanguage(lang) {
  current = T[lang] ? lang : "pt-BR";
  localStorage.setItem("capicua.lang", current);
  document.documentElement.lang = current;
}

export const language = () => current;

// The word for key in the current language; else in English; else fallback (the server's own text), else key.
export function t(key, fallback = key) {
  return (T[current] && T[current][key]) || T.en[key] || fallback;
}

// Whether the current language has words for key (else a fallback applies).
export const hasWord = (key) => key in T.en;

// "{name} bateu" with its parts filled in.
export function fill(text, parts) {
  return text.replace(/\{(\w+)\}/g, (_, k) => (parts[k] ?? ""));
}

// A count with its noun in the right number: "1 pedra", "2 pedras" (words key_one and key_other).
export function plural(n, key) {
  return `${n} ${t(n === 1 ? `${key}_one` : `${key}_other`)}`;
}

// A server error in the player's words: its code translated (error_<code>), never the server's own message
// (English: shown, if at all, behind a closed "detalhes", see dom.js); a code without words says that something
// went wrong. A limit's also says when to try again (`retryAfter` seconds: 429).
export function errorText(code, message, retryAfter = null) {
  const text = code && hasWord(`error_${code}`) ? t(`error_${code}`) : t("error_unexpected");
  return retryAfter ? `${text} ${fill(t("error_retry_after"), { n: retryAfter })}` : text;
}

// A server time (UTC ISO, with or without its zone) in the browser's time zone and language.
export function when(iso) {
  if (!iso) return "";
  const text = /[zZ]|[+-]\d\d:?\d\d$/.test(iso) ? iso : `${iso}Z`;
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(current, { dateStyle: "short", timeStyle: "short" });
}
