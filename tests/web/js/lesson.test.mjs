// The guided hand's coach (capicua/web/static/js/views/lesson.js) under Node's test runner: where the learner
// stands in the lesson, from the table's frame (which prompt, which notes, off the script, the end).
import assert from "node:assert/strict";
import { describe, it } from "node:test";

globalThis.localStorage = { getItem: () => null, setItem: () => {}, removeItem: () => {} };
const { lessonPlace } = await import("../../../capicua/web/static/js/views/lesson.js");

// The shape GET /api/lessons/GAME answers (texts shortened).
const LESSON = {
  game: "amazonense", seat: 0, languages: ["pt-BR", "es", "en"],
  steps: [{ want: ["6-6"], prompt: ["a", "a", "a"], wrong: [] },
    { want: ["6-2 S"], prompt: ["b", "b", "b"], wrong: [{ moves: ["4-4 W"], text: ["x", "x", "x"] }] },
    { want: ["5-2 S galo"], prompt: ["c", "c", "c"], wrong: [] }],
  notes: [{ after: 2, text: ["n2", "n2", "n2"] }, { after: 3, text: ["n3", "n3", "n3"] }, { after: 6, text: ["n6", "n6", "n6"] }],
  end: { text: ["end", "end", "end"] },
};

const frame = (history, { turn = 0, end = null, hand = 1, winner = null } = {}) => ({ seat: 0, winner, hand: { hand, history, turn, end } });

describe("lessonPlace", () => {
  it("starts at the first prompt", () => {
    const place = lessonPlace(LESSON, frame([]));
    assert.equal(place.k, 0);
    assert.equal(place.step, LESSON.steps[0]);
    assert.equal(place.myTurn, true);
    assert.deepEqual(place.notes, []);
  });
  it("gives the next prompt and the notes of the bots' plays since my last move", () => {
    const place = lessonPlace(LESSON, frame(["0: 6-6", "1: 6-4 W", "2: 6-3 E", "3: 6-1 N"]));
    assert.equal(place.k, 1);
    assert.equal(place.step, LESSON.steps[1]);
    assert.deepEqual(place.notes.map((n) => n.after), [2, 3]);
  });
  it("reads a tile's halves in either order, and waits while a bot plays", () => {
    const place = lessonPlace(LESSON, frame(["0: 6-6", "1: 6-4 W", "2: 6-3 E", "3: 6-1 N", "0: 2-6 S"], { turn: 1 }));
    assert.equal(place.off, false);
    assert.equal(place.k, 2);
    assert.equal(place.myTurn, false);
  });
  it("is off the script once I played a move the lesson did not want, and over in a later hand", () => {
    assert.equal(lessonPlace(LESSON, frame(["0: 6-6", "1: 6-4 W", "2: 6-3 E", "3: 6-1 N", "0: 4-4 W"])).off, true);
    assert.equal(lessonPlace(LESSON, frame(["0: 6-6"])).off, false);
    const later = lessonPlace(LESSON, frame(["0: 6-6"], { hand: 2 }));
    assert.equal(later.off, false);
    assert.equal(later.over, true); // the lesson was the first hand
    assert.equal(later.step, null);
  });
  it("knows the end of the hand", () => {
    const place = lessonPlace(LESSON, frame(["0: 6-6"], { end: "batida", winner: 0 }));
    assert.equal(place.over, true);
    assert.equal(place.myTurn, false);
  });
});
