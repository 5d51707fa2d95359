// capicua browser client: lobby, tables and play over one websocket. No build step, no CDN.
import { LANGS, pickLanguage, setLanguage, t } from "./i18n.js";

const $ = (sel, root = document) => root.querySelector(sel);
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v === true) node.setAttribute(k, "");
    else if (v !== false && v != null) node.setAttribute(k, v);
  }
  for (const c of children.flat()) if (c != null) node.append(c.nodeType ? c : document.createTextNode(String(c)));
  return node;
};

const app = {
  token: localStorage.getItem("capicua.token"),
  me: JSON.parse(localStorage.getItem("capicua.me") || "null"),
  ws: null, wsReady: null, tableId: null, frame: null, n: null, galoArmed: false, picked: null,
  timer: null, lobbyTimer: null, lastError: null,
};

// -- HTTP ------------------------------------------------------------------------------------
async function api(path, options = {}) {
  const headers = { "Content-Type": "application/json", "X-Requested-With": "capicua" };
  if (app.token) headers.Authorization = `Bearer ${app.token}`;
  const res = await fetch(path, { ...options, headers, credentials: "same-origin" });
  const body = res.headers.get("content-type")?.includes("json") ? await res.json() : await res.text();
  if (!res.ok) throw new Error(body?.message || body?.detail || res.statusText);
  return body;
}

function remember(who) {
  app.token = who.token;
  app.me = { id: who.id, name: who.name, guest: who.guest };
  localStorage.setItem("capicua.token", app.token);
  localStorage.setItem("capicua.me", JSON.stringify(app.me));
  if (app.ws) app.ws.close();
}

async function ensureGuest(name) {
  if (app.token && !name) return;
  const guest = await api("/api/guests", { method: "POST", body: JSON.stringify({ name: name || null }) });
  app.token = guest.token;
  app.me = { id: guest.id, name: guest.name };
  localStorage.setItem("capicua.token", app.token);
  localStorage.setItem("capicua.me", JSON.stringify(app.me));
  if (app.ws) app.ws.close();
}

// -- websocket -------------------------------------------------------------------------------
function connect() {
  if (app.ws && app.ws.readyState <= 1) return app.wsReady;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws?token=${encodeURIComponent(app.token || "")}`);
  app.ws = ws;
  app.wsReady = new Promise((resolve) => ws.addEventListener("open", resolve, { once: true }));
  ws.addEventListener("message", (ev) => onFrame(JSON.parse(ev.data)));
  ws.addEventListener("close", () => {
    if (app.ws !== ws) return;
    app.ws = null;
    setStatus(t("reconnecting"));
    setTimeout(() => { if (app.tableId) subscribe(app.tableId); }, 800);
  });
  return app.wsReady;
}

async function send(msg) {
  await connect();
  app.ws.send(JSON.stringify(msg));
}

async function subscribe(tableId) {
  app.tableId = tableId;
  const invite = new URLSearchParams(location.hash.split("?")[1] || "").get("invite");
  await send({ type: "subscribe", table: tableId, last: app.n, invite });
}

function onFrame(frame) {
  if (frame.type === "error") { showError(frame.message); return; }
  if (frame.type === "welcome" || frame.type === "pong" || frame.type === "ack") return;
  if (frame.type === "synced") { setStatus(""); return; }
  if (frame.table && frame.table !== app.tableId) return;
  if (frame.n != null) app.n = frame.n;
  if (frame.state) {
    app.frame = frame.state;
    setStatus("");
    renderTable();
  }
}

// -- rendering helpers -----------------------------------------------------------------------
const PIPS = { 0: [], 1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8] };

function half(n) {
  const h = el("span", { class: "half" });
  for (let i = 0; i < 9; i++) h.append(el("i", { class: PIPS[n].includes(i) ? "pip" : "" }));
  return h;
}

function tileName(text) {
  const [a, b] = text.split("-");
  return a === b ? `${t("carroca")} ${a}` : `${a}-${b}`;
}

function tile(text, opts = {}) {
  let [a, b] = text.split("-").map(Number);
  if (opts.flip) [a, b] = [b, a]; // the outer half first: arms that grow left or up
  const cls = ["tile", a === b ? "double" : "", opts.vertical ? "vertical" : "", opts.cls || ""].join(" ");
  if (opts.button) {
    return el("button", { class: cls, "aria-label": tileName(text), title: text, onclick: opts.onclick,
      "aria-pressed": opts.pressed ? "true" : null, disabled: opts.disabled || null }, half(a), half(b));
  }
  return el("span", { class: cls, role: "img", "aria-label": tileName(text), title: text }, half(a), half(b));
}

function setStatus(text) { const s = $("#status"); if (s) s.textContent = text; }
function showError(message) {
  app.lastError = message;
  const box = $("#error");
  if (box) { box.textContent = `${t("error")}: ${message}`; box.hidden = false; setTimeout(() => { box.hidden = true; }, 4000); }
}

function accountBox() {
  if (app.me && app.me.guest === false) {
    return el("div", { class: "account" },
      el("a", { href: `#/profile/${encodeURIComponent(app.me.id)}` }, app.me.name),
      el("button", { id: "logout", onclick: logOut }, t("log_out")));
  }
  const user = el("input", { id: "username", autocomplete: "username", "aria-label": t("username"), placeholder: t("username") });
  const pass = el("input", { id: "password", type: "password", autocomplete: "current-password", "aria-label": t("password"), placeholder: t("password") });
  const submit = (path) => async (e) => {
    e.preventDefault();
    try {
      remember(await api(path, { method: "POST", body: JSON.stringify({ username: user.value, password: pass.value }) }));
      route();
    } catch (err) { showError(err.message); }
  };
  return el("form", { class: "account", onsubmit: submit("/api/login") }, user, pass,
    el("button", { type: "submit", id: "login" }, t("log_in")),
    el("button", { type: "button", id: "signup", onclick: submit("/api/accounts") }, t("sign_up")),
    app.me ? el("a", { href: `#/profile/${encodeURIComponent(app.me.id)}` }, t("profile")) : null);
}

