// The table in sentences (capicua/web/static/js/views/table/announcer.js) under Node's test runner: what a
// screen reader hears after each event, in pt-BR, es and en, and the answers to the keys that ask (the ends,
// the counts, my tiles, the score); the tiles' spoken names. Run by tests/web/test_client_modules.py.
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";

globalThis.localStorage = { getItem: () => null, setItem: () => {}, removeItem: () => {} };
globalThis.document = { documentElement: {} };
const { setLanguage } = await import("../../../capicua/web/static/js/i18n.js");
const { tileName } = await import("../../../capicua/web/static/js/tiles.js");
const { announcements, countsText, endsText, opening, scoreText, tilesText } = await import("../../../capicua/web/static/js/views/table/announcer.js");

const SEATS = ["Tucano", "Boto", "Arara", "Jaraqui"].map((name, k) => ({ name, bot: k ? "greedy" : null, away: false, empty: false }));

// An Amazonense table as seat 0 (Tucano, partner of Arara) sees it.
function state({ history = ["2: 6-6"], turn = 3, arms = { W: [], E: [], N: [], S: [] }, ends = { W: 6, E: 6 }, count = 12,
  scores = [], counts = [7, 7, 6, 7], tiles = ["2-0", "3-0", "4-4", "5-3", "5-4", "5-5", "6-0"], legal = [], end = null,
  totals = [0, 0], hand = 1, outcome = null, boneyard = 0 } = {}) {
  return {
    table: { id: "t1", variant: "amazonense", players: 4, options: { target: 200 }, seats: SEATS, status: "playing" },
    seat: 0,
    hand: { hand, partnerships: true, calls: ["announce", "galo", "keep", "redeal"], table_count: true, seat: 0, tiles, counts, boneyard,
      layout: { shape: "spinner", spinner: "6-6", arms, ends, count }, turn, history, scores, points: [0, 0], end, legal,
      revealed: null, outcome, public: { last: null } },
    totals, winner: null, hands: [],
  };
}
const act = (action, extra = {}) => ({ kind: "action", seat: Number(action[0]), action, timeout: false, ...extra });

