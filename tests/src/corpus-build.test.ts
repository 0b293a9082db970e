import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { readGraphFile } from "@pagepath/graph-builder";
import { readBody, readRecording } from "@pagepath/profiler";
import { runCli } from "./cli-run.js";
import { tempDir } from "./fixture-profile.js";

describe("pagepath corpus build and list", () => {
  it("builds a fixture page and a generated site into recordings and valid graphs, skips them on a rerun, and lists them", async () => {
    const data = join(tempDir("corpus"), "data");
    const args = ["--data", data, "--generated", "1", "--only", "rules-thesis-example", "--only", "gen-pagepath-1", "--quiet-ms", "1500"];
    const r = await runCli(["corpus", "build", ...args]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /2 built, 0 already there, 0 failed/);
    for (const name of ["rules-thesis-example", "gen-pagepath-1"]) {
      const g = readGraphFile(join(data, "graphs", `${name}.json`));
      assert.equal(g.criticalPath.nodes.at(-1), g.frames.find((f) => f.id === g.mainFrame)!.load, `${name}: critical path ends at load`);
      const rec = readRecording(join(data, "recordings", name));
      for (const e of rec.archive) {
        if (!e.body) continue;
        assert.equal(readBody(join(data, "recordings", name), e.body.sha256).length, e.body.size, `${name}: archived body of ${e.url} is complete`);
      }
    }
    const again = await runCli(["corpus", "build", ...args]);
    assert.match(again.stdout, /0 built, 2 already there/);
    const list = await runCli(["corpus", "list", "--data", data, "--generated", "1"]);
    assert.match(list.stdout, /rules-thesis-example\s+fixture\s+complete/);
    assert.match(list.stdout, /gen-pagepath-1\s+generated\s+complete\s+\d+/);
    assert.match(list.stdout, /rules-timers\s+fixture\s+-/);
    const bad = await runCli(["corpus", "build", "--data", data, "--only", "no-such-site"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--only no-such-site: no such corpus site/);
  });
});
