import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { NetworkConfig, RunResult } from "@pagepath/results";
import { mismatchOf, regimeResults, findRegime } from "@pagepath/cli/dist/src/reproduction/modified-stack-results.js";
import { modifiedStackVerdicts, writeModifiedStackReport } from "@pagepath/cli/dist/src/reproduction/modified-stack-report.js";
import { LADDER, modifiedStackPlans } from "@pagepath/cli/dist/src/reproduction/modified-stack-plans.js";
import { validatePlan } from "@pagepath/results";
import { samplePlan, sampleRun } from "./results-fixture.js";
import { tempDir } from "./fixture-profile.js";

/** Two paths, the second at 5x the RTT (rtt) or 1/5 of the rate (bandwidth). */
function twoPaths(mbit: number, rttMs: number, mismatch: "rtt" | "bandwidth"): NetworkConfig {
  const path = (m: number, r: number) => ({ upMbps: m, downMbps: m, rttMs: r, loss: 0, queue: { discipline: "droptail" as const, packets: 64 } });
  const second = mismatch === "rtt" ? path(mbit, rttMs * 5) : path(mbit / 5, rttMs);
  return { name: `${mbit}M-${rttMs}ms-${mismatch}`, paths: [path(mbit, rttMs), second] };
}

const SITES = Array.from({ length: 10 }, (_, i) => `site-${i}`);
const plan = samplePlan("modified-stack-test", { sites: SITES.map((name) => ({ name, graph: `graphs/${name}.json` })), networks: [twoPaths(50, 100, "rtt"), twoPaths(10, 40, "bandwidth")], runs: 2 });

/** TEST INPUT: a run of `site` on `network` whose load is `loadMs`. */
function run(site: string, network: string, r: number, loadMs: number): RunResult {
  return sampleRun(plan, { site, network, protocol: "h2", transport: "tcp", serverModel: "out-of-order", priority: "none", run: r }, loadMs);
}

/** Every site and replication on one network, each site's load given by `load(site index)`. */
function runsOn(network: string, load: (i: number) => number): RunResult[] {
  return SITES.flatMap((s, i) => [0, 1].map((r) => run(s, network, r, load(i) + r)));
}