async function logOut() {
  await api("/api/logout", { method: "POST" }).catch(() => {});
  app.token = null; app.me = null;
  localStorage.removeItem("capicua.token"); localStorage.removeItem("capicua.me");
  await ensureGuest(); route();
}

function header() {
  const langs = el("select", { id: "lang", "aria-label": "Language", onchange: (e) => { setLanguage(e.target.value); route(); } },
    Object.entries(LANGS).map(([k, v]) => el("option", { value: k, selected: k === document.documentElement.lang }, v)));
  const nameForm = el("form", { class: "name", onsubmit: async (e) => {
    e.preventDefault(); await ensureGuest($("#name").value); route(); } },
    el("label", { for: "name" }, t("name")), el("input", { id: "name", value: app.me?.name || "", maxlength: 32 }),
    el("button", { type: "submit" }, t("save")));
  return el("header", {}, el("a", { href: "#/", class: "logo" }, "capicua"),
    app.me?.guest === false ? null : nameForm, accountBox(), langs);
}

function page(...content) {
  const root = $("#app");
  root.replaceChildren(header(), el("p", { id: "status", role: "status" }), el("p", { id: "error", role: "alert", hidden: true }), ...content);
}

// -- lobby -----------------------------------------------------------------------------------
async function renderLobby() {
  app.tableId = null; app.n = null; app.frame = null;
  const list = el("ul", { class: "tables", "aria-label": t("lobby") });
  const form = createForm();
  page(el("main", {}, el("h1", {}, t("lobby")),
    el("button", { id: "quick", class: "primary", onclick: quickPlay }, t("quick")), list, form));
  const refresh = async () => {
    const tables = await api("/api/tables");
    list.replaceChildren(...(tables.length ? tables.map(tableItem) : [el("li", {}, t("no_tables"))]));
  };
  await refresh();
  clearInterval(app.lobbyTimer);
  app.lobbyTimer = setInterval(() => { if (!app.tableId) refresh().catch(() => {}); }, 3000);
}

function tableItem(tb) {
  const seats = tb.seats.map((s) => s.empty ? t("empty_seat") : s.name).join(", ");
  return el("li", {}, el("strong", {}, t(tb.variant)), ` · ${tb.players} ${t("players").toLowerCase()} · ${seats} `,
    el("a", { href: `#/table/${tb.id}`, class: "button" }, tb.status === "open" ? t("join") : t("watch")));
}

