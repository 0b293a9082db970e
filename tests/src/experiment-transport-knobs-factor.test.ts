/**
 * The congestion controller and TCP tail loss probes as factors of an experiment plan: one value or an
 * array (a cell per value), validated with file and JSON pointer, checked by pagepath-server before any
 * run; cell keys name only what differs from the defaults (cubic, probes on), so plans and runs from
 * before them keep their ids, and analyses keep the values apart.
 */
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { analyzeExperiment, cellId, cellOf, planCells, plannedRunCount, readExperiment, validatePlan, type CellKey, type ExperimentPlan, type NetworkConfig } from "@pagepath/results";
import { cellConfiguration, describeCell, logName, owedCells, prepareExperiment } from "@pagepath/runner";
import { samplePlan, sampleRun, writeExperiment } from "./results-fixture.js";
import { tempDir } from "./fixture-profile.js";

const onePath: NetworkConfig = { name: "10M-20ms", paths: [{ upMbps: 10, downMbps: 10, rttMs: 20, loss: 0, queue: { discipline: "droptail", packets: 64 } }] };

function plan(over: Record<string, unknown> = {}): ExperimentPlan {
  return {
    ...samplePlan("knobs", {
      runs: 2,
      sites: [{ name: "alpha", graph: "graphs/alpha.json" }],
      networks: [onePath],
      protocols: ["h2", "h3"],
      transports: ["tcp", "quic"],
      connectionsPerOrigin: { h2: 1, h3: 1 },
      congestion: ["cubic", "bbr"],
      tailLossProbes: [true, false],
    }),
    ...over,
  } as ExperimentPlan;
}

const problems = (value: unknown) => validatePlan(structuredClone(value), "knobs.plan.json");

