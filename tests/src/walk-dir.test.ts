import assert from "node:assert/strict";
import { mkdirSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { after, describe, it } from "node:test";
import { walkFiles } from "@pagepath/viewer/dist/src/server/walk-dir.js";
import { findJsonOfKind } from "@pagepath/viewer/dist/src/server/find-json-kind.js";
import { findExperiments } from "@pagepath/viewer/dist/src/server/find-experiments.js";
import { tempDir } from "./fixture-profile.js";

describe("the viewer's walk of the served folder", () => {
  const root = tempDir("walk-dir");
  after(() => rmSync(root, { recursive: true, force: true }));

  it("skips a recording's response bodies, and only a recording's: a folder named bodies elsewhere is walked", () => {
    const file = (p: string) => {
      mkdirSync(join(root, p, ".."), { recursive: true });
      writeFileSync(join(root, p), "{}");
    };
    file("recordings/a/manifest.json");
    file("recordings/a/bodies/0f3e");
    file("recordings/a/bodies/run.json");
    file("results/bodies/run.json");
    file(".hidden/run.json");
    const seen: string[] = [];
    walkFiles(root, (p) => seen.push(relative(root, p)));
    assert.deepEqual(seen.sort(), ["recordings/a/manifest.json", "results/bodies/run.json"]);
  });
});

describe("the viewer's finders, walked again only when a folder changed", () => {
  const root = tempDir("walk-cache");
  after(() => rmSync(root, { recursive: true, force: true }));
  const run = JSON.stringify({ schemaVersion: 1, kind: "pagepath-run" });
  const put = (p: string, text: string) => {
    mkdirSync(join(root, p, ".."), { recursive: true });
    writeFileSync(join(root, p), text);
  };
  const runs = () => findJsonOfKind(root, "pagepath-run").map((p) => relative(root, p)).sort();

  it("sees a run file added, renamed or removed three folders down, and one written after it was found empty", () => {
    put("a/b/c/one.json", run);
    put("a/other.json", "{}");
    assert.deepEqual(runs(), ["a/b/c/one.json"]);
    assert.deepEqual(runs(), ["a/b/c/one.json"], "the kept walk");
    put("a/b/c/two.json", run);
    assert.deepEqual(runs(), ["a/b/c/one.json", "a/b/c/two.json"]);
    renameSync(join(root, "a/b/c/two.json"), join(root, "a/b/c/three.json"));
    assert.deepEqual(runs(), ["a/b/c/one.json", "a/b/c/three.json"]);
    unlinkSync(join(root, "a/b/c/one.json"));
    assert.deepEqual(runs(), ["a/b/c/three.json"]);
    put("a/b/late.json", "");
    assert.deepEqual(runs(), ["a/b/c/three.json"], "an empty file is no run yet");
    // Written in place: its folder's time does not move, the file's does.
    writeFileSync(join(root, "a/b/late.json"), run);
    assert.deepEqual(runs(), ["a/b/c/three.json", "a/b/late.json"]);
  });

  it("sees a plan added to a folder that already held its runs file", () => {
    put("exp/x.runs.jsonl", "");
    assert.deepEqual(findExperiments(root).orphanRuns.map((p) => relative(root, p)), ["exp/x.runs.jsonl"]);
    put("exp/x.plan.json", "{}");
    const found = findExperiments(root);
    assert.deepEqual([found.plans.map((p) => relative(root, p)), found.orphanRuns], [["exp/x.plan.json"], []]);
  });
});
