// The websocket: one connection, opened on demand, reopened (and the table I follow subscribed again from
// the last event I have) when it drops.
import { inviteCode, myToken } from "./identity.js";

let ws = null;
let ready = null;
let onFrame = () => {};
let onClosed = () => {};
let refs = 0;
// Refs are unique to this page: an action sent again with its ref is answered, not made twice (docs/protocol.md).
const page = Math.random().toString(36).slice(2, 8);
const awaited = new Map(); // ref → resolve: the answers (ack or error) a request() waits for
let followed = null; // the table I follow: {table, last: () => the number of the last event I have, or null}
// Actions sent and not answered yet (ref → {msg, context}), and the uncertain ones: those answered `unknown`
// (their server died on the way) and those still unanswered when their connection dropped (on their way to
// the table's node, they may be made yet). Either may have been made, or may still be. Once the table's state
// is back (`synced`, or a frame with a state), each is sent again with its ref if `stillWanted(msg, context)`
// says so, and dropped otherwise; the server answers a resend of an action it made with its first ack, so the
// late original and the resend are one action (docs/protocol.md, "Several servers").
const unanswered = new Map();
const uncertain = new Map();
let stillWanted = () => false;
const KEPT = 64;

// Who gets the frames, and who hears that the connection dropped.
export function listen(frameHandler, closedHandler) {
  onFrame = frameHandler;
  onClosed = closedHandler;
}

// Who decides whether an uncertain action (answered `unknown`, or unanswered when its connection dropped) is
// still to be made once the table is back in sight: `check(msg, context)`, the context being what `send` was
// given with it.
export function resendIf(check) {
  stillWanted = check;
}

function answered(frame) {
  if ((frame.type !== "ack" && frame.type !== "error") || frame.ref == null) return false;
  const sent = unanswered.get(frame.ref);
  if (!sent) return false;
  unanswered.delete(frame.ref);
  if (frame.type === "error" && frame.code === "unknown") {
    uncertain.set(frame.ref, sent);
    resubscribe(); // what I missed comes first, my action among it if it was made
    return true;
  }
  return false;
}

function resendUncertain(frame) {
  if (!uncertain.size || !(frame.type === "synced" || frame.state)) return;
  for (const [ref, sent] of [...uncertain]) {
    uncertain.delete(ref);
    if (sent.msg.table === frame.table && stillWanted(sent.msg, sent.context)) send(sent.msg, sent.context);
  }
}

export function connect() {
  if (ws && ws.readyState <= 1) return ready;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${proto}://${location.host}/ws?token=${encodeURIComponent(myToken() || "")}`);
  ws = socket;
  ready = new Promise((resolve) => socket.addEventListener("open", resolve, { once: true }));
  socket.addEventListener("message", (ev) => {
    const frame = JSON.parse(ev.data);
    const resolve = (frame.type === "ack" || frame.type === "error") && frame.ref != null && awaited.get(frame.ref);
    if (resolve) { awaited.delete(frame.ref); unanswered.delete(frame.ref); resolve(frame); return; }
    if (answered(frame)) return;
    // The server I am on no longer runs the table (another took it over, or this one is stopping): connect
    // again, through whatever server the address leads to, and subscribe from the last event I have.
    if ((frame.type === "moved" || (frame.type === "error" && frame.code === "elsewhere")) && followed) {
      socket.close();
      return;
    }
    // My subscription's answer was lost (the table's server died, or Redis was away) or refused for now: a
    // subscription asked again is harmless, so ask again in a moment.
    if (frame.type === "error" && followed && String(frame.ref).startsWith("subscribe-")
        && (frame.code === "unknown" || frame.code === "unavailable")) {
      setTimeout(() => resubscribe(), 1000);
      return;
    }
    onFrame(frame);
    resendUncertain(frame);
  });
  socket.addEventListener("close", (ev) => {
    if (ws !== socket) return;
    ws = null;
    unanswer();
    onClosed();
    // 1008: refused by the limits (too many connections at once, or opened too fast): wait longer.
    setTimeout(() => resubscribe(), ev.code === 1008 ? 10000 : 500);
  });
  return ready;
}

// The connection closed: the actions it carried that got no answer become uncertain, like those answered
// `unknown`, to be sent again with their refs (if still wanted) once the table is back in sight.
function unanswer() {
  for (const [ref, sent] of unanswered) uncertain.set(ref, sent);
  unanswered.clear();
}

// Close the connection (the player's token changed): it reopens with the new token and resubscribes. Its
// unanswered actions become uncertain as on any close: a player renaming himself or changing his password gets
// a new token but keeps his seat, and the table remembers refs by seat.
export function disconnect() {
  if (ws) {
    const old = ws;
    ws = null;
    unanswer();
    old.close();
    resubscribe();
  }
}

// Send a message; returns its ref (the server copies it into the ack or error that answers). An action's
// `context` is what resendIf's check is given if it becomes uncertain (answered `unknown`, or unanswered when
// the connection dropped).
export async function send(msg, context = null) {
  const ref = msg.ref ?? `${msg.type}-${page}-${++refs}`;
  if (msg.type === "action") {
    unanswered.set(ref, { msg: { ...msg, ref }, context });
    for (const old of unanswered.keys()) { if (unanswered.size <= KEPT) break; unanswered.delete(old); }
  }
  await connect();
  ws.send(JSON.stringify({ ...msg, ref }));
  return ref;
}

// Send a message and wait for its answer: the ack, or the error (also when none comes within `ms`).
export async function request(msg, ms = 10000) {
  const ref = `${msg.type}-${page}-${++refs}`;
  const answer = new Promise((resolve) => {
    awaited.set(ref, resolve);
    setTimeout(() => { if (awaited.delete(ref)) resolve({ type: "error", code: "unavailable", message: "no answer", ref }); }, ms);
  });
  await send({ ...msg, ref });
  return answer;
}

// Follow a table: subscribe now, and again whenever the connection comes back.
export async function follow(table, last = () => null) {
  followed = { table, last };
  await resubscribe();
}

// Follow no table (a view that is not a table's): its frames are not wanted any more.
export function unfollow() {
  followed = null;
}

// The table I follow, or null.
export const following = () => followed?.table ?? null;

// Subscribe to the table I follow again: from the last event I have, or (fresh) for its whole state.
export async function resubscribe(fresh = false) {
  if (!followed) return;
  const last = fresh ? null : followed.last();
  await send({ type: "subscribe", table: followed.table, last: last ?? undefined, invite: inviteCode() ?? undefined });
}
