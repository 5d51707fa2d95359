// The browser client's websocket (capicua/web/static/js/socket.js) under Node's test runner, over a fake
// WebSocket: an action answered `unknown` (its server died on the way), or left unanswered when its connection
// dropped, is followed by a subscription from the last event I have and, once the table is back in sight, sent
// again with the same ref if the table view still wants it, and only then (docs/protocol.md, "Several
// servers"). Run by tests/web/test_client_modules.py.
import assert from "node:assert/strict";
import { beforeEach, describe, it, mock } from "node:test";

globalThis.localStorage = { getItem: () => null, setItem: () => {}, removeItem: () => {} };
globalThis.location = { protocol: "http:", host: "capicua.test", hash: "#/table/T1" };
const sockets = [];
class FakeSocket {
  constructor(url) {
    this.url = url;
    this.readyState = 0;
    this.sent = [];
    this.listeners = {};
    sockets.push(this);
    queueMicrotask(() => { this.readyState = 1; this.emit("open"); });
  }
  addEventListener(type, fn) { (this.listeners[type] ||= []).push(fn); }
  emit(type, ev = {}) { for (const fn of this.listeners[type] || []) fn(ev); }
  send(data) { this.sent.push(JSON.parse(data)); }
  close() { this.readyState = 3; this.emit("close"); }
  receive(frame) { this.emit("message", { data: JSON.stringify(frame) }); }
}
globalThis.WebSocket = FakeSocket;
const { follow, listen, resendIf, send } = await import("../../../capicua/web/static/js/socket.js");

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const socket = () => sockets[sockets.length - 1];
let frames = [];
let wanted = null;
let last = 40;

describe("an action answered unknown", () => {
  beforeEach(async () => {
    frames = [];
    wanted = [];
    listen((frame) => frames.push(frame), () => {});
    resendIf((msg, context) => { wanted.push([msg.action, context]); return context.still; });
    await follow("T1", () => last);
    await settle();
    socket().sent.length = 0;
  });

  it("subscribes again from the last event and, still wanted, sends it again with the same ref", async () => {
    const ref = await send({ type: "action", table: "T1", action: "6-4 L" }, { hand: 2, still: true });
    const ws = socket();
    assert.deepEqual(ws.sent.map((m) => m.type), ["action"]);
    ws.receive({ type: "error", code: "unknown", message: "no answer in time", ref });
    await settle();
    assert.deepEqual(frames, [], "the unknown answer is not shown as an error");
    const [subscribe] = ws.sent.slice(1);
    assert.equal(subscribe.type, "subscribe");
    assert.equal(subscribe.last, 40);
    assert.equal(ws.sent.length, 2, "nothing is sent again before the table is back in sight");
    ws.receive({ type: "synced", table: "T1", n: 40 });
    await settle();
    const again = ws.sent[2];
    assert.deepEqual(again, { type: "action", table: "T1", action: "6-4 L", ref });
    assert.deepEqual(wanted, [["6-4 L", { hand: 2, still: true }]]);
    ws.receive({ type: "ack", ref, n: 41 });
    ws.receive({ type: "state", table: "T1", n: 41, state: {} });
    await settle();
    assert.equal(ws.sent.length, 3, "an action is sent again once at most");
  });

  it("is not sent again when the table view says it was made (or no longer applies)", async () => {
    const ref = await send({ type: "action", table: "T1", action: "pass" }, { hand: 3, still: false });
    const ws = socket();
    ws.receive({ type: "error", code: "unknown", message: "no answer in time", ref });
    await settle();
    ws.receive({ type: "event", table: "T1", n: 41, event: { kind: "action", seat: 0, action: "pass" }, state: {} });
    await settle();
    assert.deepEqual(ws.sent.map((m) => m.type), ["action", "subscribe"]);
    assert.deepEqual(wanted, [["pass", { hand: 3, still: false }]]);
  });

  it("leaves the other errors to the page", async () => {
    const ref = await send({ type: "action", table: "T1", action: "9-9" }, { hand: 1, still: true });
    socket().receive({ type: "error", code: "illegal", message: "not a legal move", ref });
    await settle();
    assert.deepEqual(frames.map((f) => f.code), ["illegal"]);
    assert.deepEqual(socket().sent.map((m) => m.type), ["action"]);
  });

  it("asks again for a subscription whose answer was lost", async () => {
    const ws = socket();
    ws.receive({ type: "error", code: "unknown", message: "no answer in time", ref: "subscribe-x-1" });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    assert.deepEqual(ws.sent.map((m) => m.type), ["subscribe"]);
    assert.deepEqual(frames, [], "not shown as an error");
  });
});

