/**
 * The multipath scheduler as a factor of an experiment plan: `scheduler.<transport>` as an array makes
 * a cell per choice, cell keys and ids carry it (older runs in the cell of what they ran), a resumed
 * sweep owes only the scheduler cells not done, and the analysis keeps schedulers apart.
 */
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import {
  analyzeExperiment,
  cellId,
  cellOf,
  planCells,
  plannedRunCount,
  readExperiment,
  runsCsv,
  validatePlan,
  type CellKey,
  type ExperimentPlan,
  type NetworkConfig,
  type RunResult,
} from "@pagepath/results";
import { cellConfiguration, describeCell, logName, owedCells } from "@pagepath/runner";
import { samplePlan, sampleRun, writeExperiment } from "./results-fixture.js";
import { tempDir } from "./fixture-profile.js";

const twoPaths = (rttMs: number): NetworkConfig => {
  const path = { upMbps: 10, downMbps: 10, rttMs, loss: 0, queue: { discipline: "droptail" as const, packets: 64 } };
  return { name: `10M-${rttMs}ms-2p`, paths: [path, path] };
};

const ECF = { name: "ecf", options: { form: "cwnd", beta: "1" } };

function plan(over: Record<string, unknown> = {}): ExperimentPlan {
  return {
    ...samplePlan("factor", {
      runs: 2,
      sites: [{ name: "alpha", graph: "graphs/alpha.json" }],
      networks: [twoPaths(20), twoPaths(100)],
      protocols: ["h2", "h3"],
      transports: ["tcp", "mptcp", "quic", "mpquic"],
      connectionsPerOrigin: { h2: 1, h3: 1 },
      scheduler: { mpquic: [{ name: "lowest-rtt" }, ECF, { name: "round-robin" }], mptcp: { name: "default" } },
    }),
    ...over,
  } as ExperimentPlan;
}

const problems = (value: unknown) => validatePlan(structuredClone(value), "factor.plan.json");

