/**
 * `pagepath analyze` over TEST INPUTS: experiments whose load times come from a formula plus chosen
 * per-site differences, so the test knows every reduction, share and aggregation benefit.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { tempDir } from "@pagepath/temp-dirs";
import { analyzeExperiment, familyKey, familyLabel, readExperiment, runsCsv, type CellKey, type ExperimentPlan, type NetworkConfig, type RunResult } from "@pagepath/results";
import { runCli } from "./cli-run.js";
import { network, samplePlan, sampleRun, writeExperiment } from "./results-fixture.js";

const near = (a: number | null | undefined, b: number, what: string) => assert.ok(a != null && Math.abs(a - b) < 1e-9, `${what}: ${a}, expected ${b}`);

const sweep = samplePlan("sweep");
const SITES = ["alpha", "beta", "gamma"];
/** h2's load minus h1's, per network and site; null: h2 never ran there. */
const H2_DELTA: Record<string, (number | null)[]> = {
  "1M-20ms": [-100, -200, -300],
  "1M-100ms": [-50, 15, null],
  "10M-20ms": [25, 0, -10],
  "10M-100ms": [30, 40, 50],
};
const ERROR_WITH_QUOTES = 'TEST INPUT: stalled, waiting for "app.js"\nand its image';

function h1Load(c: CellKey): number {
  const path = sweep.networks.find((n) => n.name === c.network)!.paths[0]!;
  return 8000 / path.downMbps! + 10 * path.rttMs + 100 * SITES.indexOf(c.site) + 7 * c.run;
}

/** Every cell, but h2 never ran gamma on 1M-100ms, and h1's run 2 of gamma on 10M-20ms failed. */
function sweepRuns(): RunResult[] {
  const runs: RunResult[] = [];
  for (const protocol of ["h1", "h2"] as const)
    for (const net of sweep.networks)
      for (const site of SITES)
        for (let run = 0; run < sweep.runs; run++) {
          const cell: CellKey = { site, network: net.name, protocol, transport: "tcp", serverModel: "out-of-order", priority: "none", run };
          const delta = H2_DELTA[net.name]![SITES.indexOf(site)]!;
          if (protocol === "h2" && delta === null) continue;
          const failed = protocol === "h1" && net.name === "10M-20ms" && site === "gamma" && run === 2;
          const r = sampleRun(sweep, cell, failed ? null : h1Load(cell) + (protocol === "h2" ? delta : 0));
          runs.push(failed ? { ...r, error: ERROR_WITH_QUOTES } : r);
        }
  return runs;
}

