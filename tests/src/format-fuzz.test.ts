/**
 * pagepath's own formats fed what a disk may hold (property-based, fast-check): a valid graph, plan,
 * recording, recipe and run result with one value anywhere in them replaced by any JSON or removed, and any JSON at
 * all. The validators must answer with problems that each name the file, never throw, and never
 * pass a JavaScript slip off as a problem.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import fc from "fast-check";
import { validateGraph } from "@pagepath/graph-builder";
import { validatePlan, validateRunResult } from "@pagepath/results";
import { checkedRecipe } from "@pagepath/corpus";
import { importHar, readRecording, writeRecording } from "@pagepath/profiler";
import { tempDir } from "./fixture-profile.js";
import { changed, type Json } from "./json-mutation.js";
import { samplePlan, sampleRun } from "./results-fixture.js";

const RUNS = { numRuns: 400, seed: 24 };
const SLIP = /Cannot read|Cannot convert|is not a function|is not iterable|TypeError|RangeError/;

/** A valid document with one change anywhere, or any JSON at all. */
const around = (base: Json) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.tuple(fc.nat(), fc.option(fc.jsonValue() as fc.Arbitrary<Json>, { nil: undefined })).map(([pick, value]) => changed(base, pick, value)) },
    { weight: 1, arbitrary: fc.jsonValue() as fc.Arbitrary<Json> },
  );

/** Problems that each name `file` and say something a user can act on; nothing thrown. */
function answersWithProblems(validate: (v: unknown, file: string) => string[], file: string) {
  return (doc: Json) => {
    const problems = validate(doc, file);
    assert.ok(Array.isArray(problems));
    for (const p of problems) {
      assert.ok(p.startsWith(`${file}: `), `a problem that does not name the file: ${p}`);
      assert.doesNotMatch(p, SLIP, `a slip reported as a problem: ${p}`);
    }
  };
}

describe("pagepath's formats, fuzzed", { timeout: 120_000 }, () => {
  it("a graph changed anywhere is valid or has problems naming the file", () => {
    const graph = JSON.parse(readFileSync("graph-builder/test-vectors/valid/two-frames.json", "utf8")) as Json;
    assert.deepEqual(validateGraph(structuredClone(graph), "g.json"), [], "the base is valid");
    fc.assert(fc.property(around(graph), answersWithProblems(validateGraph, "g.json")), RUNS);
  });

  it("an experiment plan changed anywhere is valid or has problems naming the file", () => {
    const plan = JSON.parse(readFileSync("examples/plans/h2.plan.json", "utf8")) as Json;
    assert.deepEqual(validatePlan(structuredClone(plan), "p.plan.json"), [], "the base is valid");
    fc.assert(fc.property(around(plan), answersWithProblems(validatePlan, "p.plan.json")), RUNS);
  });

  it("a realistic site's recipe changed anywhere is read, or refused naming the file and the field", () => {
    const recipe = JSON.parse(readFileSync("corpus/realistic/dygraphs/recipe.json", "utf8")) as Json;
    checkedRecipe(structuredClone(recipe), "recipe.json");
    fc.assert(
      fc.property(around(recipe), (doc) => {
        try {
          checkedRecipe(doc, "recipe.json");
        } catch (e) {
          assert.ok((e as Error).message.startsWith("recipe.json: "), `not naming the file: ${(e as Error).message}`);
          assert.doesNotMatch((e as Error).message, SLIP, `a slip: ${(e as Error).message}`);
        }
      }),
      RUNS,
    );
  });

  it("a recording whose manifest or archive is changed anywhere is read, or refused naming the file", () => {
    const dir = join(tempDir("recording-fuzz"), "r");
    const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms).toISOString();
    const entry = (url: string, ms: number, mimeType: string, text: string) => ({
      startedDateTime: at(ms), time: 50, request: { method: "GET", url, headers: [] },
      response: { status: 200, headers: [{ name: "Content-Type", value: mimeType }], content: { size: text.length, mimeType, text } },
      timings: { connect: 10, ssl: 5, send: 1, wait: 20, receive: 5 },
    });
    const har = { log: { entries: [entry("https://www.fuzz.test/", 0, "text/html", '<link rel=stylesheet href="/a.css"><img src="/b.png">'), entry("https://www.fuzz.test/a.css", 60, "text/css", "p{}"), entry("https://www.fuzz.test/b.png", 61, "image/png", "")] } };
    writeRecording(dir, importHar(har, "fuzz.har").recording);
    const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as Json;
    const archive = JSON.parse(readFileSync(join(dir, "archive.json"), "utf8")) as Json;
    readRecording(dir);
    const readOrRefused = (file: "manifest.json" | "archive.json") => (doc: Json) => {
      writeFileSync(join(dir, file), JSON.stringify(doc));
      try {
        readRecording(dir);
      } catch (e) {
        assert.ok((e as Error).message.startsWith(dir), `not naming the recording: ${(e as Error).message}`);
        assert.doesNotMatch((e as Error).message, SLIP, `a slip: ${(e as Error).message}`);
      }
    };
    fc.assert(fc.property(around(manifest), readOrRefused("manifest.json")), { ...RUNS, numRuns: 200 });
    writeFileSync(join(dir, "manifest.json"), JSON.stringify(manifest));
    fc.assert(fc.property(around(archive), readOrRefused("archive.json")), { ...RUNS, numRuns: 200 });
  });

  it("a run result changed anywhere is valid or has problems naming the file", () => {
    const plan = samplePlan("fuzz");
    const run = JSON.parse(JSON.stringify(sampleRun(plan, { site: plan.sites[0]!.name, network: plan.networks[0]!.name, protocol: "h2", transport: "tcp", serverModel: "out-of-order", priority: "none", run: 0 } as never, 812))) as Json;
    assert.deepEqual(validateRunResult(structuredClone(run), "r.json"), [], "the base is valid");
    fc.assert(fc.property(around(run), answersWithProblems(validateRunResult, "r.json")), RUNS);
  });
});