describe("experiment plans: the scheduler as a factor", () => {
  it("takes an array of schedulers per multipath transport, and refuses one given twice or MPTCP options, naming file and pointer", () => {
    assert.deepEqual(problems(plan()), []);
    assert.deepEqual(problems(plan({ scheduler: { mpquic: { name: "ecf" } } })), [], "the single form stays valid");
    const twice = plan({ scheduler: { mpquic: [ECF, { name: "lowest-rtt" }, { name: "ecf", options: { beta: "1", form: "cwnd" } }] } });
    assert.deepEqual(problems(twice), ['factor.plan.json: /scheduler/mpquic/2: scheduler "ecf beta=1 form=cwnd" is already given at /scheduler/mpquic/0']);
    const kernel = plan({ scheduler: { mptcp: [{ name: "default" }, { name: "other", options: { x: "1" } }] } });
    assert.deepEqual(problems(kernel), ["factor.plan.json: /scheduler/mptcp/1/options: the kernel's MPTCP schedulers take no options"]);
    const empty = problems(plan({ scheduler: { mpquic: [] } }));
    assert.equal(empty.length, 1, empty.join("\n"));
    assert.match(empty[0]!, /^factor\.plan\.json: \/scheduler\/mpquic: /);
    assert.match(problems(plan({ scheduler: { mpquic: [{ name: "ecf", options: { beta: 1 } }] } })).join("\n"), /\/scheduler\/mpquic\/0\/options\/beta/);
  });

  it("makes one cell per scheduler of a multipath transport, leaving the cells of other transports as they were", () => {
    const p = plan();
    const cells = planCells(p);
    // Per site, network and run: tcp and quic once, mptcp once (one scheduler), mpquic three times.
    assert.equal(cells.length, 1 * 2 * (1 + 1 + 1 + 3) * 2);
    assert.equal(plannedRunCount(p), cells.length);
    assert.equal(new Set(cells.map(cellId)).size, cells.length);
    const of = (t: string) => [...new Set(cells.filter((c) => c.transport === t).map((c) => c.scheduler))];
    assert.deepEqual(of("mpquic"), ["lowest-rtt", "ecf beta=1 form=cwnd", "round-robin"], "options sorted in the key");
    assert.deepEqual(of("mptcp"), ["default"]);
    assert.deepEqual(of("tcp"), [undefined]);
    assert.ok(cells.filter((c) => c.transport === "tcp").every((c) => !("scheduler" in c)));
    const both = plan({ transports: ["mptcp", "mpquic"], protocols: ["h2", "h3"], scheduler: { mpquic: [{ name: "lowest-rtt" }, ECF, { name: "blest" }], mptcp: [{ name: "default" }, { name: "a" }, { name: "b" }] } });
    assert.equal(planCells(both).length, 2 * 3 * 2 * 2, "2 transports x 3 schedulers x 2 networks x 2 runs");
    // Without a scheduler, a multipath transport runs its default, named in its cells.
    const plain = plan({ scheduler: undefined });
    assert.deepEqual([...new Set(planCells(plain).map((c) => `${c.transport}:${c.scheduler ?? "-"}`))], ["tcp:-", "mptcp:default", "quic:-", "mpquic:lowest-rtt"]);
  });

  it("gives each cell its own scheduler to run with, explicit even when the plan names none, and names it in logs and progress", () => {
    const p = plan();
    const cell: CellKey = { site: "alpha", network: "10M-20ms-2p", protocol: "h3", transport: "mpquic", serverModel: "out-of-order", priority: "none", scheduler: "ecf beta=1 form=cwnd", run: 1 };
    assert.deepEqual(cellConfiguration(p, cell).scheduler, { name: "ecf", options: { form: "cwnd", beta: "1" } });
    assert.deepEqual(cellConfiguration(p, { ...cell, scheduler: "round-robin" }).scheduler, { name: "round-robin", options: {} });
    assert.deepEqual(cellConfiguration(plan({ scheduler: undefined }), { ...cell, scheduler: "lowest-rtt" }).scheduler, { name: "lowest-rtt", options: {} });
    assert.equal(cellConfiguration(p, { ...cell, transport: "quic", scheduler: undefined }).scheduler, null);
    assert.throws(() => cellConfiguration(p, { ...cell, scheduler: "blest" }), /the plan has no mpquic scheduler "blest"/);
    assert.equal(logName(cell), "alpha_10M-20ms-2p_h3_mpquic_out-of-order_none_ecf-beta-1-form-cwnd_run1");
    assert.notEqual(logName(cell), logName({ ...cell, scheduler: "round-robin" }));
    assert.equal(logName({ ...cell, transport: "quic", scheduler: undefined }), "alpha_10M-20ms-2p_h3_quic_out-of-order_none_run1", "single-path log names as before");
    assert.match(describeCell(cell), /h3\/mpquic \[ecf beta=1 form=cwnd\] out-of-order/);
  });

  it("reads a run's cell from configuration.scheduler; an older run without it is in the cell of what it ran; single-path ids are unchanged", () => {
    const p = plan();
    const base = { site: "alpha", network: "10M-20ms-2p", serverModel: "out-of-order", priority: "none", run: 0 } as const;
    const tcp = sampleRun(p, { ...base, protocol: "h2", transport: "tcp" }, 100);
    assert.equal(cellId(cellOf(tcp)), JSON.stringify(["alpha", "10M-20ms-2p", "h2", "tcp", "out-of-order", "none", 0]), "the id of a tcp cell is what it was");
    assert.equal(cellOf({ ...tcp, configuration: { ...tcp.configuration, scheduler: null } }).scheduler, undefined);
    const ecf = sampleRun(p, { ...base, protocol: "h3", transport: "mpquic", scheduler: "ecf beta=1 form=cwnd" }, 100);
    assert.deepEqual(ecf.configuration.scheduler, ECF);
    assert.equal(cellOf(ecf).scheduler, "ecf beta=1 form=cwnd");
    const old = (transport: "mpquic" | "mptcp"): RunResult => {
      const r = sampleRun(p, { ...base, protocol: transport === "mpquic" ? "h3" : "h2", transport }, 100);
      delete r.configuration.scheduler;
      return r;
    };
    assert.equal(cellOf(old("mpquic")).scheduler, "minrtt", "tquic's own minrtt ran before pagepath's schedulers");
    assert.equal(cellOf(old("mptcp")).scheduler, "default");
    assert.notEqual(cellId(cellOf(ecf)), cellId(cellOf({ ...ecf, configuration: { ...ecf.configuration, scheduler: { name: "round-robin", options: {} } } })));
  });

  it("resumes owing exactly the scheduler cells not done; an older mpquic run does not stand in for lowest-rtt; a scheduler the plan lacks is refused", () => {
    const dir = join(tempDir("scheduler-factor"), "x");
    mkdirSync(dir, { recursive: true });
    const p = plan({ transports: ["quic", "mpquic"], protocols: ["h3"], connectionsPerOrigin: { h3: 1 }, scheduler: { mpquic: [{ name: "lowest-rtt" }, ECF] }, runs: 1 });
    const cells = planCells(p);
    assert.equal(cells.length, 2 * 3);
    const done = cells.filter((c) => c.scheduler === "ecf beta=1 form=cwnd" || c.transport === "quic");
    const legacy = sampleRun(p, cells.find((c) => c.scheduler === "lowest-rtt")!, 100);
    delete legacy.configuration.scheduler;
    const files = writeExperiment(dir, p, [...done.map((c) => sampleRun(p, c, 100)), legacy]);
    const x = readExperiment(files.plan);
    const owed = owedCells(x.plan, x.runs, false);
    assert.deepEqual(owed.map(cellId), cells.filter((c) => c.scheduler === "lowest-rtt").map(cellId));

    const stray = sampleRun(p, cells.find((c) => c.scheduler === "lowest-rtt")!, 100);
    stray.configuration.scheduler = { name: "blest", options: {} };
    writeExperiment(dir, p, [stray]);
    assert.throws(() => readExperiment(files.plan), /line 1: \/configuration\/scheduler: "blest" is not one of the plan's schedulers for mpquic \("lowest-rtt", "ecf beta=1 form=cwnd"\)/);
  });

  it("analyses each scheduler as a configuration of its own, selectable by scheduler=", () => {
    const dir = join(tempDir("scheduler-factor-analysis"), "x");
    mkdirSync(dir, { recursive: true });
    const p = plan({ transports: ["mpquic"], protocols: ["h3"], connectionsPerOrigin: { h3: 1 }, networks: [twoPaths(20)], scheduler: { mpquic: [{ name: "lowest-rtt" }, ECF] }, runs: 3, sites: ["alpha", "beta", "gamma"].map((s) => ({ name: s, graph: `graphs/${s}.json` })) });
    const runs = planCells(p).map((c) => sampleRun(p, c, c.scheduler === "lowest-rtt" ? 1000 : 800 + c.run));
    const files = writeExperiment(dir, p, runs);
    const a = analyzeExperiment(readExperiment(files.plan));
    assert.deepEqual(a.configurations.map((c) => c.label), ["h3/mpquic lowest-rtt · out-of-order · none · 2 paths", "h3/mpquic ecf beta=1 form=cwnd · out-of-order · none · 2 paths"]);
    assert.equal(a.comparisons.length, 1, "the two schedulers of the family are compared");
    assert.equal(a.comparisons[0]!.baseline, a.configurations[0]!.label);
    assert.ok(a.comparisons[0]!.overall.meanDifferenceMs! > 0, JSON.stringify(a.comparisons[0]!.overall));
    const chosen = analyzeExperiment(readExperiment(files.plan), { baseline: "scheduler=ecf beta=1 form=cwnd" });
    assert.equal(chosen.comparisons[0]!.baseline, a.configurations[1]!.label);
    const csv = runsCsv(a.rows).split("\r\n");
    assert.match(csv[0]!, /,transport,scheduler,/);
    assert.deepEqual(new Set(csv.slice(1, -1).map((l) => l.split(",")[12])), new Set(["lowest-rtt", "ecf beta=1 form=cwnd"]));
  });
});