describe("analysis of an experiment", () => {
  const analysis = analyzeExperiment({ plan: sweep, runs: sweepRuns(), warnings: [] });
  const comparison = analysis.comparisons[0]!;
  const point = (bw: number, rtt: number) => comparison.points.find((p) => p.point.bandwidthMbps === bw && p.point.rttMs === rtt)!;

  it("compares the two configurations of the family, the first in plan order as the baseline", () => {
    assert.equal(analysis.comparisons.length, 1);
    assert.equal(comparison.baseline, "h1/tcp · out-of-order · none · 1 path");
    assert.equal(comparison.candidate, "h2/tcp · out-of-order · none · 1 path");
    assert.equal(comparison.id, "h2-vs-h1-1-path");
    assert.deepEqual(comparison.points.map((p) => `${p.point.bandwidthMbps}/${p.point.rttMs}`), ["1/20", "1/100", "10/20", "10/100"]);
  });

  it("reduction, mean difference and equal-or-better come from the per-site means", () => {
    // h1 means at 1 Mbit/s, 20 ms: 8207, 8307, 8407; h2 saves 100, 200, 300.
    const a = point(1, 20);
    assert.equal(a.pairedSites, 3);
    near(a.reductionPercent, (100 * 600) / 24921, "reduction at 1M/20ms");
    near(a.meanDifferenceMs, 200, "mean difference at 1M/20ms");
    near(a.equalOrBetterPercent, 100, "equal or better at 1M/20ms");
    // beta is 15 ms slower with h2: within the 20 ms margin, so still "equal or better".
    const b = point(1, 100);
    near(b.reductionPercent, (100 * (9007 + 9107 - 8957 - 9122)) / (9007 + 9107), "reduction at 1M/100ms");
    near(b.equalOrBetterPercent, 100, "equal or better at 1M/100ms");
    // alpha 25 ms slower (beyond the margin), beta the same, gamma faster against h1's two ok runs.
    const c = point(10, 20);
    assert.deepEqual(c.differences.map((d) => [d.site, d.differenceMs]), [["alpha", -25], ["beta", 0], ["gamma", 1203.5 - 1197]]);
    near(c.equalOrBetterPercent, 200 / 3, "equal or better at 10M/20ms");
    near(c.reductionPercent, (100 * (3317.5 - 3336)) / 3317.5, "reduction at 10M/20ms");
    near(point(10, 100).equalOrBetterPercent, 0, "equal or better at 10M/100ms");
    near(comparison.overall.equalOrBetterPercent, (100 * (3 + 2 + 2 + 0)) / 11, "equal or better over all pairs");
  });

  it("a site measured under one configuration only is left out of its point and named", () => {
    assert.deepEqual(point(1, 100).unpairedSites, ["gamma"]);
    assert.deepEqual(point(1, 100).differences.map((d) => d.site), ["alpha", "beta"]);
    assert.deepEqual(point(1, 20).unpairedSites, []);
  });

  it("significance: Wilcoxon over sites, ANOVA over the paired sites' runs", () => {
    const a = point(1, 20);
    assert.equal(a.wilcoxon!.statistic, 6);
    near(a.wilcoxon!.pValue, 0.18144920772142048, "Wilcoxon p at 1M/20ms (scipy's approximation)");
    near(a.anova!.f, 47.534165181224004, "F at 1M/20ms");
    assert.ok(Math.abs(a.anova!.pValue - 3.6073718828498182e-6) < 1e-12, `ANOVA p ${a.anova!.pValue}`);
    near(point(10, 20).anova!.pValue, 0.6299269236910074, "ANOVA p at 10M/20ms, with the failed run left out");
  });

  it("per configuration and network: runs, failures and the statistics of the ok ones", () => {
    const h1 = analysis.configurations.find((c) => c.protocol === "h1")!;
    const cell = h1.byNetwork.find((s) => s.network === "10M-20ms")!;
    assert.deepEqual([cell.runs, cell.ok, cell.failed, cell.incomplete, cell.measured], [9, 8, 1, 0, 8]);
    const loads = [1000, 1007, 1014, 1100, 1107, 1114, 1200, 1207];
    near(cell.meanMs, loads.reduce((a, b) => a + b, 0) / 8, "mean");
    near(cell.medianMs, (1100 + 1107) / 2, "median");
    near(cell.sdMs, Math.sqrt(loads.reduce((s, v) => s + (v - 1093.625) ** 2, 0) / 7), "sample sd");
    assert.deepEqual(analysis.runs, { planned: 72, done: 69, ok: 68, failed: 1, incomplete: 0 });
  });

  it("another metric is measured when asked for", () => {
    const dcl = analyzeExperiment({ plan: sweep, runs: sweepRuns(), warnings: [] }, { metric: "dcl" });
    // The fixture's DOMContentLoaded is half the load time.
    near(dcl.comparisons[0]!.points[0]!.meanDifferenceMs, 100, "mean DCL difference at 1M/20ms");
  });

  it("the CSV has a row per run that counts, RFC 4180 quoting and empty fields for null", () => {
    const lines = runsCsv(analysis.rows).split("\r\n");
    assert.equal(
      lines[0],
      "experiment,site,network,family,path0DownMbps,path0UpMbps,path0RttMs,path0Loss,path0QueuePackets,paths,protocol,transport,scheduler,congestion,tailLossProbes,connectionsPerOrigin,serverModel,priority,run,seed,status,domContentLoadedMs,loadMs,graphCompleteMs,firstContentfulPaintMs,largestContentfulPaintMs,bytesDown,error",
    );
    assert.equal(lines[1], "sweep,alpha,1M-20ms,1 path,1,0.5,20,0,64,1,h1,tcp,,,true,6,out-of-order,none,0,1000,ok,4100,8200,8201,,,5000,");
    const text = runsCsv(analysis.rows);
    assert.ok(text.includes(`sweep,gamma,10M-20ms,1 path,10,5,20,0,64,1,h1,tcp,,,true,6,out-of-order,none,2,1002,failed,,,,,,5000,"TEST INPUT: stalled, waiting for ""app.js""\nand its image"\r\n`), "the failed run's row");
    assert.equal(text.split("\r\n").length, 1 + 69 + 1, "a header, 69 rows (a line break inside a field is LF, not CRLF) and nothing after the last CRLF");
  });

  it("bad selectors name themselves and list the configurations", () => {
    const x = { plan: sweep, runs: sweepRuns(), warnings: [] };
    assert.throws(() => analyzeExperiment(x, { baseline: "protocol=h3" }), /--baseline "protocol=h3" matches no configuration\nthe configurations.*\n  h1\/tcp · out-of-order · none · 1 path\n  h2\/tcp/);
    assert.throws(() => analyzeExperiment(x, { baseline: "proto=h1" }), /--baseline "proto=h1": unknown key "proto" \(keys: protocol, transport, scheduler, congestion, tailLossProbes, serverModel, priority, family\)/);
    assert.throws(() => analyzeExperiment(x, { baseline: "protocol" }), /"protocol" is not key=value/);
    assert.throws(() => analyzeExperiment(x, { candidates: ["protocol=h2"] }), /--candidate needs --baseline/);
    assert.throws(() => analyzeExperiment(x, { baseline: "protocol=h1", candidates: ["protocol=h1"] }), /--candidate "protocol=h1" matches only baseline configurations/);
    const four = { ...x, plan: { ...sweep, priorities: ["none", "critical-path"] } satisfies ExperimentPlan };
    assert.throws(() => analyzeExperiment(four), /4 configurations in 1 family, not two per family: say which to compare with --baseline[^]*h2\/tcp · out-of-order · critical-path · 1 path/);
    const chosen = analyzeExperiment(four, { baseline: "protocol=h1,priority=none", candidates: ["protocol=h2"] });
    assert.deepEqual(chosen.comparisons.map((c) => c.candidate), ["h2/tcp · out-of-order · none · 1 path", "h2/tcp · out-of-order · critical-path · 1 path"]);
    assert.equal(new Set(chosen.comparisons.map((c) => c.id)).size, 2, "comparison ids are unique");
  });
});

