import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { readExperiment } from "@pagepath/results";
import { SCENARIO_CLASSES, scenarioNetworks, scenarios } from "@pagepath/cli/dist/src/reproduction/mpquic-vs-mptcp-scenarios.js";
import { cellKey, FILE_BYTES, type CellResult } from "@pagepath/cli/dist/src/reproduction/mpquic-vs-mptcp-runs.js";
import { classResults, verdicts } from "@pagepath/cli/dist/src/reproduction/mpquic-vs-mptcp-report.js";
import { runCli } from "./cli-run.js";
import { tempDir } from "./fixture-profile.js";

/** Seed 003 §5.2.3 rerun: a 20 MB download over WSP-drawn pairs of paths, TCP and QUIC, single path and multipath. */
describe("reproduce mpquic-vs-mptcp", () => {
  const work = tempDir("mpquic-vs-mptcp");
  after(() => process.env.KEEP ? undefined : rmSync(work, { recursive: true, force: true }));

  it("draws each class's scenarios from Table 5.1's ranges, each path on its own, the same for the same seed", () => {
    for (const c of SCENARIO_CLASSES) {
      const drawn = scenarios(c, 12);
      assert.equal(drawn.length, 12);
      assert.deepEqual(scenarios(c, 12), drawn, "seeded");
      assert.notDeepEqual(scenarios(c, 12, 2), drawn, "another seed, another design");
      for (const s of drawn) {
        s.paths.forEach((p, i) => {
          assert.ok(p.downMbps! >= c.rateMbit[0] && p.downMbps! <= c.rateMbit[1] && p.upMbps === p.downMbps, `${s.name} rate ${p.downMbps}`);
          assert.ok(p.rttMs >= c.rttMs[0] && p.rttMs <= c.rttMs[1], `${s.name} RTT ${p.rttMs}`);
          assert.ok(p.loss! >= c.loss[0] && p.loss! <= c.loss[1], `${s.name} loss ${p.loss}`);
          // The buffer holds the drawn queuing delay at the path's rate.
          const packets = (p.downMbps! * 1e6 * (s.queuingDelayMs[i]! / 1000)) / 12000;
          assert.ok(Math.abs(p.queue!.packets - Math.max(4, packets)) <= 1, `${s.name} queue ${p.queue!.packets} for ${s.queuingDelayMs[i]} ms`);
        });
      }
      // The two paths are drawn apart, not one from the other.
      assert.ok(drawn.some((s) => s.paths[0].downMbps !== s.paths[1].downMbps && s.paths[0].rttMs !== s.paths[1].rttMs));
      if (c.loss[1] === 0) assert.ok(drawn.every((s) => s.paths.every((p) => p.loss === 0)));
      else assert.ok(drawn.some((s) => s.paths.some((p) => p.loss! > 0.01)), "losses up to 2.5% are drawn");
      const [a, b] = scenarioNetworks(drawn[0]!);
      assert.deepEqual(a.paths, [...b.paths].reverse(), "each path first in turn");
    }
    const high = scenarios(SCENARIO_CLASSES.find((c) => c.name === "high-bdp-no-loss")!, 30);
    assert.ok(high.some((s) => s.paths.some((p) => p.rttMs > 200)), "high-BDP RTTs reach past the low class's 50 ms");
  });

  it("computes ratios and aggregation benefits per experiment and checks the seed's claims against them", () => {
    const c = SCENARIO_CLASSES.find((x) => x.name === "high-bdp-no-loss")!;
    const all = scenarios(c, 6);
    const ms = (mbps: number) => (FILE_BYTES * 8) / (mbps * 1000);
    // Path 1 alone 10 Mbit/s, path 2 alone 5 Mbit/s for both TCP and QUIC; MPTCP gets 15 (the sum,
    // EABen 1) and multipath QUIC 18 (past the sum) on every network.
    const cells = new Map<string, CellResult>();
    for (const s of all) {
      const set = (network: string, transport: "tcp" | "mptcp" | "quic" | "mpquic", mbps: number) => cells.set(cellKey(network, transport), { ms: ms(mbps), firstPathShare: 0.5 });
      for (const t of ["tcp", "quic"] as const) set(`${s.name}-a`, t, 10), set(`${s.name}-b`, t, 5);
      for (const n of ["a", "b"]) set(`${s.name}-${n}`, "mptcp", 15), set(`${s.name}-${n}`, "mpquic", 18);
    }
    cells.delete(cellKey(`${all[5]!.name}-b`, "mpquic"));
    const r = classResults(all, cells).find((x) => x.className === c.name)!;
    assert.deepEqual(r.incomplete, [all[5]!.name], "a scenario with a missing cell is left out and named");
    assert.equal(r.experiments.length, 10);
    for (const e of r.experiments) {
      assert.ok(Math.abs(e.eab.mptcp - 1) < 1e-9, `EABen of the sum is 1: ${e.eab.mptcp}`);
      assert.ok(Math.abs(e.eab.mpquic - 1.6) < 1e-9, `(18 - 10) / 5 = 1.6: ${e.eab.mpquic}`);
      assert.ok(Math.abs(e.ratio - 1.2) < 1e-9);
    }
    assert.deepEqual(r.experiments.map((e) => e.bestFirst.mptcp), [true, false, true, false, true, false, true, false, true, false], "path 1 (10 Mbit/s) is the best; -a opens on it");
    const v = verdicts(classResults(all, cells));
    const fast = v.find((x) => x.claim.startsWith("High-BDP"))!;
    assert.equal(fast.verdict, "holds", fast.figures);
    assert.match(fast.figures, /faster in 100\.0% of 10, median ratio 1\.200/);
    assert.ok(v.filter((x) => !x.claim.startsWith("High-BDP")).every((x) => x.verdict === "not measured"), "classes without experiments are not measured");
  });

  it("runs the plan in miniature, one scenario a class, simulated, and writes the report with a verdict per claim", async () => {
    const out = join(work, "report");
    const r = await runCli(["reproduce", "--only", "mpquic-vs-mptcp", "--client", "simulated", "--scenarios", "1", "--work", work, "--out", out], 300_000);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const runs = readExperiment(join(work, "results", "mpquic-vs-mptcp", "mpquic-vs-mptcp.plan.json")).runs;
    assert.equal(runs.length, 4 * 2 * 4, "four classes x two networks x four stacks");
    for (const run of runs) {
      assert.equal(run.status, "ok", `${run.configuration.network.name} ${run.configuration.transport}: ${run.error}`);
      const down = run.paths.reduce((s, p) => s + p.bytesDown!, 0);
      assert.ok(down >= FILE_BYTES, `${run.configuration.network.name} ${run.configuration.transport} carried ${down} bytes`);
      const multipath = run.configuration.transport === "mptcp" || run.configuration.transport === "mpquic";
      assert.equal(run.paths[1]!.bytesDown! > 1_000_000, multipath, `${run.configuration.transport} over the second path: ${run.paths[1]!.bytesDown}`);
    }
    const report = readFileSync(join(out, "mpquic-vs-mptcp", "README.md"), "utf8");
    for (const c of SCENARIO_CLASSES) assert.match(report, new RegExp(`\\| ${c.name} \\| 1 \\(0\\) \\| 2 \\| \\d\\.\\d{3} \\| \\d\\.\\d{3} \\|`), `a row for ${c.name}`);
    assert.equal(report.match(/\| (holds|holds in part|holds in direction|does not hold|no significant difference) \|/g)?.length, 4, report);
    for (const c of SCENARIO_CLASSES) for (const plot of ["ratio", "eaben"]) assert.match(readFileSync(join(out, "mpquic-vs-mptcp", `${c.name}-${plot}.svg`), "utf8"), /<svg[^]*<path d="M/);
  });
});