function createForm() {
  const field = (id, label, input) => el("label", { for: id }, label, input);
  return el("form", { id: "create", class: "create", onsubmit: createTable },
    el("h2", {}, t("create")),
    field("variant", t("variant"), el("select", { id: "variant" },
      ["amazonense", "individual", "dominousa"].map((v) => el("option", { value: v }, t(v))))),
    field("players", t("players"), el("select", { id: "players" }, [2, 3, 4].map((n) => el("option", { value: n, selected: n === 4 }, n)))),
    field("target", t("target"), el("input", { id: "target", type: "number", min: 1, max: 1000, placeholder: "200" })),
    field("move_seconds", t("move_seconds"), el("input", { id: "move_seconds", type: "number", min: 5, max: 600, value: 40 })),
    field("match_minutes", t("match_minutes"), el("input", { id: "match_minutes", type: "number", min: 1, max: 600, placeholder: "40" })),
    field("strict", t("strict"), el("input", { id: "strict", type: "checkbox" })),
    field("lead", t("lead"), el("select", { id: "lead" }, el("option", { value: "highest" }, t("lead_highest")), el("option", { value: "winner" }, t("lead_winner")))),
    field("private", t("private"), el("input", { id: "private", type: "checkbox" })),
    field("bots_after", t("bots_after"), el("input", { id: "bots_after", type: "number", min: 0, max: 600, placeholder: "—" })),
    field("bot", t("bot"), el("select", { id: "bot" }, ["greedy", "expert", "random"].map((b) => el("option", { value: b }, t(b))))),
    el("button", { type: "submit", class: "primary" }, t("create")));
}

async function createTable(e) {
  e.preventDefault();
  const v = $("#variant").value;
  const num = (id) => ($(`#${id}`).value ? Number($(`#${id}`).value) : null);
  const body = { variant: v, sit: true, target: num("target"), move_seconds: num("move_seconds") || 40, private: $("#private").checked,
    bots_after: num("bots_after"), bot: $("#bot").value };
  if (v === "individual") { body.players = Number($("#players").value); body.lead = $("#lead").value; }
  if (v === "dominousa") { body.strict = $("#strict").checked; body.match_minutes = num("match_minutes"); }
  try {
    const tb = await api("/api/tables", { method: "POST", body: JSON.stringify(body) });
    location.hash = `#/table/${tb.id}${tb.invite ? `?invite=${tb.invite}` : ""}`;
  } catch (err) { showError(err.message); }
}

async function quickPlay() {
  try {
    const tb = await api("/api/tables", { method: "POST", body: JSON.stringify({ variant: "amazonense", sit: true, bots_after: 2, bot: "greedy" }) });
    location.hash = `#/table/${tb.id}`;
  } catch (err) { showError(err.message); }
}

// -- the table -------------------------------------------------------------------------------
async function openTable(id) {
  clearInterval(app.lobbyTimer);
  if (app.tableId !== id) { app.n = null; app.frame = null; }
  page(el("main", { id: "table" }, el("p", {}, "…")));
  await subscribe(id);
}

function seatLabel(k) {
  const tb = app.frame.table;
  const s = tb.seats[k];
  const mine = app.frame.seat === k ? ` (${t("you")})` : "";
  if (s.empty) return `${t("seat")} ${k}: ${t("empty_seat")}`;
  return `${s.name}${s.bot ? ` · ${t("bot_label")}` : ""}${s.away ? ` · ${t("away")}` : ""}${mine}`;
}

function sideLabel(i) {
  const tb = app.frame.table;
  if (tb.variant === "individual") return seatLabel(i);
  return `${t("team")} ${i}: ${tb.seats[i]?.name || "?"} & ${tb.seats[i + 2]?.name || "?"}`;
}

