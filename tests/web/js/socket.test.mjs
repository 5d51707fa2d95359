// The browser client's websocket (capicua/web/static/js/socket.js) under Node's test runner, over a fake
// WebSocket: an action answered `unknown` (its server died on the way) is followed by a subscription from the
// last event I have and, once the table is back in sight, sent again with the same ref if the table view still
// wants it, and only then (docs/protocol.md, "Several servers"). Run by tests/web/test_client_modules.py.
import assert from "node:assert/strict";
import { beforeEach, describe, it } from "node:test";

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
