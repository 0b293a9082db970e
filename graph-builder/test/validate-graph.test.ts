import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { tempDir } from "@pagepath/temp-dirs";
import { RULES, type Graph } from "../src/graph.js";
import { readGraphFile, validateGraph } from "../src/validate-graph.js";

// The vectors and schema are read from the package, not copied into dist/.
const pkg = fileURLToPath(new URL("../../", import.meta.url));
const vectors = join(pkg, "test-vectors");
const jsonFiles = (dir: string) => readdirSync(join(vectors, dir)).filter((f) => f.endsWith(".json")).sort();
const load = (path: string): unknown => JSON.parse(readFileSync(path, "utf8"));

describe("graph test vectors", () => {
  for (const name of jsonFiles("valid")) {
    it(`accepts valid/${name}`, () => {
      const path = join(vectors, "valid", name);
      assert.deepEqual(validateGraph(load(path), path), []);
      assert.equal(readGraphFile(path).kind, "pagepath-graph");
    });
  }

  for (const name of jsonFiles("invalid")) {
    it(`rejects invalid/${name}`, () => {
      const path = join(vectors, "invalid", name);
      const expected = readFileSync(path.replace(/\.json$/, ".expect.txt"), "utf8").trim();
      const problems = validateGraph(load(path), path);
      assert.ok(problems.length > 0, "no problem found");
      for (const p of problems) assert.ok(p.startsWith(`${path}: /`), `does not name the file and place: ${p}`);
      assert.ok(problems.some((p) => p.includes(expected)), `no problem mentions ${expected}:\n${problems.join("\n")}`);
      assert.throws(() => readGraphFile(path), (e: Error) => e.message.includes(expected) && e.message.startsWith(path));
    });
  }

  it("every invalid vector says what its message must contain", () => {
    const expects = readdirSync(join(vectors, "invalid")).filter((f) => f.endsWith(".expect.txt"));
    assert.deepEqual(expects.map((f) => f.replace(/\.expect\.txt$/, ".json")).sort(), jsonFiles("invalid"));
  });
});

describe("graph validation", () => {
  const dir = tempDir("graph");
  const minimal = () => load(join(vectors, "valid", "minimal.json")) as Graph;

  it("names a truncated file", () => {
    const path = join(dir, "truncated.json");
    const text = JSON.stringify(minimal());
    writeFileSync(path, text.slice(0, text.length / 2));
    assert.throws(() => readGraphFile(path), (e: Error) => e.message.startsWith(`${path}: not valid JSON`) && /truncated or corrupt/.test(e.message));
  });

  it("names a missing file", () => {
    const path = join(dir, "absent.json");
    assert.throws(() => readGraphFile(path), (e: Error) => e.message.startsWith(`${path}: `));
  });

  it("stops listing after 50 problems", () => {
    const g = minimal();
    for (let i = 0; i < 60; i++) g.edges.push({ from: "d0", to: `gone${i}`, rule: "R1", how: "observed" });
    const problems = validateGraph(g, "many.json");
    assert.equal(problems.length, 51);
    assert.equal(problems[50], "many.json: ... and 10 more problems");
  });

  it("knows exactly the rules graph.ts names", () => {
    const schema = load(join(pkg, "..", "formats", "schema", "graph.schema.json")) as { $defs: { edge: { properties: { rule: { enum: string[] } } } } };
    assert.deepEqual(schema.$defs.edge.properties.rule.enum, Object.keys(RULES));
  });
});