function renderTable() {
  const f = app.frame;
  if (!f || !$("#table")) return;
  const tb = f.table;
  const hand = f.hand;
  const invite = new URLSearchParams(location.hash.split("?")[1] || "").get("invite");
  const top = el("section", { class: "info" },
    el("h1", {}, `${t(tb.variant)} · ${t("target")}: ${tb.options.target}`),
    tb.private && invite ? el("p", {}, `${t("copy_link")}: `, el("code", {}, `${location.origin}/#/table/${tb.id}?invite=${invite}`)) : null);
  const seatsBox = el("ul", { class: "seats", "aria-label": t("seat") }, tb.seats.map((_, k) => el("li", {
    class: hand && hand.turn === k ? "turn" : "" }, seatLabel(k),
    hand ? ` · ${hand.counts[k]} ${t("tiles")}` : "")));
  const parts = [top, seatsBox];
  if (tb.status === "open") {
    parts.push(el("div", { class: "actions" },
      ...tb.seats.map((s, k) => s.empty && f.seat == null
        ? el("button", { class: "sit", "data-seat": k, onclick: () => joinSeat(tb.id, k) }, `${t("join")}: ${t("seat")} ${k}`) : null),
      el("button", { onclick: () => tableCall(tb.id, "bots", { level: "greedy" }) }, t("fill_bots")),
      el("button", { class: "primary", onclick: () => tableCall(tb.id, "start") }, t("start")),
      f.seat != null ? el("button", { onclick: () => tableCall(tb.id, "leave") }, t("leave")) : null,
      el("p", {}, t("waiting"))));
  }
  if (hand) parts.push(renderHand(f, hand));
  if (f.winner != null) parts.push(renderEnd(f));
  $("#table").replaceChildren(...parts);
  tickClock();
}

async function joinSeat(id, seat = null) {
  const invite = new URLSearchParams(location.hash.split("?")[1] || "").get("invite");
  try { await api(`/api/tables/${id}/join`, { method: "POST", body: JSON.stringify({ invite, seat }) }); app.n = null; await subscribe(id); }
  catch (err) { showError(err.message); }
}

async function tableCall(id, what, body = {}) {
  try { await api(`/api/tables/${id}/${what}`, { method: "POST", body: JSON.stringify(body) }); }
  catch (err) { showError(err.message); }
}

function renderBoard(layout) {
  const board = el("div", { class: `board ${layout.shape}`, "aria-label": t("count") });
  if (layout.shape === "spinner") {
    if (!layout.spinner) return board;
    const arm = (name, vertical) => el("div", { class: `arm arm-${name}` },
      layout.arms[name].map((p) => tile(p, { vertical: vertical ? !isDouble(p) : isDouble(p), flip: name === "W" || name === "N" })));
    const west = arm("W", false);
    west.append(...[...west.children].reverse());
    const north = arm("N", true);
    north.append(...[...north.children].reverse());
    board.append(north, west, el("div", { class: "spinner" }, tile(layout.spinner, { vertical: true, cls: "spin" })), arm("E", false), arm("S", true));
  } else {
    board.append(el("div", { class: "line" }, layout.line.map((p) => tile(p, { vertical: isDouble(p) }))));
  }
  return board;
}
const isDouble = (p) => p.split("-")[0] === p.split("-")[1];

function renderHand(f, hand) {
  const legal = hand.legal || [];
  const myTurn = f.seat != null && hand.turn === f.seat;
  const box = el("section", { class: "hand" });
  const ends = Object.entries(hand.layout.ends || {}).map(([k, v]) => `${k}=${v}`).join(" ");
  box.append(el("p", { class: "meta" },
    `${t("hand_no")} ${hand.hand} · ${t("count")}: ${hand.layout.count ?? 0} (${ends})`,
    hand.boneyard ? ` · ${t("boneyard")}: ${hand.boneyard}` : "",
    hand.end ? ` · ${t(`end_${hand.end}`)}` : "",
    el("span", { id: "clock", "aria-label": t("clock") })));
  box.append(el("p", { class: "turnline", "aria-live": "polite" },
    hand.end ? "" : myTurn ? t("your_turn") : `${t("turn_of")} ${seatLabel(hand.turn)}`));
  box.append(renderBoard(hand.layout));
  // score with reasons
  const totals = f.totals || [];
  box.append(el("div", { class: "score" }, el("h2", {}, t("score")),
    el("ul", {}, totals.map((p, i) => el("li", {}, `${sideLabel(i)}: ${p}`))),
    el("ol", { class: "reasons", "aria-label": t("score") }, (hand.scores || []).map((s) =>
      el("li", {}, `+${s.points} ${hand.variant === "individual" ? seatLabel(s.to) : `${t("team")} ${s.to}`} — ${t(`kind_${s.kind}`)}`)))));
  // my tiles
  if (f.seat != null) {
    const playable = new Set(legal.filter((m) => /^\d-\d/.test(m)).map((m) => m.split(" ")[0]).map(norm));
    const mine = el("div", { class: "mytiles", role: "group", "aria-label": t("tiles") }, (hand.tiles || []).map((p) =>
      tile(p, { button: true, cls: playable.has(norm(p)) && myTurn ? "playable" : "", pressed: app.picked === norm(p),
        disabled: !(playable.has(norm(p)) && myTurn), onclick: () => pickTile(p, legal) })));
    box.append(mine);
    const buttons = el("div", { class: "actions" });
    if (app.picked) {
      const options = legal.filter((m) => /^\d-\d/.test(m) && norm(m.split(" ")[0]) === app.picked);
      buttons.append(el("span", {}, `${t("choose_end")}: `), ...options.map((m) =>
        el("button", { class: "primary", onclick: () => sendMove(m) }, m.split(" ")[1] ? t(`end_${m.split(" ")[1]}`) : m)));
    }
    for (const word of ["pass", "draw", "announce", "redeal", "keep", "claim", "galo"]) {
      if (legal.includes(word)) buttons.append(el("button", { class: word === "galo" ? "galo" : "", "data-move": word, onclick: () => sendMove(word) }, t(word)));
    }
    if (hand.variant === "amazonense" && myTurn && legal.some((m) => /^\d-\d/.test(m))) {
      buttons.append(el("button", { class: `galo ${app.galoArmed ? "armed" : ""}`, "aria-pressed": app.galoArmed ? "true" : "false",
        onclick: () => { app.galoArmed = !app.galoArmed; renderTable(); } }, t("galo")));
      if (app.galoArmed) buttons.append(el("span", {}, t("galo_armed")));
    }
    box.append(buttons);
  }
  if (hand.revealed) {
    box.append(el("div", { class: "revealed" }, el("h2", {}, t("hands_revealed")),
      hand.revealed.map((tiles, k) => el("p", {}, `${seatLabel(k)}: `, tiles.map((p) => tile(p))))));
  }
  return box;
}
const norm = (p) => { const [a, b] = p.split("-").map(Number); return a >= b ? `${a}-${b}` : `${b}-${a}`; };

