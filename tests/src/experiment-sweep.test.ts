import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { cellId, cellOf, planCells, readExperiment, readPlanFile, type ExperimentPlan, type RunResult } from "@pagepath/results";
import { cellTopologyName, workerTagBase } from "@pagepath/runner";
import { CLI, runCli } from "./cli-run.js";
import { samplePlan } from "./results-fixture.js";
import { tempDir } from "./fixture-profile.js";

const SITE = "rules-thesis-example";
const NET_STATE = "/run/pagepath/net";
const NET = join(process.cwd(), "replay", "target", "release", "pagepath-net");
let dir = "";

function writePlan(name: string, over: Partial<ExperimentPlan> = {}): string {
  const file = join(dir, `${name}.plan.json`);
  const plan = samplePlan(name, {
    description: "sweep test",
    baseSeed: 5,
    runs: 2,
    sites: [{ name: SITE, graph: `data/graphs/${SITE}.json` }],
    networks: [],
    grid: { rateMbit: [5, 20], rttMs: [20] },
    timeoutMs: 30_000,
    ...over,
  });
  writeFileSync(file, JSON.stringify(plan));
  return file;
}

const lines = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : []);
/**
 * Topologies a sweep left up: their state files, named from the sweep's tags (sweepTags). The last
 * counters (.stats.json) stay after `down` by design.
 */
const sweepTopologies = (pid: number) => (existsSync(NET_STATE) ? readdirSync(NET_STATE).filter((f) => f.startsWith(cellTopologyName(workerTagBase("", pid))) && !f.endsWith(".stats.json")) : []);