describe("reproduce modified-stack (seed 001 §6.5)", () => {
  it("plans one valid plan per step the client can run, the single-path references first", () => {
    const sites = [{ name: "a", graph: "graphs/a.json" }];
    const sim = modifiedStackPlans({ client: "simulated", sites, runs: 1, grid: { rateMbit: [50], rttMs: [100] }, mismatches: ["rtt", "bandwidth"] });
    const real = modifiedStackPlans({ client: "emulated", sites, runs: 1, grid: { rateMbit: [50], rttMs: [100] }, mismatches: ["rtt"] });
    assert.deepEqual(sim.slice(0, 2).map((p) => p.step.name), ["tcp", "quic"]);
    assert.ok(sim.some((p) => p.plan.congestion === "lia"), "the simulator couples the baseline's subflows");
    assert.ok(real.every((p) => p.plan.congestion !== "lia"), "the kernel's MPTCP has no LIA");
    assert.ok(real.length < sim.length, "a simulator-only step is not planned for real replays");
    for (const { plan: p } of [...sim, ...real]) assert.deepEqual(validatePlan(p, p.name), []);
    const stream = sim.find((p) => p.step.name === "mpquic-stream")!.plan;
    assert.equal(stream.preemption, true);
    assert.deepEqual(stream.scheduler, { mpquic: { name: "stream-scheduler", options: { preemption: "on" } } });
  });

  it("tells the mismatches apart and computes Table 6.1's columns and Fig 6.22's share against single-path TCP", () => {
    assert.equal(mismatchOf(run("site-0", "50M-100ms-rtt", 0, 1)), "rtt");
    assert.equal(mismatchOf(run("site-0", "10M-40ms-bandwidth", 0, 1)), "bandwidth");
    const tcp = runsOn("50M-100ms-rtt", () => 1000);
    // Six sites of ten 100 ms slower with the baseline, four the same; the modified stack 50 ms faster everywhere.
    const steps = [
      { step: "mptcp-h2-rtt", runs: runsOn("50M-100ms-rtt", (i) => (i < 6 ? 1100 : 1000)) },
      { step: "mpquic-rtt", runs: runsOn("50M-100ms-rtt", () => 1000) },
      { step: "mpquic-rtt-preempt", runs: runsOn("50M-100ms-rtt", () => 980) },
      { step: "mpquic-stream", runs: runsOn("50M-100ms-rtt", () => 950) },
    ];
    const regimes = regimeResults(tcp, steps);
    const r = findRegime(regimes, "rtt", 50, 100)!;
    const [base, , , mod] = r.steps;
    assert.equal(base!.pairs, 20);
    assert.equal(base!.equalOrBetterPercent, 40);
    assert.equal(mod!.equalOrBetterPercent, 100);
    assert.equal(mod!.meanMs, 50);
    assert.equal(mod!.improvementPercent!.toFixed(6), ((100 * 50 * 20) / (1000.5 * 20)).toFixed(6));
    assert.equal(base!.meanMs, -60);
    const verdicts = modifiedStackVerdicts(regimes);
    const by = (start: string) => verdicts.find((v) => v.claim.startsWith(start))!;
    assert.equal(by("36% of sites").verdict, "holds", by("36% of sites").figures);
    assert.match(by("36% of sites").figures, /40\.0% against 100\.0% of 10 sites/);
    assert.equal(by("63.9%").verdict, "holds");
    assert.equal(by("Table 6.1 at 50").verdict, "holds", by("Table 6.1 at 50").figures);
    assert.equal(by("At 50 Mbit/s").verdict, "holds", by("At 50 Mbit/s").figures);
    assert.equal(by("Table 6.1 at 10").verdict, "not measured", "that grid point has no runs");
    assert.equal(by("Table 6.2").verdict, "not measured");
  });

  it("reports each site's run-to-run spread (Fig 6.5's measure) against the 20 ms margin, and none for single runs", () => {
    const tcp = runsOn("50M-100ms-rtt", () => 1000);
    // The baseline's two runs of each site 30 ms apart, the modified stack's 1 ms, TCP's 1 ms.
    const spread = (i: number) => [0, 1].map((r) => run(SITES[i]!, "50M-100ms-rtt", r, 1100 + 30 * r));
    const steps = [
      { step: "mptcp-h2-rtt", runs: SITES.flatMap((_, i) => spread(i)) },
      { step: "mpquic-stream", runs: runsOn("50M-100ms-rtt", () => 950) },
    ];
    const regimes = regimeResults(tcp, steps);
    const [base, mod] = findRegime(regimes, "rtt", 50, 100)!.steps;
    assert.equal(base!.siteRunSdMs.length, 10);
    for (const sd of base!.siteRunSdMs) assert.ok(Math.abs(sd - 30 / Math.SQRT2) < 1e-9, `${sd}`);
    for (const sd of [...mod!.siteRunSdMs, ...mod!.tcpSiteRunSdMs]) assert.ok(Math.abs(sd - 1 / Math.SQRT2) < 1e-9, `${sd}`);
    const out = tempDir("modified-stack-report");
    try {
      const steps5 = LADDER.filter((s) => steps.some((x) => x.step === s.name));
      const readme = readFileSync(writeModifiedStackReport(out, { regimes, overQuic: [], steps: steps5, sites: 10 }, "a test", "test"), "utf8");
      assert.match(readme, /## Run-to-run spread/);
      // TCP 0.7 ms, none over 20 ms; the baseline 21 ms, every site over; the modified stack 0.7 ms.
      assert.match(readme, /\| rtt \| 50 Mbit\/s \| 100 ms \| 2 \| 1 \/ 1 \| 0\.0% \| 21 \/ 21 \| 100\.0% \| 1 \/ 1 \| 0\.0% \|/);
      assert.match(readFileSync(join(out, "modified-stack", "run-to-run-rtt-50mbit-100ms.svg"), "utf8"), /<svg[^]*<path d="M/);
      const once = regimeResults(tcp.filter((r) => r.run === 0), steps.map((s) => ({ step: s.step, runs: s.runs.filter((r) => r.run === 0) })));
      assert.doesNotMatch(readFileSync(writeModifiedStackReport(join(out, "once"), { regimes: once, overQuic: [], steps: steps5, sites: 10 }, "a test", "test"), "utf8"), /Run-to-run/);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it("finds the thesis's figures do not hold when the modified stack is the slower one", () => {
    const tcp = runsOn("50M-100ms-rtt", () => 1000);
    const steps = [
      { step: "mptcp-h2-rtt", runs: runsOn("50M-100ms-rtt", () => 990) },
      { step: "mpquic-rtt", runs: runsOn("50M-100ms-rtt", () => 1000) },
      { step: "mpquic-rtt-preempt", runs: runsOn("50M-100ms-rtt", () => 1000) },
      { step: "mpquic-stream", runs: runsOn("50M-100ms-rtt", (i) => 1200 + i) },
    ];
    const verdicts = modifiedStackVerdicts(regimeResults(tcp, steps));
    for (const claim of ["36% of sites", "63.9%", "Table 6.1 at 50", "At 50 Mbit/s"]) {
      const v = verdicts.find((x) => x.claim.startsWith(claim))!;
      assert.equal(v.verdict, "does not hold", `${claim}: ${v.figures}`);
    }
  });
});
