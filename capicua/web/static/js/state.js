// The client's shared state: who I am, the games and bots the server offers, the table I watch
// and its last frame, what I picked in my hand, the table's chat and bubbles, and the timers.

export const state = {
  token: localStorage.getItem("capicua.token"),
  me: JSON.parse(localStorage.getItem("capicua.me") || "null"),
  games: null, // GET /api/variants, fetched once
  bots: null, // GET /api/bots, fetched once
  ratingRules: null, // GET /api/ratings, fetched once
  tableId: null,
  frame: null, // the table's last state frame
  n: null, // the number of the last event seen
  picked: null, // the tile picked in my hand, waiting for an end
  galoArmed: false,
  chat: [], // the chat frames of this table, oldest first
  bubbles: {}, // seat → {text, at}: the speech bubble of its last action or message
  timer: null, // the clocks' ticker
  lobbyTimer: null, // the lobby's refresh
  lastError: null,
};

export function setIdentity(token, me) {
  state.token = token;
  state.me = me;
  localStorage.setItem("capicua.token", token);
  localStorage.setItem("capicua.me", JSON.stringify(me));
}

export function clearIdentity() {
  state.token = null;
  state.me = null;
  localStorage.removeItem("capicua.token");
  localStorage.removeItem("capicua.me");
}

export function leaveTable() {
  state.tableId = null;
  state.n = null;
  state.frame = null;
  state.picked = null;
  state.galoArmed = false;
  state.chat = [];
  state.bubbles = {};
}

// The invite code of a private table, from the address (#/table/ID?invite=CODE).
export function inviteCode() {
  return new URLSearchParams(location.hash.split("?")[1] || "").get("invite");
}

// A game of the server's registry (GET /api/variants) by name.
export function gameNamed(name) {
  return (state.games || []).find((g) => g.name === name);
}

// Names whose chat I muted (remembered).
export function mutedNames() {
  return new Set(JSON.parse(localStorage.getItem("capicua.chat-muted") || "[]"));
}
export function toggleMutedName(name) {
  const names = mutedNames();
  if (names.has(name)) names.delete(name); else names.add(name);
  localStorage.setItem("capicua.chat-muted", JSON.stringify([...names]));
}
