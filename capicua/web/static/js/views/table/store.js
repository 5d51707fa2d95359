// One table's store: everything the table view draws from. `apply(frame)` takes every frame of that table
// the websocket brings (state, event, chat, synced); the player's own choices (the tile picked, galo armed,
// the result closed, a speaker muted) go through the few setters below. Each returns a change: the parts of
// the view whose slice of the store differs from the slice they were last drawn from (only those are drawn
// again), the sounds to play and a referee's decision to announce. Plain data, no DOM: Node's test runner
// checks it (tests/web/js/).
import { isPlay } from "../../actions.js";
import { norm } from "../../tiles.js";
import { announcements, opening } from "./announcer.js";
import { chatText, reactions } from "./events.js";

const CHAT_KEPT = 200; // the chat frames kept, oldest dropped first
const BUBBLE_MS = 3500; // how long a speech bubble shows (its CSS animation lasts as long)

const plays = (history) => history.filter((a) => /^\d+: \d-\d/.test(a)); // where the tiles lie, and the last one
const people = (f) => [f.table.seats, f.hand?.partnerships ?? null, f.seat]; // names.js peopleOf's input

// Each part of the table view and the slice of the store it is drawn from (f: the last state frame, s: the
// store). A part is drawn again when its slice changed: a chat message leaves the board alone, a clock
// leaves the history alone. The order is the order they are drawn in.
export const SLICES = {
  title: (f) => [f.table.id, f.table.variant, f.table.options, f.table.rated, f.table.tournament, f.table.status, f.seat,
    f.hand?.hand],
  scores: (f) => [f.totals, people(f)],
  seats: (f, s) => [f.table.seats, f.table.status, f.table.players, f.seat, f.winner, s.bubbles,
    f.hand && [f.hand.counts, f.hand.turn, f.hand.end, f.hand.partnerships, f.hand.public?.touched]],
  clocks: (f) => [f.clock, f.table.options.move_seconds, f.table.seats, f.winner, f.hand && [f.hand.turn, f.hand.end]],
  moves: (f, s) => f.seat != null && [f.seat, f.winner, s.picked, s.galoArmed, f.hand && [f.hand.legal, f.hand.calls, f.hand.turn, f.hand.end]],
  hand: (f, s) => f.seat != null && [f.seat, s.picked, f.hand && [f.hand.tiles, f.hand.legal, f.hand.turn, f.hand.end, f.hand.public?.touched?.[f.seat]]],
  board: (f, s) => f.hand && [f.hand.layout, plays(f.hand.history), s.picked, s.picked && f.hand.legal],
  info: (f) => [f.clock?.match_ends, f.hand && [f.hand.table_count, f.hand.layout, f.hand.boneyard]],
  menu: (f) => [f.table.id, f.table.status, f.table.rated, f.seat, f.winner],
  waiting: (f) => [f.table.id, f.table.status, f.table.seats, f.table.tournament, f.table.private, f.seat],
  overlay: (f, s) => [f.winner, f.totals, f.clock?.next_deal, f.seat, f.table.players, people(f), s.lastHandShown(),
    f.hand && [f.hand.end, f.hand.outcome, f.hand.public?.last, f.hand.revealed, f.hand.scores, f.hand.points]],
  result: (f, s) => [f.winner, f.totals, f.hands, f.table.id, f.table.match, f.table.rated, people(f), s.resultClosed,
    s.lastHandShown(), f.abandoned, f.hand && [f.hand.end, f.hand.outcome, f.hand.public?.last]],
  history: (f, s) => [people(f), s.historyTab, s.historyTab === "sheet"
    ? [f.hands, f.totals, [...s.sheetOpen]] : f.hand && [f.hand.hand, f.hand.history, f.hand.scores]],
  chat: (f, s) => [f.seat, f.table.seats, f.table.options.strict, f.winner, f.hand?.end, Boolean(f.hand), s.chatCount, s.mutes],
};
export const PARTS = Object.keys(SLICES);

// The plays of my hand's tile `key` (any order of halves) among the legal moves.
export const playsOf = (legal, key) => legal.filter((m) => isPlay(m) && norm(m.split(" ")[0]) === key);

export class TableStore {
  // muted(name): whether that speaker's chat is muted (no bubble); now(): the clock, in ms; resultClosed:
  // the match whose result I closed before.
  constructor(id, { muted = () => false, now = () => Date.now(), resultClosed = null } = {}) {
    this.id = id;
    this.n = null; // the number of the last event seen
    this.frame = null; // the table's last state (the `state` of a state or event frame)
    this.picked = null; // the tile picked in my hand, waiting for an end
    this.galoArmed = false;
    this.chat = []; // the chat frames, oldest first
    this.chatCount = 0; // how many came
    this.bubbles = {}; // seat → {text, cls, at}: the speech bubble of its last action or message
    this.resultClosed = resultClosed ?? null; // the match whose result I closed
    this.mutes = 0; // how many times I muted or unmuted somebody
    this.historyTab = "moves"; // the side panel's tab: the hand's moves, or the score sheet ("sheet")
    this.sheetOpen = new Set(); // the hands of the score sheet whose reasons are shown
    this.lastHandUntil = null; // the hand that ended the match is shown until then (ms), before its result
    this.drawn = {}; // part → the slice it was last drawn from (JSON)
    this.muted = muted;
    this.now = now;
  }