describe("pagepath experiment: a local sweep", () => {
  before(async () => {
    dir = tempDir("experiment-sweep");
    const r = await runCli(["corpus", "build", "--data", join(dir, "data"), "--only", SITE, "--quiet-ms", "1500"], 5 * 60_000);
    assert.equal(r.code, 0, r.stdout + r.stderr);
  });

  it("refuses a plan larger than the time budget before running anything, and a dry run runs nothing", async () => {
    const file = writePlan("big", { runs: 50 });
    const r = await runCli(["experiment", file, "--time-budget", "1m"]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /the plan's 200 runs would take about \d+ min with 1 worker, more than --time-budget 1m/);
    const dry = await runCli(["experiment", file, "--dry-run", "--workers", "2"]);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stderr, /200 runs; 200 to go, about .* with 2 workers/);
    assert.deepEqual(lines(join(dir, "big", "big.runs.jsonl")), [], "nothing ran");
  });

  it("--workers defaults to half this machine's CPUs, at least 1, as its help says", async () => {
    const cpus = availableParallelism();
    const workers = Math.max(1, Math.floor(cpus / 2));
    const help = await runCli(["experiment", "--help"]);
    assert.match(help.stdout.replace(/\s+/g, " "), new RegExp(`--workers N .*\\(default: half of this machine's ${cpus} CPUs, at least 1, so ${workers} here;`));
    const dry = await runCli(["experiment", writePlan("default-workers", { runs: 50 }), "--dry-run"]);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stderr, new RegExp(`200 runs; 200 to go, about .* with ${workers} workers?`));
    const few = await runCli(["experiment", writePlan("few-runs", { runs: 1, grid: { rateMbit: [5], rttMs: [20] } }), "--dry-run", "--workers", "4"]);
    assert.match(few.stderr, /= 2 runs; 2 to go, about .* with 2 workers \(/, "never more workers than runs to go, as the help says");
  });

  it("runs every cell exactly once across an interruption (Ctrl-C) and a line cut off by a crash", async () => {
    const file = writePlan("sweep");
    const runsFile = join(dir, "sweep", "sweep.runs.jsonl");
    const child = spawn(process.execPath, [CLI, "experiment", file, "--workers", "2"], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => {
      const poll = setInterval(() => {
        if (lines(runsFile).length >= 2) {
          clearInterval(poll);
          child.kill("SIGINT");
        }
      }, 100);
      child.on("close", (c) => {
        clearInterval(poll);
        resolve(c);
      });
    });
    assert.equal(code, 130, stderr);
    assert.match(stderr, /stopping: the runs under way are dropped/);
    assert.deepEqual(sweepTopologies(child.pid!), [], "Ctrl-C takes the sweep's topologies down");
    const before = lines(runsFile).length;
    assert.ok(before >= 2 && before < 8, `${before} runs recorded before the stop`);
    // What a crash in the middle of a write leaves: half a line, no newline.
    appendFileSync(runsFile, lines(runsFile)[0]!.slice(0, 200));

    const resumed = await runCli(["experiment", file, "--workers", "2"], 5 * 60_000);
    assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
    assert.match(resumed.stderr, new RegExp(`${8 - before} to go`));
    const x = readExperiment(join(dir, "sweep", "sweep.plan.json"));
    assert.deepEqual(x.warnings, [], "the cut line was dropped before appending");
    const ids = lines(runsFile).map((l) => cellId(cellOf(JSON.parse(l) as RunResult)));
    assert.equal(ids.length, 8);
    assert.deepEqual(new Set(ids), new Set(planCells(x.plan).map(cellId)), "every cell has exactly one line");
    assert.ok(x.runs.every((r) => r.status === "ok" && r.metrics.loadMs! > 0 && r.seed === 5 + r.run), "all ok, seeded baseSeed + run");
    // Five megabits take longer than twenty for the same page and protocol.
    const mean = (net: string) => x.runs.filter((r) => r.configuration.network.name === net).reduce((s, r) => s + r.metrics.loadMs!, 0) / 4;
    assert.ok(mean("5M-20ms") > mean("20M-20ms"), `5M ${mean("5M-20ms")} ms vs 20M ${mean("20M-20ms")} ms`);

    const again = await runCli(["experiment", file]);
    assert.equal(again.code, 0);
    assert.match(again.stderr, /every cell has a result already/);
    assert.equal(lines(runsFile).length, 8, "a finished sweep adds nothing");

    // Every format the experiment wrote, and its analysis, is valid by its schema.
    const analysis = await runCli(["analyze", join(dir, "sweep", "sweep.plan.json"), "--out", join(dir, "sweep-analysis")]);
    assert.equal(analysis.code, 0, analysis.stdout + analysis.stderr);
    const written = [join(dir, "sweep", "sweep.plan.json"), runsFile, join(dir, "sweep-analysis", "analysis.json")];
    const validated = await runCli(["validate", ...written]);
    assert.equal(validated.code, 0, validated.stdout + validated.stderr);
    assert.match(validated.stdout, /ok {7}.*analysis\.json: analysis of experiment sweep/);
  });

  it("retries a run that fails once, then records it as failed and reports it", async () => {
    // A trace with no delivery opportunity: the emulator refuses it, so the topology never comes up.
    writeFileSync(join(dir, "empty.trace"), "");
    const file = writePlan("broken", { runs: 1, protocols: ["h2"], connectionsPerOrigin: { h2: 1 }, grid: { rttMs: [20], traces: [{ name: "empty", uplink: "empty.trace", downlink: "empty.trace" }] } });
    const r = await runCli(["experiment", file], 3 * 60_000);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /broken: 1 runs recorded, 1 failed/);
    assert.match(r.stdout, /failed: rules-thesis-example trace-empty-20ms h2\/tcp .*pagepath net up/);
    const [run] = readExperiment(join(dir, "broken", "broken.plan.json")).runs;
    assert.equal(run!.status, "failed");
    assert.match(run!.warnings.join("\n"), /retried once: the first attempt failed/);
    assert.equal(readPlanFile(join(dir, "broken", "broken.plan.json")).networks[0]!.paths[0]!.trace!.uplink, "../empty.trace", "trace paths follow the resolved plan");
  });

  it("pagepath reproduce runs the three reduced thesis experiments and writes the report with its plots", async () => {
    const out = join(dir, "report");
    const args = ["reproduce", "--data", join(dir, "data"), "--sites", SITE, "--rates", "20", "--rtts", "40", "--work", join(dir, "repro"), "--out", out];
    const r = await runCli(args, 5 * 60_000);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const report = readFileSync(join(out, "README.md"), "utf8");
    for (const figure of ["Figs 4.15-4.16", "Fig 6.4", "Fig 6.6"]) assert.ok(report.includes(`| thesis (${figure}) | pagepath | agrees |`), `a findings table for ${figure}`);
    assert.match(report, /\| 20 Mbit\/s \| 40 ms \| 1 \| \d+ ms \| \d+ ms \| -?\d+\.\d% \| (0|100)\.0% \|/, "a row per grid point with both means");
    for (const name of ["h1-vs-h2", "mptcp-equal-paths", "mptcp-rtt-mismatch"]) {
      assert.match(readFileSync(join(out, name, "reduction.svg"), "utf8"), /<svg [^>]*>[^]*Reduction in mean load time/);
      assert.equal(lines(join(out, name, "runs.csv")).length, 1 + 2, `${name}: a CSV header and two runs`);
    }
    // MPTCP opened a subflow over the second path: its packets crossed the emulated path 1.
    const mp = readExperiment(join(dir, "repro", "results", "mptcp-equal-paths", "mptcp-equal-paths.plan.json")).runs.find((x) => x.configuration.transport === "mptcp")!;
    assert.ok(mp.paths[1]!.bytesDown! > 0, JSON.stringify(mp.paths));
  });

  // A failed assertion mid-sweep can leave a sweep's topologies up: only sweeps name them x<tag>.
  after(() => {
    const left = existsSync(NET_STATE) ? readdirSync(NET_STATE).filter((f) => /^x[a-z0-9]+\.json$/.test(f)) : [];
    for (const f of left) spawnSync(NET, ["down", f.slice(0, -5)], { stdio: "ignore" });
  });
});