// An action whose connection drops before its answer may have been made, or may still be (on its way to the
// table's node): on the next connection, once the table is back in sight, it takes the path of one answered
// `unknown`: sent again with its ref if the table view still wants it (the table answers a ref it made with
// its first ack, so the late original and the resend are one action), and only then.
describe("an action unanswered when its connection drops", () => {
  let seen = 0; // the n of the last frame the page was given: when the check was asked
  beforeEach(async () => {
    frames = [];
    wanted = [];
    listen((frame) => { frames.push(frame); seen = frame.n ?? seen; }, () => {});
    resendIf((msg, context) => { wanted.push([msg.action, context, seen]); return context.still; });
    await follow("T1", () => last);
    await settle();
    socket().sent.length = 0;
  });

  const played = (n, seat, action) => ({ type: "event", table: "T1", n, event: { kind: "action", seat,
    action: `${seat}: ${action}`, timeout: false } });

  // The connection drops (and, half a second later, the client connects again and subscribes).
  async function drop(ws) {
    mock.timers.enable({ apis: ["setTimeout"] });
    try {
      ws.close();
      mock.timers.tick(500);
    } finally {
      mock.timers.reset();
    }
    await settle();
    assert.notEqual(socket(), ws, "a new connection");
    return socket();
  }

  it("is sent again with the same ref once the new connection's subscription is synced", async () => {
    const ref = await send({ type: "action", table: "T1", action: "6-4 L" }, { hand: 2, still: true });
    const ws = await drop(socket());
    assert.deepEqual(ws.sent, [{ type: "subscribe", table: "T1", last: 40, ref: ws.sent[0].ref }],
      "subscribed again from the last event, and nothing sent again before the table is back in sight");
    ws.receive({ type: "synced", table: "T1", n: 40 });
    await settle();
    assert.deepEqual(ws.sent[1], { type: "action", table: "T1", action: "6-4 L", ref });
    assert.deepEqual(wanted, [["6-4 L", { hand: 2, still: true }, 40]]);
    ws.receive({ type: "ack", ref, n: 41 });
    ws.receive({ type: "state", table: "T1", n: 41, state: {} });
    await settle();
    assert.equal(ws.sent.length, 2, "sent again once at most");
    assert.deepEqual(frames.filter((f) => f.type === "error"), []);
  });

  it("sent again and dropped again, is sent again once more, still with its ref", async () => {
    const ref = await send({ type: "action", table: "T1", action: "pass" }, { hand: 2, still: true });
    let ws = await drop(socket());
    ws.receive({ type: "synced", table: "T1", n: 40 });
    await settle();
    ws = await drop(ws);
    ws.receive({ type: "synced", table: "T1", n: 40 });
    await settle();
    assert.deepEqual(ws.sent.map((m) => [m.type, m.ref === ref]), [["subscribe", false], ["action", true]]);
    ws.receive({ type: "ack", ref, n: 41 });
  });

  it("is not sent again when the catch-up brings its event (the table view no longer wants it)", async () => {
    const ref = await send({ type: "action", table: "T1", action: "6-4 L" }, { hand: 2, still: false });
    const ws = await drop(socket());
    // what was missed: my action (made before the drop), then a bot's; only the last frame carries a state
    ws.receive(played(41, 0, "6-4 L"));
    ws.receive({ ...played(42, 1, "pass"), state: {} });
    await settle();
    assert.deepEqual(wanted, [["6-4 L", { hand: 2, still: false }, 42]], "asked once, when the catch-up was over");
    assert.deepEqual(ws.sent.map((m) => m.type), ["subscribe"], "not played a second time");
    assert.deepEqual(frames.filter((f) => f.type === "error"), [], "no error shown");
    assert.ok(!frames.some((f) => f.ref === ref));
  });

  it("still wanted although its event came (a draw after a draw), goes with its ref: its first ack", async () => {
    const ref = await send({ type: "action", table: "T1", action: "draw" }, { hand: 2, still: true });
    const ws = await drop(socket());
    ws.receive({ ...played(41, 0, "draw"), state: {} });
    await settle();
    assert.deepEqual(ws.sent[1], { type: "action", table: "T1", action: "draw", ref }, "the same ref, never a new one");
    // The table remembers the ref it made in this hand and answers with its first ack, not a second draw
    // (capicua/service/tables/log.py, EventLog.made; tests/service/test_relay.py).
    ws.receive({ type: "ack", ref, n: 41 });
    await settle();
    assert.deepEqual(frames.filter((f) => f.type === "error"), []);
    assert.equal(ws.sent.length, 2);
  });

  it("answered before the drop, is not sent again", async () => {
    const ref = await send({ type: "action", table: "T1", action: "5-5 R" }, { hand: 2, still: true });
    socket().receive({ type: "ack", ref, n: 41 });
    const ws = await drop(socket());
    ws.receive({ type: "synced", table: "T1", n: 41 });
    await settle();
    assert.deepEqual(ws.sent.map((m) => m.type), ["subscribe"]);
    assert.deepEqual(wanted, []);
  });
});