  // A frame of this table. Returns {parts, sounds, decision, costs, say, resubscribe} (costs: the scores a rule cost, for
  // their toast; say: the announcer's sentences).
  apply(frame) {
    const change = { sounds: [], decision: null, costs: [], say: [], resubscribe: false };
    if (frame.type === "synced") {
      // the server went back in time (a restored backup): throw the table away, ask for all of it
      if (this.n != null && frame.n < this.n) { this.n = null; this.frame = null; change.resubscribe = true; }
    } else if (frame.type === "chat") {
      this.receive(frame);
    } else {
      if (frame.n != null) this.n = frame.n;
      if (frame.state) {
        const prev = this.frame;
        this.frame = frame.state;
        if (frame.type === "event" && frame.event) {
          this.react(reactions(frame.event, prev, frame.state), change);
          change.say = announcements(frame.event, prev, frame.state);
        } else if (!prev) change.say = opening(frame.state);
        this.endedNow(prev, frame);
        this.tidy();
      }
    }
    return this.changed(change);
  }

  // A chat frame: kept (once: a connection that subscribed again hears it again), and a bubble by the
  // speaker's seat unless I muted him.
  receive(m) {
    const same = (x) => x.at === m.at && x.seat === m.seat && x.preset === m.preset && x.text === m.text;
    if (this.chat.some(same)) return;
    this.chat.push(m);
    if (this.chat.length > CHAT_KEPT) this.chat.shift();
    this.chatCount += 1;
    if (!this.muted(m.name)) this.bubble(m.seat, chatText(m), "chat");
  }

  react(r, change) {
    for (const b of r.bubbles) this.bubble(b.seat, b.text, b.cls);
    if (r.deal) this.picked = null;
    change.sounds.push(...r.sounds);
    change.decision = r.decision;
    change.costs = r.costs;
  }

  bubble(seat, text, cls = "") {
    if (seat == null) return;
    this.bubbles = { ...this.bubbles, [seat]: { text, cls, at: this.now() } };
  }

  // Seat k's bubble if it still shows, with how far through its life it is.
  liveBubble(k) {
    const b = this.bubbles[k];
    if (!b) return null;
    const age = this.now() - b.at;
    return age < BUBBLE_MS ? { ...b, age } : null;
  }

  // The hand that ends the match, seen as it ends (an event, not a table opened later), is shown the way
  // every hand's end is, for the table's pause between hands, before the match's result covers the table.
  // A match somebody left (a resignation, even between two hands) shows its result at once.
  endedNow(prev, frame) {
    const f = frame.state;
    if (frame.type !== "event" || f.winner == null || !f.hand?.end || f.abandoned) {
      if (f.winner == null) this.lastHandUntil = null;
      return;
    }
    if (!prev || prev.winner != null || prev.table.match !== f.table.match) return;
    const pause = f.table.options?.pause_seconds ?? 6;
    this.lastHandUntil = pause > 0 ? this.now() + pause * 1000 : null;
  }

  // Whether the match's last hand is on show now (its result waits).
  lastHandShown() { return this.lastHandUntil != null && this.now() < this.lastHandUntil; }

  // How long the last hand still shows, in ms (0: it does not).
  lastHandLeft() { return this.lastHandShown() ? this.lastHandUntil - this.now() : 0; }

  // Forget a pick or an armed galo that no longer applies.
  tidy() {
    const f = this.frame;
    const hand = f.hand;
    const myTurn = hand && f.seat != null && hand.turn === f.seat && !hand.end;
    if (!myTurn) { this.picked = null; this.galoArmed = false; return; }
    if (this.picked && !playsOf(hand.legal || [], this.picked).length) this.picked = null;
  }

  // Whether my action `action`, sent in hand number `context.hand` and answered `unknown` (its server died on
  // the way), is still to be made now that the table is back in sight: the same hand, not over, and the move
  // still mine to make (made, its tile is gone or the turn moved on). The server makes a resend once anyway.
  stillWants(action, context) {
    const hand = this.frame?.hand;
    if (!hand || hand.end || this.frame.seat == null || hand.hand !== context?.hand) return false;
    return (hand.legal || []).includes(action.replace(/ galo$/, ""));
  }

  // The player's own choices.
  pick(key) { this.picked = key; return this.changed(); }
  armGalo(on) { this.galoArmed = on; return this.changed(); }
  moveSent() { this.picked = null; this.galoArmed = false; return this.changed(); }
  seeResult() { this.lastHandUntil = null; return this.changed(); }
  closeResult() { this.resultClosed = this.frame?.table.match ?? null; return this.changed(); }
  mutesChanged() { this.mutes += 1; return this.changed(); }
  showTab(tab) { this.historyTab = tab; return this.changed(); }
  toggleSheetRow(i) {
    const open = new Set(this.sheetOpen);
    if (open.has(i)) open.delete(i); else open.add(i);
    this.sheetOpen = open;
    return this.changed();
  }

  // Parts to draw again whatever their slice (what they show came from elsewhere: the bot accounts, who may
  // referee), or every part (a new page: another language, another name).
  redraw(...parts) {
    for (const p of parts.length ? parts : PARTS) delete this.drawn[p];
    return this.changed();
  }

  // The parts whose slice changed since they were drawn (they are taken as drawn now).
  changed(change = { sounds: [], decision: null, costs: [], say: [], resubscribe: false }) {
    const parts = [];
    if (this.frame) {
      for (const [part, slice] of Object.entries(SLICES)) {
        const key = JSON.stringify(slice(this.frame, this));
        if (this.drawn[part] !== key) { this.drawn[part] = key; parts.push(part); }
      }
    }
    return { ...change, parts };
  }
}
