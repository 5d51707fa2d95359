// What a score that a rule costs a player says (capicua/web/static/js/costs.js) under Node's test runner: the
// player who gave it away, the points, and the side that got them seen from my seat (issue 22, item 14: not
// "+20 passe · Zé" under the side that scored, but "Zé passou: +20 para Eles"), with its rule's section.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

globalThis.localStorage = { getItem: () => null, setItem: () => {} };
globalThis.document = { documentElement: {} };
const { costText, isCost, rulesHref, COSTS } = await import("../../../capicua/web/static/js/costs.js");
const { setLanguage } = await import("../../../capicua/web/static/js/i18n.js");

// Me (Ana) at seat 0 with Caio; Zé and Bia against us.
const people = { names: ["Ana", "Zé", "Caio", "Bia"], partnerships: true, me: 0 };
const pass = { action: 9, seat: 1, kind: "pass", points: 20, to: 0 };

describe("a score a rule costs", () => {
  it("names who gave it and, from my seat, the side that got it", () => {
    setLanguage("pt-BR");
    assert.equal(costText(pass, people), "Zé passou: +20 para Nós");
    assert.equal(costText({ ...pass, seat: 2, to: 1 }, people), "Caio passou: +20 para Eles");
    setLanguage("es");
    assert.equal(costText({ ...pass, seat: 2, to: 1 }, people), "Caio pasó: +20 para Ellos");
    assert.equal(costText({ action: 3, seat: 3, kind: "galo-wrong", points: 50, to: 0 }, people),
      "Bia cantó un galo errado: +50 para Nosotros");
    assert.equal(costText({ ...pass, seat: 0, to: 1 }, people), "Pasaste: +20 para Ellos"); // mine
    setLanguage("en");
    assert.equal(costText({ action: 4, seat: null, kind: "fine", points: 20, to: 1 }, people), "The referee's fine: +20 for Them");
  });

  it("a spectator reads the sides' names", () => {
    setLanguage("pt-BR");
    assert.equal(costText(pass, { ...people, me: null }), "Zé passou: +20 para Ana & Caio");
  });

  it("only the kinds a rule costs, each with its section of the rules page", () => {
    assert.ok(isCost(pass));
    assert.ok(!isCost({ ...pass, kind: "table" }) && !isCost({ ...pass, kind: "galo" }));
    assert.equal(rulesHref("amazonense", COSTS.pass), "#/rules/amazonense/passe");
    assert.equal(rulesHref("dominousa", COSTS.fine), "#/rules/dominousa/multas");
  });
});
