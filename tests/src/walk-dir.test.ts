import assert from "node:assert/strict";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { after, describe, it } from "node:test";
import { walkFiles } from "@pagepath/viewer/dist/src/server/walk-dir.js";
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
