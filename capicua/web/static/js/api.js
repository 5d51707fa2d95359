// The HTTP API: the fetch wrapper, becoming a guest or an account, the bot levels and the ratings' numbers.
import { clearIdentity, myself, myToken, setIdentity } from "./identity.js";
import { errorText } from "./i18n.js";
import { disconnect } from "./socket.js";

// A refused request: its code (the body's `error`) and the message in the player's words.
export class ApiError extends Error {
  constructor(code, message, status, retryAfter = null) {
    super(errorText(code, message, retryAfter));
    this.code = code;
    this.detail = message; // the server's own words (English), for where the detail matters
    this.status = status;
  }
}

export async function api(path, options = {}) {
  const headers = { "Content-Type": "application/json", "X-Requested-With": "capicua" };
  const sent = myToken();
  if (sent) headers.Authorization = `Bearer ${sent}`;
  const res = await fetch(path, { ...options, headers, credentials: "same-origin" });
  const body = res.headers.get("content-type")?.includes("json") ? await res.json() : await res.text();
  if (res.status === 401 && sent && sent === myToken() && myself()?.guest === false) {
    // My account's session was ended (logged out everywhere, a new password elsewhere): forget it, and
    // become a guest at the next view.
    clearIdentity();
    disconnect();
    throw new ApiError("session-ended", body?.message || res.statusText, res.status);
  }
  if (!res.ok) throw new ApiError(body?.error || null, body?.message || res.statusText, res.status, body?.retry_after ?? null);
  return body;
}

let sessionChecked = false;

// Keep the identity just given (logged in, signed up, renamed): the socket reopens with its token; whether
// the account moderates is asked at the next view (ensureGuest).
export function remember(who) {
  setIdentity(who.token, { id: who.id, name: who.name, guest: who.guest, admin: myself()?.id === who.id && !!myself()?.admin });
  sessionChecked = false;
  disconnect();
}

// Become a guest if I am nobody yet (or no longer: my account's session was ended elsewhere, or the account
// closed), checked once a page load; an account learns there whether it moderates (GET /api/me: admin).
export async function ensureGuest() {
  if (myToken() && myself()?.guest === false && !sessionChecked) {
    sessionChecked = true;
    const who = await api("/api/me").catch(() => null); // a 401 forgets the ended session (api)
    if (who && who.id === myself()?.id && who.admin !== !!myself()?.admin) setIdentity(myToken(), { ...myself(), admin: who.admin });
  }
  if (myToken()) return;
  remember({ guest: true, ...(await api("/api/guests", { method: "POST", body: JSON.stringify({ name: null }) })) });
}

// A new name, same identity (POST /api/me/name): my seats and matches stay mine.
export async function rename(name) {
  remember(await api("/api/me/name", { method: "POST", body: JSON.stringify({ name }) }));
}

// A new password, given the current one: my other sessions end, this one goes on under the new token.
export async function changePassword(password, newPassword) {
  remember(await api("/api/me/password", { method: "POST", body: JSON.stringify({ password, new_password: newPassword }) }));
}

// Log out everywhere (every session of my account, this one too), then go on as a new guest.
export async function logOutEverywhere() {
  await api("/api/me/sessions", { method: "DELETE" });
  clearIdentity();
  disconnect();
  await ensureGuest();
}

export async function logOut() {
  await api("/api/logout", { method: "POST" }).catch(() => {});
  clearIdentity();
  await ensureGuest();
}

// The bot level empty seats get unless the player chooses (the server's default too).
export const DEFAULT_BOT = "greedy";

// The bot levels (fetched once).
let bots = null;
export async function loadBots() {
  if (!bots) bots = await api("/api/bots");
  return bots;
}

// The published numbers of the ratings (GET /api/ratings: provisional limits, the D3 bonus cap…), fetched once.
let ratingRules = null;
export async function loadRatingRules() {
  if (!ratingRules) ratingRules = await api("/api/ratings");
  return ratingRules;
}

// The same once fetched (null before).
export const knownRatingRules = () => ratingRules;

// The record of a table's match (GET /api/tables/ID/records: the entry of that match), or null.
export async function recordOf(tableId, match, invite) {
  const recs = await api(`/api/tables/${tableId}/records${invite ? `?invite=${encodeURIComponent(invite)}` : ""}`);
  return recs.find((r) => r.match === match) || null;
}
