// Every module of the browser client links: each name it imports is exported by the module it names (a
// merge that drops an export fails here, not only in a browser). Node links a module before it runs it, so a
// missing export is a SyntaxError; what a module does when it runs (it may need the page's document) is not
// this test's business.
import assert from "node:assert/strict";
import { readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";

const JS = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "capicua", "web", "static", "js");

function modules(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? modules(path) : name.endsWith(".js") ? [path] : [];
  });
}

describe("the client's modules", () => {
  const all = modules(JS);
  it("are found", () => assert.ok(all.length > 30, all.length));
  for (const path of all) {
    it(`${path.slice(JS.length + 1)} links`, async () => {
      try {
        await import(pathToFileURL(path).href);
      } catch (err) {
        if (err instanceof SyntaxError) throw err; // a name imported that its module does not export, or bad syntax
      }
    });
  }
});