/**
 * A fast path (10 Mbit/s) and a slow one (5 Mbit/s) in both orders, so that single-path TCP has run
 * over each; and a pair with no swapped twin, where the benefit cannot apply.
 */
const FAST = network(10, 20).paths[0]!;
const SLOW = network(5, 20).paths[0]!;
const FAR = network(10, 100).paths[0]!;
const NETWORKS: NetworkConfig[] = [
  { name: "fast-first", paths: [FAST, SLOW] },
  { name: "slow-first", paths: [SLOW, FAST] },
  { name: "far-second", paths: [FAST, FAR] },
];
const multi = samplePlan("multi", { sites: [{ name: "alpha", graph: "graphs/alpha.json" }, { name: "beta", graph: "graphs/beta.json" }], networks: NETWORKS, protocols: ["h2"], transports: ["tcp", "mptcp"], runs: 1, connectionsPerOrigin: { h2: 1 } });
/** Every run downloads 5000 bytes per path, 10000 in all: goodput 10000 B / load time. */
const MULTI_LOADS: Record<string, Record<string, number>> = {
  "tcp fast-first": { alpha: 100, beta: 100 },
  "tcp slow-first": { alpha: 200, beta: 200 },
  "mptcp fast-first": { alpha: 80, beta: 60 },
  "mptcp slow-first": { alpha: 125, beta: 100 },
  "tcp far-second": { alpha: 100, beta: 100 },
  "mptcp far-second": { alpha: 90, beta: 90 },
};

function multiRuns(): RunResult[] {
  return Object.entries(MULTI_LOADS).flatMap(([key, loads]) => {
    const [transport, net] = key.split(" ") as ["tcp" | "mptcp", string];
    return Object.entries(loads).map(([site, load]) => sampleRun(multi, { site, network: net, protocol: "h2", transport, serverModel: "out-of-order", priority: "none", run: 0 }, load));
  });
}

