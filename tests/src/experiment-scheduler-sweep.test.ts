/**
 * A real plan with two multipath QUIC schedulers as a factor: the emulated browser over two emulated
 * paths runs one cell per scheduler, each runs line carries its own scheduler, and the analysis keeps
 * the two apart as two configurations.
 */
import assert from "node:assert/strict";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { RunResult } from "@pagepath/results";
import { runCli } from "./cli-run.js";
import { samplePlan } from "./results-fixture.js";
import { tempDir } from "./fixture-profile.js";
import { recordFixtureGraph } from "./fixture-graph.js";

describe("pagepath experiment with a scheduler factor", { skip: process.getuid?.() !== 0 ? "needs root (network namespaces)" : false }, () => {
  const work = tempDir("scheduler-sweep");
  before(async () => {
    await recordFixtureGraph(work, "fixture.json");
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it("runs a cell per scheduler, records each line's scheduler, and analyses them as two configurations", async () => {
    const plan = samplePlan("sched", {
      description: "two multipath QUIC schedulers over two paths",
      runs: 1,
      sites: [{ name: "fixture", graph: "fixture.json" }],
      networks: [],
      grid: { rateMbit: [20], rttMs: [20] },
      topologies: [{ paths: 2 }],
      protocols: ["h3"],
      transports: ["mpquic"],
      connectionsPerOrigin: { h3: 1 },
      scheduler: { mpquic: [{ name: "round-robin" }, { name: "ecf", options: { form: "cwnd", beta: "1" } }] },
      timeoutMs: 30_000,
    });
    const file = join(work, "sched.plan.json");
    writeFileSync(file, JSON.stringify(plan));
    const r = await runCli(["experiment", file, "--workers", "1"], 120_000);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stderr, /\[round-robin\]/, "the progress lines name the scheduler");
    assert.match(r.stderr, /\[ecf beta=1 form=cwnd\]/);
    const runs = readFileSync(join(work, "sched", "sched.runs.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as RunResult);
    assert.equal(runs.length, 2);
    assert.deepEqual(runs.map((x) => x.status), ["ok", "ok"], runs.map((x) => x.error).join("\n"));
    assert.deepEqual(runs.map((x) => x.configuration.scheduler), [{ name: "round-robin", options: {} }, { name: "ecf", options: { form: "cwnd", beta: "1" } }]);

    const out = join(work, "analysis");
    const a = await runCli(["analyze", join(work, "sched", "sched.plan.json"), "--out", out]);
    assert.equal(a.code, 0, a.stdout + a.stderr);
    const analysis = JSON.parse(readFileSync(join(out, "analysis.json"), "utf8")) as { configurations: { label: string }[]; comparisons: { id: string }[] };
    assert.deepEqual(analysis.configurations.map((c) => c.label), ["h3/mpquic round-robin · out-of-order · none · 2 paths", "h3/mpquic ecf beta=1 form=cwnd · out-of-order · none · 2 paths"]);
    assert.deepEqual(analysis.comparisons.map((c) => c.id), ["ecf-beta-1-form-cwnd-vs-round-robin-2-paths"]);
  });
});