function pickTile(p, legal) {
  const key = norm(p);
  const options = legal.filter((m) => /^\d-\d/.test(m) && norm(m.split(" ")[0]) === key);
  if (options.length === 1) { sendMove(options[0]); return; }
  app.picked = app.picked === key ? null : key;
  renderTable();
}

async function sendMove(move) {
  const text = app.galoArmed && /^\d-\d/.test(move) ? `${move} galo` : move;
  app.picked = null; app.galoArmed = false;
  await send({ type: "action", table: app.tableId, action: text, ref: Date.now() });
}

function renderEnd(f) {
  const rows = (f.hands || []).map((h, i) => el("tr", {}, el("td", {}, i + 1), el("td", {}, t(`end_${h.end}`) || h.end),
    h.points.map((p) => el("td", {}, p)),
    el("td", { class: "why" }, (h.scores || []).map((x) => `${t(`kind_${x.kind}`)} +${x.points} → ${x.to}`).join("; "))));
  const sides = (f.totals || []).map((_, i) => el("th", {}, sideLabel(i)));
  const links = el("p", { class: "actions" });
  const invite = new URLSearchParams(location.hash.split("?")[1] || "").get("invite");
  api(`/api/tables/${f.table.id}/records${invite ? `?invite=${encodeURIComponent(invite)}` : ""}`).then((recs) => {
    const last = recs[recs.length - 1];
    if (!last) return;
    links.append(el("a", { class: "button", href: `/api/records/${last.id}`, download: `capicua-${f.table.id}.json` }, t("download")),
      el("a", { class: "button", id: "open-replay", href: `#/replay/${last.id}` }, t("replay")));
  }).catch(() => {});
  if (f.seat != null) links.append(el("button", { class: "primary", onclick: () => tableCall(f.table.id, "rematch") }, t("rematch")));
  links.append(el("a", { class: "button", href: "#/" }, t("back")));
  return el("section", { class: "result", "aria-live": "polite" },
    el("h2", {}, `${t("match_over")} — ${t("winner")}: ${sideLabel(f.winner)}`),
    el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, t("hand_no")), el("th", {}, ""), sides, el("th", {}, t("score")))), el("tbody", {}, rows)),
    links);
}

