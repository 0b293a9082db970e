import assert from "node:assert/strict";
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { recordPage, writeRecording } from "@pagepath/profiler";
import type { RunningSite } from "@pagepath/corpus";
import { runCli } from "./cli-run.js";
import { optionsFor, startFixture, tempDir } from "./fixture-profile.js";
import { samplePlan, sampleRun } from "./results-fixture.js";

/** The verbs whose --out takes "-" write to standard output, and leave no file named "-" behind. */
describe("-o - is standard output", () => {
  const root = tempDir("stdout-dash");
  const recording = join(root, "recording");
  const graphs = join(root, "graphs");
  let site: RunningSite;
  before(async () => {
    site = await startFixture();
    writeRecording(recording, (await recordPage(site.config.entry, optionsFor(site))).recording);
    const built = await runCli(["build", recording, "-o", graphs]);
    assert.equal(built.code, 0, built.stdout + built.stderr);
  });
  after(async () => {
    await site?.close();
    rmSync(root, { recursive: true, force: true });
  });

  const cases: Array<[string, () => string[], (stdout: string) => void]> = [
    ["har", () => ["har", recording], (out) => assert.equal(JSON.parse(out).log.version, "1.2")],
    ["dot", () => ["dot", join(graphs, "recording.json")], (out) => assert.match(out, /^digraph /)],
    [
      "trace",
      () => {
        const plan = samplePlan("dash");
        const run = join(root, "run.json");
        writeFileSync(run, JSON.stringify(sampleRun(plan, { site: "alpha", network: plan.networks[0]!.name, protocol: "h1", transport: "tcp", serverModel: "out-of-order", priority: "none", run: 0 }, 100)));
        return ["trace", run];
      },
      (out) => assert.ok(Array.isArray(JSON.parse(out).traceEvents)),
    ],
  ];
  for (const [verb, args, check] of cases) {
    it(`${verb} -o -`, async () => {
      const before = readdirSync(process.cwd());
      const r = await runCli([...args(), "-o", "-"]);
      assert.equal(r.code, 0, r.stderr);
      check(r.stdout);
      assert.deepEqual(readdirSync(process.cwd()), before, `no file named - in ${process.cwd()}`);
    });
  }
});