describe("the announcer", () => {
  afterEach(() => setLanguage("pt-BR"));

  it("says a play with its end and what the table count scored, in the page's language", () => {
    const before = state();
    const after = state({ history: ["2: 6-6", "3: 6-4 E"], turn: 0, arms: { W: [], E: ["6-4"], N: [], S: [] }, ends: { W: 6, E: 4 },
      count: 10, counts: [7, 7, 6, 6] });
    const scored = state({ history: ["2: 6-6", "3: 6-4 E", "0: 6-0 W"], turn: 1, arms: { W: ["6-0"], E: ["6-4"], N: [], S: [] },
      ends: { W: 0, E: 4, N: 6, S: 6 }, count: 15, counts: [6, 7, 6, 6], tiles: ["2-0", "3-0", "4-4", "5-3", "5-4", "5-5"],
      scores: [{ action: 3, seat: 0, kind: "table", points: 15, to: 0 }] });
    assert.deepEqual(announcements(act("3: 6-4 E"), before, after), ["Jaraqui jogou seis e quatro na ponta leste", "Sua vez"]);
    assert.deepEqual(announcements(act("0: 6-0 W"), after, scored), ["Tucano jogou seis e branco na ponta oeste, pontas 15: mais 15 para Nós"]);
    setLanguage("es");
    assert.deepEqual(announcements(act("0: 6-0 W"), after, scored), ["Tucano jugó seis y blanco en la punta oeste, puntas 15: más 15 para Nosotros"]);
    setLanguage("en");
    assert.deepEqual(announcements(act("0: 6-0 W"), after, scored), ["Tucano played six-blank at the west end, count 15: plus 15 for Us"]);
  });

  it("says the lead, a pass with the 20 it gives, a galo call, and the end of a hand with the score", () => {
    assert.deepEqual(announcements({ kind: "deal", hand: 1 }, null, state({ history: [], turn: 2 })), ["Mão 1"]);
    assert.deepEqual(announcements(act("2: 6-6"), state({ history: [], turn: 2, ends: {}, count: 0 }), state()),
      ["Arara saiu com carroça de seis"]);
    const passed = state({ history: ["2: 6-6", "3: pass"], turn: 0, scores: [{ action: 2, seat: 3, kind: "pass", points: 20, to: 0 }] });
    assert.deepEqual(announcements(act("3: pass", { auto: true }), state(), passed),
      ["Jaraqui passou (sem jogo), passe: mais 20 para Nós", "Sua vez"]);
    assert.deepEqual(announcements(act("0: galo"), passed, state({ history: ["2: 6-6", "3: pass", "0: galo"], turn: 0 })).slice(0, 1),
      ["Tucano: galo!"]);
    const over = state({ history: ["2: 6-6", "3: 6-4 E"], end: "batida", turn: 3, totals: [35, 20],
      scores: [{ action: 2, seat: 3, kind: "batida", points: 20, to: 1 }], outcome: { termination: "batida", winner: 1, seat: 3 } });
    assert.deepEqual(announcements(act("3: 6-4 E"), state(), over),
      ["Jaraqui jogou seis e quatro na ponta leste, batida: mais 20 para Eles", "Jaraqui bateu. Placar: Nós 35, Eles 20"]);
  });

  it("offers galo after my own play while its window is open (A5), and only then", () => {
    const before = state({ history: ["2: 6-6", "3: 6-4 E"], turn: 0, arms: { W: [], E: ["6-4"], N: [], S: [] }, ends: { W: 6, E: 4 },
      count: 10, counts: [7, 7, 6, 6], legal: ["6-0 W", "6-0 N"] });
    const played = (legal, history = ["2: 6-6", "3: 6-4 E", "0: 6-0 W"]) => state({ history, turn: 1,
      arms: { W: ["6-0"], E: ["6-4"], N: [], S: [] }, ends: { W: 0, E: 4, N: 6, S: 6 }, count: 16, counts: [6, 7, 6, 6],
      tiles: ["2-0", "3-0", "4-4", "5-3", "5-4", "5-5"], legal });
    assert.deepEqual(announcements(act("0: 6-0 W"), before, played(["galo"])),
      ["Tucano jogou seis e branco na ponta oeste", "Pode cantar galo: tecla g"]);
    setLanguage("es");
    assert.equal(announcements(act("0: 6-0 W"), before, played(["galo"]))[1], "Puedes cantar galo: tecla g");
    setLanguage("en");
    assert.equal(announcements(act("0: 6-0 W"), before, played(["galo"]))[1], "You may call galo: press g");
    setLanguage("pt-BR");
    // called with the play, or the window already closed: nothing offered
    assert.deepEqual(announcements(act("0: 6-0 W galo"), before, played([], ["2: 6-6", "3: 6-4 E", "0: 6-0 W galo"])),
      ["Tucano jogou seis e branco na ponta oeste, galo!"]);
    assert.deepEqual(announcements(act("0: 6-0 W"), before, played([])), ["Tucano jogou seis e branco na ponta oeste"]);
    // another seat's play never offers me galo
    assert.deepEqual(announcements(act("3: 6-4 E"), state(), before), ["Jaraqui jogou seis e quatro na ponta leste", "Sua vez"]);
  });

  it("says the hand and whose turn it is when the table opens, nothing once the hand is over", () => {
    assert.deepEqual(opening(state()), ["Mão 1. Vez de Jaraqui"]);
    assert.deepEqual(opening(state({ turn: 0 })), ["Mão 1. Sua vez"]);
    assert.deepEqual(opening(state({ end: "batida" })), []);
    setLanguage("en");
    assert.deepEqual(opening(state()), ["Hand 1. Jaraqui's turn"]);
  });

  it("says a referee's decision in words, once, among the moves", () => {
    const text = 'ref(Juiz): fine 1 20 "sinal ao parceiro"';
    const after = state({ history: ["2: 6-6", text] });
    const said = announcements({ kind: "action", seat: null, action: text, timeout: false }, state(), after);
    assert.equal(said.length, 1);
    assert.match(said[0], /^Árbitro Juiz: multa de 20 a Boto — sinal ao parceiro/);
  });

  it("names the tile I drew, and never one another seat drew", () => {
    const before = state({ turn: 0, boneyard: 5 });
    const mine = state({ history: ["2: 6-6", "0: draw"], turn: 0, boneyard: 4, tiles: [...before.hand.tiles, "1-1"] });
    assert.deepEqual(announcements(act("0: draw"), before, mine).slice(0, 1), ["Tucano comprou carroça de um"]);
    const theirs = state({ history: ["2: 6-6", "1: draw"], turn: 1, boneyard: 4 });
    assert.deepEqual(announcements(act("1: draw"), before, theirs), ["Boto comprou do morto"]);
  });

  it("answers the keys: the ends (a double at its end said), the counts from my seat, my tiles, the score", () => {
    const f = state({ arms: { W: ["6-0"], E: ["6-4", "4-4"], N: ["6-3"], S: [] }, ends: { W: 0, E: 4, N: 3, S: 6 }, count: 21,
      counts: [5, 6, 4, 7], turn: 0, legal: ["5-3 N", "4-4 W"], totals: [35, 20] });
    assert.equal(endsText(f), "Pontas: oeste 0, leste 4 (carroça), norte 3, sul 6; soma 21");
    assert.equal(countsText(f), "Pedras na mão: Tucano 5, Boto 6, Arara 4, Jaraqui 7");
    assert.match(tilesText(f), /^Suas pedras \(7 pedras\): dois e branco, três e branco, carroça de quatro \(dá para jogar\), cinco e três \(dá para jogar\)/);
    assert.equal(scoreText(f), "Placar: Nós 35, Eles 20");
    assert.equal(endsText(state({ ends: {}, count: 0 })), "Nenhuma pedra na mesa ainda");
    setLanguage("es");
    assert.equal(endsText(f), "Puntas: oeste 0, este 4 (doble), norte 3, sur 6; suma 21");
  });

  it("gives each of the 28 tiles a name of its own, the higher half first, in each language", () => {
    const all = [];
    for (let a = 0; a <= 6; a++) for (let b = 0; b <= a; b++) all.push([a, b]);
    for (const [lang, double, other] of [["pt-BR", "carroça de seis", "seis e quatro"], ["es", "doble seis", "seis y cuatro"],
      ["en", "double six", "six-four"]]) {
      setLanguage(lang);
      assert.equal(tileName("6-6"), double);
      assert.equal(tileName("4-6"), other);
      assert.equal(tileName("6-4"), other);
      const names = new Set(all.map(([a, b]) => tileName(`${a}-${b}`)));
      assert.equal(names.size, 28);
      for (const name of names) assert.doesNotMatch(name, /\d/);
    }
  });
});