function tickClock() {
  clearInterval(app.timer);
  const update = () => {
    const c = $("#clock");
    const deadline = app.frame?.clock?.deadline;
    const matchEnds = app.frame?.clock?.match_ends;
    if (!c) return;
    const left = (iso) => Math.max(0, Math.round((Date.parse(iso) - Date.now()) / 1000));
    const mmss = (n) => `${Math.floor(n / 60)}:${String(n % 60).padStart(2, "0")}`;
    c.textContent = (deadline ? ` · ⏱ ${left(deadline)}s` : "") + (matchEnds ? ` · ${t("match_minutes")}: ${mmss(left(matchEnds))}` : "");
  };
  update();
  app.timer = setInterval(update, 1000);
}

// -- profile and replays ---------------------------------------------------------------------
async function renderProfile(id) {
  clearInterval(app.lobbyTimer); app.tableId = null;
  const matches = await api(`/api/players/${encodeURIComponent(id)}/matches`);
  const rows = matches.map((m) => {
    const team = m.variant === "individual" ? m.seat : m.seat % 2;
    return el("tr", {}, el("td", {}, m.finished_at.slice(0, 16).replace("T", " ")), el("td", {}, t(m.variant)),
      el("td", {}, m.players.join(", ")), el("td", {}, m.winner === team ? t("won") : t("lost")),
      el("td", {}, el("a", { href: `#/replay/${m.id}` }, t("replay")), " ", el("a", { href: `/api/records/${m.id}`, download: "" }, t("download"))));
  });
  page(el("main", {}, el("h1", {}, `${t("profile")}${app.me && app.me.id === id ? `: ${app.me.name}` : ""}`),
    el("h2", {}, t("history")), el("table", { class: "history" }, el("tbody", {}, rows))));
}

async function renderReplay(id) {
  clearInterval(app.lobbyTimer); app.tableId = null;
  const data = await api(`/api/records/${id}/steps`);
  let i = 0;
  const view = el("section", { id: "replay" });
  const go = (k) => { i = Math.max(0, Math.min(data.steps.length - 1, k)); draw(); };
  const handStarts = data.steps.map((s, k) => (s.action === null ? k : -1)).filter((k) => k >= 0);
  const jump = el("select", { id: "jump", "aria-label": t("hand_no"), onchange: (e) => go(Number(e.target.value)) },
    handStarts.map((k, h) => el("option", { value: k }, `${t("hand_no")} ${h + 1}`)));
  const controls = el("div", { class: "actions" },
    el("button", { id: "first", onclick: () => go(0) }, t("first")), el("button", { id: "prev", onclick: () => go(i - 1) }, t("prev")),
    el("button", { id: "next", onclick: () => go(i + 1) }, t("next")), el("button", { id: "last", onclick: () => go(data.steps.length - 1) }, t("last")), jump);
  const draw = () => {
    const s = data.steps[i];
    view.replaceChildren(
      el("p", { class: "meta", id: "step" }, `${t("hand_no")} ${s.hand} · ${t("step")} ${i + 1}/${data.steps.length}`,
        s.action ? ` · ${s.action}` : "", s.end ? ` · ${t(`end_${s.end}`)}` : ""),
      renderBoard(s.layout),
      el("div", { class: "revealed" }, s.hands.map((tiles, k) => el("p", {}, `${data.players[k]}: `, tiles.map((p) => tile(p))))),
      el("ul", {}, s.totals.map((p, k) => el("li", {}, `${data.variant === "individual" ? data.players[k] : `${t("team")} ${k}`}: ${p}`))),
      el("ol", { class: "reasons" }, s.scores.map((x) => el("li", {}, `+${x.points} → ${x.to} — ${t(`kind_${x.kind}`)}`))));
  };
  page(el("main", {}, el("h1", {}, `${t("replay")} · ${t(data.variant)}`), controls, view));
  draw();
}

// -- routing ---------------------------------------------------------------------------------
async function route() {
  try {
    await ensureGuest();
    const hash = location.hash.split("?")[0];
    const m = hash.match(/^#\/table\/([\w-]+)/);
    const profile = hash.match(/^#\/profile\/(.+)/);
    const replayMatch = hash.match(/^#\/replay\/(\d+)/);
    if (m) await openTable(m[1]);
    else if (profile) await renderProfile(decodeURIComponent(profile[1]));
    else if (replayMatch) await renderReplay(replayMatch[1]);
    else await renderLobby();
  } catch (err) { page(el("p", { role: "alert" }, `${t("error")}: ${err.message}`)); }
}

setLanguage(pickLanguage());
window.addEventListener("hashchange", route);
route();