describe("experimental aggregation benefit", () => {
  const analysis = analyzeExperiment({ plan: multi, runs: multiRuns(), warnings: [] });
  const eab = analysis.aggregationBenefit;

  it("is computed from single-path runs over each path, found on the network with that path first", () => {
    const fastFirst = eab.results.find((r) => r.network === "fast-first")!;
    assert.deepEqual(fastFirst.singlePathNetworks, [["fast-first"], ["slow-first"]]);
    assert.equal(fastFirst.bytesFrom, "paths");
    // Goodputs in Mbit/s: TCP 0.8 on the fast path, 0.4 on the slow; MPTCP 1.0 (alpha) and 4/3 (beta).
    const [alpha, beta] = fastFirst.sites;
    near(alpha!.multipathGoodputMbps, 1, "alpha's MPTCP goodput");
    assert.deepEqual(alpha!.singlePathGoodputMbps, [0.8, 0.4]);
    near(alpha!.eab, (1 - 0.8) / (1.2 - 0.8), "alpha: above the best path");
    near(beta!.eab, (4 / 3 - 0.8) / 0.4, "beta: more than the sum of the paths");
    near(fastFirst.meanEab, (0.5 + 4 / 3) / 2, "mean EAB");
    const slowFirst = eab.results.find((r) => r.network === "slow-first")!;
    near(slowFirst.sites[0]!.eab, (0.64 - 0.8) / 0.8, "alpha over slow-first: below the best path");
    near(slowFirst.sites[1]!.eab, 0, "beta over slow-first: exactly the best path");
  });

  it("is not applicable where no network has a path first, and says why", () => {
    assert.equal(eab.results.length, 2);
    assert.deepEqual(eab.notApplicable, [
      { multipath: "h2/mptcp default · out-of-order · none · 2 paths rtt×5", network: "far-second", reason: "no network of the plan has path 2 (10 Mbit/s, 100 ms) first, so tcp never ran over it alone" },
    ]);
    const single = analyzeExperiment({ plan: sweep, runs: [], warnings: [] }).aggregationBenefit;
    assert.deepEqual(single.results, []);
    assert.match(single.note!, /no configuration uses a multipath transport/);
  });

  it("families name the path layouts, and selectors pick among them", () => {
    assert.deepEqual(analysis.comparisons.map((c) => c.id), ["mptcp-default-vs-tcp-2-paths-bwx0.5", "mptcp-default-vs-tcp-2-paths-bwx2", "mptcp-default-vs-tcp-2-paths-rttx5"]);
    const x = { plan: multi, runs: multiRuns(), warnings: [] };
    const one = analyzeExperiment(x, { baseline: "transport=tcp", candidates: ["transport=mptcp,family=2 paths bwx0.5"] });
    assert.deepEqual(one.comparisons.map((c) => [c.baseline, c.candidate]), [["h2/tcp · out-of-order · none · 2 paths bw×0.5", "h2/mptcp default · out-of-order · none · 2 paths bw×0.5"]]);
    assert.throws(() => analyzeExperiment(x, { baseline: "family=2 paths bw×0.5", candidates: ["transport=tcp,family=2 paths bw×2"] }), /--baseline "family=2 paths bw×0.5" matches 2 configurations for candidate h2\/tcp · out-of-order · none · 2 paths bw×2/);
    assert.throws(() => analyzeExperiment(x, { baseline: "protocol=h2" }), /matches every configuration/);
  });
});

describe("network families", () => {
  it("labels say only what differs from one lossless drop-tail path and equal further paths", () => {
    const base = network(10, 20).paths[0]!;
    const lossy = { ...base, loss: 0.01, queue: { discipline: "red" as const, packets: 64 } };
    assert.equal(familyLabel({ name: "a", paths: [base] }), "1 path");
    assert.equal(familyLabel({ name: "b", paths: [lossy] }), "1 path loss 1% red");
    assert.equal(familyLabel({ name: "c", paths: [base, { ...base, rttMs: 100, loss: null }] }), "2 paths rtt×5 p2 loss ?");
    assert.equal(familyLabel({ name: "d", paths: [base, base, { ...base, downMbps: 2 }] }), "3 paths p3 bw×0.2");
    // The viewer's grouping: further paths relative to the first, in full.
    assert.equal(familyKey({ name: "c", paths: [base, { ...base, rttMs: 100 }] }), "2 paths, loss 0, droptail; path 2: 1x bandwidth, 5x RTT, loss 0, droptail");
  });
});

