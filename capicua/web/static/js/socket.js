// The websocket: one connection, opened on demand, reopened (and the table resubscribed) when it drops.
import { inviteCode, state } from "./state.js";

let ws = null;
let ready = null;
let onFrame = () => {};
let onClosed = () => {};
let refs = 0;
const awaited = new Map(); // ref → resolve: the answers (ack or error) a request() waits for

// Who gets the frames, and who hears that the connection dropped.
export function listen(frameHandler, closedHandler) {
  onFrame = frameHandler;
  onClosed = closedHandler;
}

export function connect() {
  if (ws && ws.readyState <= 1) return ready;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${proto}://${location.host}/ws?token=${encodeURIComponent(state.token || "")}`);
  ws = socket;
  ready = new Promise((resolve) => socket.addEventListener("open", resolve, { once: true }));
  socket.addEventListener("message", (ev) => {
    const frame = JSON.parse(ev.data);
    const resolve = (frame.type === "ack" || frame.type === "error") && frame.ref != null && awaited.get(frame.ref);
    if (resolve) { awaited.delete(frame.ref); resolve(frame); } else onFrame(frame);
  });
  socket.addEventListener("close", () => {
    if (ws !== socket) return;
    ws = null;
    onClosed();
    setTimeout(() => { if (state.tableId) subscribe(state.tableId); }, 500);
  });
  return ready;
}

// Close the connection (the player changed): it reopens with the new token and resubscribes.
export function disconnect() {
  if (ws) {
    const old = ws;
    ws = null;
    old.close();
    if (state.tableId) subscribe(state.tableId);
  }
}

// Send a message; returns its ref (the server copies it into the ack or error that answers).
export async function send(msg) {
  const ref = msg.ref ?? `${msg.type}-${++refs}`;
  await connect();
  ws.send(JSON.stringify({ ...msg, ref }));
  return ref;
}

// Send a message and wait for its answer: the ack, or the error (also when none comes within `ms`).
export async function request(msg, ms = 10000) {
  const ref = `${msg.type}-${++refs}`;
  const answer = new Promise((resolve) => {
    awaited.set(ref, resolve);
    setTimeout(() => { if (awaited.delete(ref)) resolve({ type: "error", code: "unavailable", message: "no answer", ref }); }, ms);
  });
  await send({ ...msg, ref });
  return answer;
}

export async function subscribe(tableId) {
  state.tableId = tableId;
  await send({ type: "subscribe", table: tableId, last: state.n ?? undefined, invite: inviteCode() ?? undefined });
}
