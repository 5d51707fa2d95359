// The browser client's table store (capicua/web/static/js/views/table/store.js) under Node's test runner:
// what apply(frame) keeps, and which parts of the table view it says to draw again. Run by
// tests/web/test_client_store.py (node --test).
import assert from "node:assert/strict";
import { beforeEach, describe, it } from "node:test";

// The store's modules read nothing of the page when they load, but the identity module reads localStorage.
globalThis.localStorage = { getItem: () => null, setItem: () => {}, removeItem: () => {} };
const { PARTS, TableStore } = await import("../../../capicua/web/static/js/views/table/store.js");

const TABLE = "vGK-lLXn";
const DEADLINE = "2026-12-02T02:30:00+00:00";

// A two-player individual table as seat 0 sees it, my turn, 7 events in.
function state({ n = 7, history = ["1: 4-4", "0: 4-1 L", "1: 5-4 R"], turn = 0, legal = ["6-4 R", "6-4 L", "2-0 R", "draw"],
  tiles = ["2-0", "3-2", "3-3", "6-3", "6-4", "5-0"], deadline = DEADLINE, end = null, seat = 0 } = {}) {
  return {
    table: { id: TABLE, variant: "individual", players: 2, options: { target: 100, move_seconds: 40, auto_pass: true },
      private: false, rated: false, tournament: null, status: "playing", match: 1, n,
      seats: [{ name: "Tucano", bot: null, away: false, empty: false }, { name: "Arara", bot: "greedy", away: false, empty: false }] },
    seat, n,
    hand: { hand: 1, variant: "individual", partnerships: false, calls: ["draw"], table_count: false, seat, tiles, counts: [6, 5],
      boneyard: 14, layout: { shape: "line", line: ["1-4", "4-4", "4-5"], ends: { L: 1, R: 5 }, count: 6 }, turn, history,
      scores: [], points: [0, 0], end, legal, revealed: null, outcome: null, public: { leader: 1, last: 1, passes: 0 }, drawn: [] },
    totals: [0, 0], winner: null, hands: [{ end: null, outcome: null, points: [0, 0], scores: [] }],
    clock: { seat: turn, deadline, match_ends: null, next_deal: null },
  };
}
const stateFrame = (s = state()) => ({ type: "state", table: TABLE, n: s.n, state: s });
const eventFrame = (event, s) => ({ type: "event", table: TABLE, n: s.n, event, state: s });
const chat = (text, at = "2026-12-02T02:25:22+00:00") => ({ type: "chat", table: TABLE, seat: 1, name: "Arara", preset: null, text, at });