describe("pagepath analyze", () => {
  const dir = tempDir("analyze");
  const files = writeExperiment(dir, sweep, sweepRuns());

  it("writes the summary, the JSON, the CSV and the plots, and says where", async () => {
    const r = await runCli(["analyze", files.plan], 60_000);
    assert.equal(r.code, 0, r.stderr);
    const out = join(dir, "sweep.analysis");
    assert.match(r.stdout, new RegExp(`wrote 6 files to ${out}`));
    for (const f of ["summary.md", "analysis.json", "runs.csv", "h2-vs-h1-1-path-reduction.svg", "h2-vs-h1-1-path-equal-or-better.svg", "h2-vs-h1-1-path-cdf.svg"]) assert.ok(existsSync(join(out, f)), f);
    const json = JSON.parse(readFileSync(join(out, "analysis.json"), "utf8")) as { kind: string; comparisons: { points: { reductionPercent: number }[] }[] };
    assert.equal(json.kind, "pagepath-analysis");
    near(json.comparisons[0]!.points[0]!.reductionPercent, (100 * 600) / 24921, "reduction in analysis.json");
    const summary = readFileSync(join(out, "summary.md"), "utf8");
    assert.match(summary, /\| 1 Mbit\/s \| 20 \| 3 \| 8307\.0 \| 8107\.0 \| 2\.4% \| 200\.0 \| 100\.0% \| 0\.181 \| <0\.001 \|/);
    const heatmap = readFileSync(join(out, "h2-vs-h1-1-path-reduction.svg"), "utf8");
    assert.equal(heatmap.match(/class="cell"/g)?.length, 4, "a cell per grid point");
    assert.ok(heatmap.includes(">2.4%</text>") && heatmap.includes(">-0.6%</text>"), "each cell's value");
    // Well-formed XML, as a browser or an editor would need it.
    for (const svg of ["reduction", "equal-or-better", "cdf"]) execFileSync("python3", ["-c", "import sys, xml.etree.ElementTree as ET; ET.parse(sys.argv[1])", join(out, `h2-vs-h1-1-path-${svg}.svg`)]);
  });

  it("analyses every plan of a folder into --out, and says so of one without runs", async () => {
    const folder = tempDir("analyze-folder");
    writeExperiment(folder, sweep, sweepRuns());
    writeFileSync(join(folder, "empty.plan.json"), JSON.stringify({ ...sweep, name: "empty" }));
    const out = join(folder, "reports");
    const r = await runCli(["analyze", folder, "--out", out, "--metric", "dcl", "--baseline", "protocol=h1"], 60_000);
    assert.equal(r.code, 1, "an experiment without runs is reported");
    assert.match(r.stdout, /empty\.plan\.json: no finished runs yet/);
    assert.ok(existsSync(join(out, "sweep.analysis", "summary.md")));
    assert.match(readFileSync(join(out, "sweep.analysis", "summary.md"), "utf8"), /metric: DOMContentLoaded time/);
  });

  it("finds the results where experiment wrote them: from the plan, the output folder, or a folder above", async () => {
    // `pagepath experiment plans/sweep.plan.json` (default --out) writes the resolved plan and the
    // runs to plans/sweep/, a folder named after the plan beside it.
    const plans = join(tempDir("analyze-experiment-out"), "plans");
    const results = join(plans, "sweep");
    mkdirSync(results, { recursive: true });
    writeFileSync(join(plans, "sweep.plan.json"), JSON.stringify(sweep, null, 2));
    writeExperiment(results, sweep, sweepRuns());
    const analysis = join(results, "sweep.analysis");
    for (const target of [join(plans, "sweep.plan.json"), results, plans]) {
      rmSync(analysis, { recursive: true, force: true });
      const r = await runCli(["analyze", target], 60_000);
      assert.equal(r.code, 0, `analyze ${target}: ${r.stdout}${r.stderr}`);
      assert.match(r.stdout, /^sweep: 69 of 72 runs \(68 ok\)/, `analyze ${target}`);
      assert.equal(r.stdout.match(/wrote 6 files to/g)?.length, 1, `analyze ${target} analyses the experiment once: ${r.stdout}`);
      assert.ok(existsSync(join(analysis, "summary.md")), `analyze ${target} writes beside the runs, in ${analysis}`);
    }
  });

  it("bad input is one line naming the file", async () => {
    const missing = await runCli(["analyze", join(dir, "nope.plan.json")], 60_000);
    assert.equal(missing.code, 2);
    assert.equal(missing.stderr, `pagepath analyze: ${join(dir, "nope.plan.json")}: no such file\n`);
    const bad = tempDir("analyze-bad");
    const broken = writeExperiment(bad, sweep, sweepRuns().slice(0, 2));
    writeFileSync(broken.runs, readFileSync(broken.runs, "utf8") + "{not json\n");
    const r = await runCli(["analyze", broken.plan], 60_000);
    assert.equal(r.code, 2);
    assert.equal(r.stderr.split("\n").length, 2, r.stderr);
    assert.match(r.stderr, new RegExp(`^pagepath analyze: ${broken.runs}: not valid results of experiment sweep: .*line 3: not valid JSON`));
    const notPlan = join(bad, "graph.json");
    writeFileSync(notPlan, "{}");
    assert.match((await runCli(["analyze", notPlan], 60_000)).stderr, /graph\.json: not an experiment plan \(its name must end in \.plan\.json\)/);
    const selector = await runCli(["analyze", files.plan, "--baseline", "transport=quic"], 60_000);
    assert.match(selector.stderr, /--baseline "transport=quic" matches no configuration\nthe configurations[^\n]*\n  h1\/tcp · out-of-order · none · 1 path\n/);
  });

  it("reads what it writes: the experiment on disk analyses as the one in memory", () => {
    const fromDisk = analyzeExperiment(readExperiment(files.plan));
    assert.deepEqual(fromDisk.comparisons, analyzeExperiment({ plan: sweep, runs: sweepRuns(), warnings: [] }).comparisons);
  });
});