describe("experiment plans: congestion control and tail loss probes as factors", () => {
  it("takes one value or an array, and refuses a value given twice, a wrong type, or probes for a plan without TCP, naming file and pointer", () => {
    assert.deepEqual(problems(plan()), []);
    assert.deepEqual(problems(plan({ congestion: "reno", tailLossProbes: false })), [], "the single forms");
    assert.deepEqual(problems(plan({ congestion: ["bbr", "cubic", "bbr"] })), ['knobs.plan.json: /congestion/2: "bbr" is already given at /congestion/0']);
    assert.deepEqual(problems(plan({ tailLossProbes: [false, false] })), ["knobs.plan.json: /tailLossProbes/1: false is already given at /tailLossProbes/0"]);
    assert.deepEqual(problems(plan({ transports: ["quic"], protocols: ["h3"], connectionsPerOrigin: { h3: 1 } })), [
      "knobs.plan.json: /tailLossProbes: the plan runs no tcp or mptcp (see /transports), and QUIC's probe timeout cannot be switched off, so it would change nothing",
    ]);
    assert.match(problems(plan({ congestion: [] })).join("\n"), /^knobs\.plan\.json: \/congestion: /);
    assert.match(problems(plan({ congestion: ["Reno!"] })).join("\n"), /^knobs\.plan\.json: \/congestion\/0: /);
    assert.match(problems(plan({ tailLossProbes: "off" })).join("\n"), /^knobs\.plan\.json: \/tailLossProbes: /);
  });

  it("makes a cell per controller, and per probe setting over TCP only; keys name only what is not the default", () => {
    const p = plan();
    const cells = planCells(p);
    // Per run: h2/tcp 2 controllers x 2 probe settings, h3/quic 2 controllers x 1.
    assert.equal(cells.length, (2 * 2 + 2 * 1) * 2);
    assert.equal(plannedRunCount(p), cells.length);
    assert.equal(new Set(cells.map(cellId)).size, cells.length);
    const tcp = cells.filter((c) => c.transport === "tcp" && c.run === 0).map((c) => [c.congestion ?? "-", c.tailLossProbes ?? "-"].join(" "));
    assert.deepEqual(tcp, ["- -", "- false", "bbr -", "bbr false"]);
    assert.ok(cells.filter((c) => c.transport === "quic").every((c) => !("tailLossProbes" in c)));
    const plain = plan({ congestion: undefined, tailLossProbes: undefined });
    assert.equal(planCells(plain).length, 2 * 2);
    assert.equal(cellId(planCells(plain)[0]!), JSON.stringify(["alpha", "10M-20ms", "h2", "tcp", "out-of-order", "none", 0]), "ids of a plan without the factors are what they were");
  });

  it("gives each cell what it runs with, explicit, and names the knobs in logs and progress", () => {
    const p = plan();
    const cell: CellKey = { site: "alpha", network: "10M-20ms", protocol: "h2", transport: "tcp", serverModel: "out-of-order", priority: "none", congestion: "bbr", tailLossProbes: false, run: 1 };
    const c = cellConfiguration(p, cell);
    assert.deepEqual([c.congestion, c.tailLossProbes], ["bbr", false]);
    const d = cellConfiguration(p, { ...cell, congestion: undefined, tailLossProbes: undefined });
    assert.deepEqual([d.congestion, d.tailLossProbes], ["cubic", true]);
    const q = cellConfiguration(p, { ...cell, protocol: "h3", transport: "quic", tailLossProbes: undefined });
    assert.deepEqual([q.congestion, q.tailLossProbes], ["bbr", null]);
    assert.equal(logName(cell), "alpha_10M-20ms_h2_tcp_out-of-order_none_cc-bbr_tlp-off_run1");
    assert.equal(logName({ ...cell, congestion: undefined, tailLossProbes: undefined }), "alpha_10M-20ms_h2_tcp_out-of-order_none_run1");
    assert.match(describeCell(cell), /h2\/tcp cc=bbr tlp=off out-of-order/);
  });

  it("reads a run's cell from its configuration; a run from before the fields is in the default cell with its id unchanged", () => {
    const p = plan();
    const base = { site: "alpha", network: "10M-20ms", protocol: "h2", transport: "tcp", serverModel: "out-of-order", priority: "none", run: 0 } as const;
    const old = sampleRun(p, base, 100);
    assert.equal(old.configuration.congestion, undefined);
    assert.equal(cellId(cellOf(old)), JSON.stringify(["alpha", "10M-20ms", "h2", "tcp", "out-of-order", "none", 0]));
    const cubic = { ...old, configuration: { ...old.configuration, congestion: "cubic", tailLossProbes: true } };
    assert.equal(cellId(cellOf(cubic)), cellId(cellOf(old)));
    const reno = { ...old, configuration: { ...old.configuration, congestion: "reno", tailLossProbes: false } };
    assert.deepEqual([cellOf(reno).congestion, cellOf(reno).tailLossProbes], ["reno", false]);
    assert.notEqual(cellId(cellOf(reno)), cellId(cellOf(old)));
  });

  it("resumes owing exactly the cells not done, and refuses a run with a controller the plan lacks", () => {
    const dir = join(tempDir("knobs-factor"), "x");
    mkdirSync(dir, { recursive: true });
    const p = plan({ runs: 1 });
    const cells = planCells(p);
    const done = cells.filter((c) => c.congestion === "bbr");
    const files = writeExperiment(dir, p, done.map((c) => sampleRun(p, c, 100)));
    const x = readExperiment(files.plan);
    assert.deepEqual(owedCells(x.plan, x.runs, false).map(cellId), cells.filter((c) => c.congestion === undefined).map(cellId));
    const stray = sampleRun(p, cells[0]!, 100);
    stray.configuration.congestion = "reno";
    writeExperiment(dir, p, [stray]);
    assert.throws(() => readExperiment(files.plan), /line 1: \/configuration\/congestion: "reno" is not one of the plan's congestion controllers \(cubic, bbr\)/);
  });

  it("analyses each controller and probe setting as a configuration of its own, selectable by congestion= and tailLossProbes=", () => {
    const dir = join(tempDir("knobs-analysis"), "x");
    mkdirSync(dir, { recursive: true });
    const p = plan({ transports: ["tcp"], protocols: ["h2"], connectionsPerOrigin: { h2: 1 }, tailLossProbes: undefined, runs: 3, sites: ["alpha", "beta", "gamma"].map((s) => ({ name: s, graph: `graphs/${s}.json` })) });
    const runs = planCells(p).map((c) => sampleRun(p, c, c.congestion === "bbr" ? 800 + c.run : 1000));
    const files = writeExperiment(dir, p, runs);
    const a = analyzeExperiment(readExperiment(files.plan));
    assert.deepEqual(a.configurations.map((c) => c.label), ["h2/tcp · out-of-order · none · 1 path", "h2/tcp cc=bbr · out-of-order · none · 1 path"]);
    assert.equal(a.comparisons.length, 1);
    const chosen = analyzeExperiment(readExperiment(files.plan), { baseline: "congestion=cubic", candidates: ["congestion=bbr,tailLossProbes=on"] });
    assert.equal(chosen.comparisons[0]!.baseline, a.configurations[0]!.label);
    assert.equal(chosen.comparisons[0]!.candidate, a.configurations[1]!.label);
  });

  it("checks every controller over every transport the plan runs with pagepath-server before any run", () => {
    const dir = tempDir("knobs-prepare");
    const file = join(dir, "knobs.plan.json");
    writeFileSync(file, JSON.stringify(plan({ congestion: ["bbr", "reno", "copa"] })));
    assert.throws(
      () => prepareExperiment(file),
      (e: Error) => /\/congestion\/1: --congestion: tquic has no "reno"; it has cubic, bbr, bbr3, copa \(the plan runs quic\)/.test(e.message) && /\/congestion\/2: --congestion: this kernel has no "copa".* \(the plan runs tcp\)/.test(e.message),
    );
  });
});
