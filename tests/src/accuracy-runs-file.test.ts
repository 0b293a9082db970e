/** The accuracy sweep's runs file after a crash: a torn last line is skipped with a warning and cut off before the next run goes in. */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { appendRun, finishedRuns } from "@pagepath/runner";
import { tempDir } from "./fixture-profile.js";
import { samplePlan, sampleRun } from "./results-fixture.js";

describe("the accuracy sweep's runs file", () => {
  const plan = samplePlan("accuracy-runs");
  const run = (site: string, loadMs: number) => sampleRun(plan, { site, network: plan.networks[0]!.name, protocol: "h2", transport: "tcp", serverModel: "out-of-order", priority: "none", run: 0 }, loadMs);

  it("resumes past a line a crash left half-written, warning once, and appends whole lines after it", () => {
    const out = tempDir("accuracy-runs");
    const file = join(out, "runs.jsonl");
    const whole = JSON.stringify(run(plan.sites[0]!.name, 500));
    writeFileSync(file, `${whole}\n${JSON.stringify(run(plan.sites[1]!.name, 600)).slice(0, 120)}`);
    const warnings: string[] = [];
    const done = finishedRuns(out, (m) => warnings.push(m));
    assert.equal(done.size, 1);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /runs\.jsonl: line 2 is incomplete .* skipped, so its run is done again/);
    finishedRuns(out, (m) => warnings.push(m));
    assert.equal(warnings.length, 1, "one warning a file");
    appendRun(file, run(plan.sites[1]!.name, 600));
    const lines = readFileSync(file, "utf8").split("\n");
    assert.equal(lines.pop(), "", "ends in a newline");
    assert.equal(lines.length, 2);
    for (const l of lines) JSON.parse(l);
    assert.equal(finishedRuns(out, (m) => warnings.push(m)).size, 2);
  });

  it("names the file and line of a bad line that is not the last", () => {
    const out = tempDir("accuracy-runs-bad");
    writeFileSync(join(out, "runs.jsonl"), `{"broken\n${JSON.stringify(run(plan.sites[0]!.name, 500))}\n`);
    assert.throws(() => finishedRuns(out, () => {}), /runs\.jsonl: line 1: not JSON/);
  });
});