describe("the table store", () => {
  let now;
  let store;
  beforeEach(() => {
    now = 1_000_000;
    store = new TableStore(TABLE, { now: () => now });
  });

  it("draws every part from the first state, and nothing again from the same state", () => {
    assert.deepEqual(store.apply(stateFrame()).parts, PARTS);
    assert.equal(store.n, 7);
    assert.deepEqual(store.apply(stateFrame()).parts, []);
  });

  it("draws only the clocks when only the clock changed: not the history, not the board", () => {
    store.apply(stateFrame());
    const change = store.apply(stateFrame(state({ deadline: "2026-12-02T02:31:00+00:00" })));
    assert.deepEqual(change.parts, ["clocks"]);
  });

  it("keeps a chat message once, with a bubble by the speaker's seat, and leaves the board and history alone", () => {
    store.apply(stateFrame());
    const change = store.apply(chat("boa sorte"));
    assert.deepEqual(change.parts, ["seats", "chat"]);
    assert.equal(store.chat.length, 1);
    assert.equal(store.liveBubble(1).text, "boa sorte");
    assert.deepEqual(store.apply(chat("boa sorte")).parts, []); // said again to a connection that subscribed again
    assert.equal(store.chat.length, 1);
    now += 3600;
    assert.equal(store.liveBubble(1), null); // its bubble's time is over
  });

  it("gives a muted speaker's message no bubble", () => {
    store = new TableStore(TABLE, { muted: (name) => name === "Arara" });
    store.apply(stateFrame());
    assert.deepEqual(store.apply(chat("psst")).parts, ["chat"]);
    assert.equal(store.liveBubble(1), null);
  });

  it("keeps the last 200 chat messages", () => {
    store.apply(stateFrame());
    for (let i = 0; i < 205; i++) store.apply(chat(`m${i}`, `2026-12-02T02:25:${String(i % 60).padStart(2, "0")}.${i}+00:00`));
    assert.equal(store.chat.length, 200);
    assert.equal(store.chat[0].text, "m5");
  });

  it("a play draws the board, the history, my hand and the seats, and says its sound", () => {
    store.apply(stateFrame());
    const after = state({ n: 8, history: ["1: 4-4", "0: 4-1 L", "1: 5-4 R", "0: 6-4 R"], turn: 1, legal: [],
      tiles: ["2-0", "3-2", "3-3", "6-3", "5-0"] });
    after.hand.layout = { shape: "line", line: ["1-4", "4-4", "4-5", "5-6"], ends: { L: 1, R: 6 }, count: 7 };
    after.hand.counts = [5, 5];
    const change = store.apply(eventFrame({ kind: "action", seat: 0, action: "0: 6-4 R", timeout: false }, after));
    for (const part of ["seats", "clocks", "moves", "hand", "board", "info", "history"]) assert.ok(change.parts.includes(part), part);
    for (const part of ["title", "scores", "waiting", "overlay", "result", "chat"]) assert.ok(!change.parts.includes(part), part);
    assert.deepEqual(change.sounds, ["play"]);
    assert.equal(store.n, 8);
  });

  it("a pass bubbles at the seat that passed and leaves the board alone", () => {
    store.apply(stateFrame(state({ turn: 1, legal: [] })));
    const after = state({ n: 8, history: ["1: 4-4", "0: 4-1 L", "1: 5-4 R", "1: pass"], turn: 0 });
    const change = store.apply(eventFrame({ kind: "action", seat: 1, action: "1: pass", timeout: false }, after));
    assert.ok(!change.parts.includes("board"));
    assert.ok(change.parts.includes("history"));
    assert.ok(store.liveBubble(1));
    assert.deepEqual(change.sounds, ["pass", "turn"]); // and now it is my turn
  });

  it("a picked tile draws my hand, my buttons and the board's targets, and is forgotten once it is not my turn", () => {
    store.apply(stateFrame());
    assert.deepEqual(store.pick("6-4").parts, ["moves", "hand", "board"]);
    assert.deepEqual(store.armGalo(true).parts, ["moves"]);
    store.apply(stateFrame(state({ n: 8, turn: 1, legal: [] })));
    assert.equal(store.picked, null);
    assert.equal(store.galoArmed, false);
  });

  it("forgets a pick that no longer plays, and any pick at a new deal", () => {
    store.apply(stateFrame());
    store.pick("6-4");
    store.apply(stateFrame(state({ n: 8, legal: ["2-0 R", "draw"] })));
    assert.equal(store.picked, null);
    store.pick("2-0");
    store.apply(eventFrame({ kind: "deal", hand: 2 }, state({ n: 9, legal: ["2-0 R"] })));
    assert.equal(store.picked, null);
  });

  it("a referee's decision is announced, with a bubble at the fined seat", () => {
    store.apply(stateFrame());
    const text = 'ref(Juiz): fine 1 20 "sinal ao parceiro"';
    const after = state({ n: 8, history: ["1: 4-4", "0: 4-1 L", "1: 5-4 R", text] });
    const change = store.apply(eventFrame({ kind: "action", seat: null, action: text, timeout: false }, after));
    assert.equal(change.decision, text);
    assert.equal(store.liveBubble(1).cls, "referee");
  });

  it("a synced behind what it has throws the table away and asks for all of it; one that is not, changes nothing", () => {
    store.apply(stateFrame());
    assert.deepEqual(store.apply({ type: "synced", table: TABLE, n: 7 }), { sounds: [], decision: null, costs: [], say: [], resubscribe: false, parts: [] });
    const change = store.apply({ type: "synced", table: TABLE, n: 3 });
    assert.equal(change.resubscribe, true);
    assert.equal(store.frame, null);
    assert.equal(store.n, null);
  });

  it("missed events without a state move the number on and draw nothing", () => {
    store.apply(stateFrame());
    const change = store.apply({ type: "event", table: TABLE, n: 8, event: { kind: "action", seat: 0, action: "0: draw" } });
    assert.equal(store.n, 8);
    assert.deepEqual(change.parts, []);
  });

  it("draws again what it is told to, whatever its slice", () => {
    store.apply(stateFrame());
    assert.deepEqual(store.redraw("waiting").parts, ["waiting"]);
    assert.deepEqual(store.redraw().parts, PARTS);
    assert.deepEqual(store.closeResult().parts, ["result"]);
    assert.deepEqual(store.mutesChanged().parts, ["chat"]);
  });

  it("a spectator's frames draw no hand and no buttons when play goes on elsewhere", () => {
    store.apply(stateFrame(state({ seat: null, tiles: [], legal: [], turn: 1 })));
    const after = state({ n: 8, seat: null, tiles: [], legal: [], turn: 0, history: ["1: 4-4", "0: 4-1 L", "1: 5-4 R", "1: draw"] });
    after.hand.counts = [6, 6];
    after.hand.boneyard = 13;
    const change = store.apply(eventFrame({ kind: "action", seat: 1, action: "1: draw", timeout: false }, after));
    assert.ok(!change.parts.includes("hand") && !change.parts.includes("board"));
    assert.ok(change.parts.includes("info") && change.parts.includes("seats"));
  });

  it("wants an action answered unknown again only while it is still mine to make in the same hand", () => {
    store.apply(stateFrame());
    assert.ok(store.stillWants("6-4 L", { hand: 1 }));
    assert.ok(store.stillWants("6-4 L galo", { hand: 1 }), "a play with galo armed is the play");
    assert.ok(!store.stillWants("6-4 L", { hand: 2 }), "another hand: a new action, never the old one again");
    assert.ok(!store.stillWants("6-3 L", { hand: 1 }), "not legal now (its tile was played: it was made)");
    const made = state({ n: 8, turn: 1, legal: [], tiles: ["2-0", "3-2", "3-3", "6-3", "5-0"] });
    store.apply(eventFrame({ kind: "action", seat: 0, action: "0: 6-4 L", timeout: false }, made));
    assert.ok(!store.stillWants("6-4 L", { hand: 1 }), "it was made: the turn moved on");
  });

  it("shows the hand that ended the match for the table's pause, then its result; not when the table is opened later", () => {
    store.apply(stateFrame());
    const ended = state({ n: 8, turn: 1, legal: [], end: "batida" });
    ended.winner = 0;
    ended.table.options.pause_seconds = 5;
    const change = store.apply(eventFrame({ kind: "action", seat: 0, action: "0: 6-4 L", timeout: false }, ended));
    assert.ok(change.parts.includes("overlay") && store.lastHandShown());
    assert.equal(store.lastHandLeft(), 5000);
    now += 4000;
    assert.deepEqual(store.changed().parts, [], "nothing changes while it shows");
    now += 1001;
    assert.ok(!store.lastHandShown());
    assert.deepEqual(store.changed().parts, ["overlay", "result"], "its time is up: the result instead");
    // "Ver resultado" ends it at once
    const other = new TableStore(TABLE, { now: () => now });
    other.apply(stateFrame());
    other.apply(eventFrame({ kind: "action", seat: 0, action: "0: 6-4 L", timeout: false }, ended));
    assert.ok(other.lastHandShown());
    assert.ok(other.seeResult().parts.includes("result") && !other.lastHandShown());
    // a table opened after its match ended shows the result at once
    const later = new TableStore(TABLE, { now: () => now });
    later.apply(stateFrame(ended));
    assert.ok(!later.lastHandShown());
    // with no pause between hands, no wait either; a resignation has no hand end to show
    const quick = new TableStore(TABLE, { now: () => now });
    quick.apply(stateFrame());
    quick.apply(eventFrame({ kind: "action", seat: 0, action: "0: 6-4 L", timeout: false }, { ...ended, table: { ...ended.table, options: { pause_seconds: 0 } } }));
    assert.ok(!quick.lastHandShown());
    const resigned = new TableStore(TABLE, { now: () => now });
    resigned.apply(stateFrame());
    const gone = state({ n: 8 });
    gone.winner = 1;
    gone.abandoned = { seat: 0, reason: "resign" };
    resigned.apply(eventFrame({ kind: "end", match: 1, winner: 1, how: "abandon", seat: 0, reason: "resign" }, gone));
    assert.ok(!resigned.lastHandShown());
    const between = new TableStore(TABLE, { now: () => now }); // resigned during the pause after a hand
    between.apply(stateFrame(state({ n: 8, turn: 1, legal: [], end: "batida" })));
    between.apply(eventFrame({ kind: "end", match: 1, winner: 1, how: "abandon", seat: 0, reason: "resign" },
      { ...ended, winner: 1, abandoned: { seat: 0, reason: "resign" } }));
    assert.ok(!between.lastHandShown());
  });
});
