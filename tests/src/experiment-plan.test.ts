import assert from "node:assert/strict";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { experimentOutput, planCells, plannedRunCount, readPlanFile, validatePlan, wspUnitDesign, type ExperimentPlan } from "@pagepath/results";
import { owedCells, topologyDocument } from "@pagepath/runner";
import { runCli } from "./cli-run.js";
import { samplePlan } from "./results-fixture.js";
import { tempDir } from "./fixture-profile.js";

const GRAPH = fileURLToPath(new URL("../../../graph-builder/test-vectors/valid/two-frames.json", import.meta.url));

function plan(over: Record<string, unknown> = {}): Record<string, unknown> {
  const base = samplePlan("p", { runs: 2, sites: [{ name: "two-frames", graph: GRAPH }], networks: [], grid: { rateMbit: [1, 10], rttMs: [20, 200] } });
  return { ...base, ...over };
}

/** Validates a plan; on success `networks` holds the generated networks. */
function resolved(value: Record<string, unknown>): ExperimentPlan {
  const problems = validatePlan(value, "p.plan.json");
  assert.deepEqual(problems, []);
  return value as unknown as ExperimentPlan;
}

describe("experiment plans: grids, samples and topologies", () => {
  it("makes one network per grid point and topology, with PCP's 1.5 BDP buffer on each path", () => {
    const p = resolved(plan({ topologies: [{ paths: 1 }, { paths: 2 }, { paths: 2, rttFactor: 5, first: "other" }] }));
    assert.equal(p.networks.length, 2 * 2 * 3);
    assert.equal(plannedRunCount(p), 12 * 2 * 2);
    assert.equal(planCells(p).length, plannedRunCount(p));
    const one = p.networks.find((n) => n.name === "10M-200ms")!;
    // 10 Mbit/s x 200 ms = 250,000 bytes = 166.7 packets of 1,500; 1.5 of that is 250.
    assert.deepEqual(one.paths, [{ upMbps: 10, downMbps: 10, rttMs: 200, loss: 0, queue: { discipline: "droptail", packets: 250 } }]);
    assert.equal(p.networks.find((n) => n.name === "1M-20ms-2p")!.paths.length, 2);
    const mismatch = p.networks.find((n) => n.name === "1M-20ms-2p-rtt5x-other-first")!;
    assert.deepEqual(mismatch.paths.map((x) => x.rttMs), [100, 20], "the slower path comes first when asked");
    // A tiny BDP still gets a few packets of buffer.
    assert.equal(p.networks.find((n) => n.name === "1M-20ms")!.paths[0]!.queue!.packets, 4);
  });

  it("writes results beside the plan in a folder of its name, and resumes there when given the plan it wrote", () => {
    assert.equal(experimentOutput("/x/plans/h2.plan.json").dir, "/x/plans/h2");
    assert.equal(experimentOutput("/x/plans/h2/h2.plan.json").dir, "/x/plans/h2", "the resolved plan run again is not nested in h2/h2/");
    assert.equal(experimentOutput("/x/plans/h2/h2.plan.json").runsFile, "/x/plans/h2/h2.runs.jsonl");
    assert.equal(experimentOutput("/x/plans/h2.plan.json", "/y/out").planFile, "/y/out/h2.plan.json");
  });

  it("gives a grid the thesis's link randomness when asked: RED buffers and each run's delays drawn within a fraction, named and written into the topology", () => {
    const p = resolved(plan({ grid: { rateMbit: [10], rttMs: [200], queueDiscipline: "red", rttJitter: 0.1 } }));
    assert.deepEqual(p.networks.map((n) => n.name), ["10M-200ms-red-jitter0.1"]);
    assert.deepEqual(p.networks[0]!.paths, [{ upMbps: 10, downMbps: 10, rttMs: 200, loss: 0, queue: { discipline: "red", packets: 250 }, rttJitter: 0.1 }]);
    const doc = topologyDocument(p.networks[0]!, "/") as { paths: { uplink: { delayMs: unknown; queue: unknown }; downlink: { delayMs: unknown } }[] };
    assert.deepEqual(doc.paths[0]!.uplink.delayMs, { uniform: [90, 110] }, "drawn by the link from the run's seed");
    assert.deepEqual(doc.paths[0]!.downlink.delayMs, { uniform: [90, 110] });
    assert.deepEqual(doc.paths[0]!.uplink.queue, { type: "red", packets: 250 });
    assert.equal((topologyDocument(resolved(plan()).networks[0]!, "/") as { paths: { uplink: { delayMs: unknown } }[] }).paths[0]!.uplink.delayMs, 10, "exact without it");
    assert.match(validatePlan(plan({ grid: { rateMbit: [10], rttMs: [200], rttJitter: 0.9 } }), "p.plan.json").join("\n"), /rttJitter/);
  });

  it("runs every cell once per replication, replications outermost", () => {
    const p = resolved(plan());
    const cells = planCells(p);
    assert.equal(new Set(cells.map((c) => JSON.stringify(c))).size, cells.length);
    assert.ok(cells.slice(0, cells.length / 2).every((c) => c.run === 0));
  });

  it("owes a simulated plan's cells a site at a time within each run (a batch simulator keeps the pages it read last), a real one's in plan order", () => {
    const real = samplePlan("p", { runs: 2 });
    const simulated = samplePlan("p", { runs: 2, client: "simulated" });
    assert.deepEqual(owedCells(real, [], false), planCells(real));
    const owed = owedCells(simulated, [], false);
    assert.deepEqual(new Set(owed.map((c) => JSON.stringify(c))), new Set(planCells(simulated).map((c) => JSON.stringify(c))));
    // alpha's cells of run 0, beta's, gamma's, then run 1 the same way: a site's cells together.
    const visits = owed.map((c) => `${c.run} ${c.site}`).filter((v, i, all) => i === 0 || all[i - 1] !== v);
    assert.deepEqual(visits, ["0 alpha", "0 beta", "0 gamma", "1 alpha", "1 beta", "1 gamma"]);
  });

  it("spreads a WSP sample more evenly than random points, the same for the same seed", () => {
    const minDistance = (pts: number[][]) => {
      let best = Infinity;
      for (let i = 0; i < pts.length; i++) for (let j = i + 1; j < pts.length; j++) best = Math.min(best, Math.hypot(...pts[i]!.map((v, k) => v - pts[j]![k]!)));
      return best;
    };
    const design = wspUnitDesign(30, 3, 7);
    assert.equal(design.length, 30);
    assert.deepEqual(wspUnitDesign(30, 3, 7), design);
    assert.notDeepEqual(wspUnitDesign(30, 3, 8), design);
    assert.ok(design.every((p) => p.every((v) => v >= 0 && v <= 1)));
    let seed = 1;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const randomMins = Array.from({ length: 20 }, () => minDistance(Array.from({ length: 30 }, () => [random(), random(), random()])));
    const wsp = minDistance(design);
    assert.ok(randomMins.every((m) => wsp > m), `WSP's closest pair (${wsp.toFixed(3)}) is farther apart than in any of 20 random designs (best ${Math.max(...randomMins).toFixed(3)})`);
  });

  it("samples networks within the ranges, named in order", () => {
    const p = resolved(plan({ grid: undefined, sample: { points: 12, seed: 3, rateMbit: [1, 100], rttMs: [10, 400], loss: [0, 0.02] } }));
    assert.equal(p.networks.length, 12);
    for (const n of p.networks) {
      const path = n.paths[0]!;
      assert.ok(path.downMbps! >= 1 && path.downMbps! <= 100 && path.rttMs >= 10 && path.rttMs <= 400 && path.loss! <= 0.02, JSON.stringify(n));
    }
    assert.match(p.networks[0]!.name, /^s01-/);
  });

  it("names the field and the problem of a bad plan", () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ grid: { rateMbit: [1], rttMs: [-5] } }, /\/grid\/rttMs\/0: must be >= 0/],
      [{ grid: { rttMs: [20] } }, /\/grid: has neither rateMbit nor traces/],
      [{ topologies: [{ paths: 1, rttFactor: 5 }] }, /\/topologies\/0\/rttFactor: only a two-path topology/],
      [{ transports: ["tcp", "mptcp"] }, /\/transports\/1: mptcp needs a network with two paths/],
      [{ grid: undefined, sample: { points: 4, rateMbit: [50, 5], rttMs: [10, 20] } }, /\/sample\/rateMbit: the range \[50, 5\] runs backwards/],
      [{ grid: undefined }, /\/networks: the plan has no network to run over/],
      [{ metric: "onload" }, /\/metric: must be one of/],
      [{ client: "chromium", protocols: ["h3"], transports: ["quic", "mpquic"], connectionsPerOrigin: { h3: 1 }, topologies: [{ paths: 2 }] }, /\/transports\/1: mpquic: Chromium has no multipath QUIC/],
      [{ networks: [{ name: "10M-200ms", paths: [{ upMbps: 1, downMbps: 1, rttMs: 1, loss: 0, queue: null }] }] }, /\/networks\/4\/name: network "10M-200ms" is already used by \/networks\/0/],
    ];
    for (const [over, expected] of cases) {
      const problems = validatePlan(plan(over), "p.plan.json");
      assert.ok(problems.some((p) => expected.test(p)), `${JSON.stringify(over)}: ${problems.join("; ")}`);
      assert.ok(problems.every((p) => p.startsWith("p.plan.json: ")), "every problem names the file");
    }
  });

  it("refuses a plan whose trace file is missing", () => {
    const dir = tempDir("plan-trace");
    const file = join(dir, "p.plan.json");
    writeFileSync(file, JSON.stringify(plan({ grid: { rttMs: [20], traces: [{ name: "lte", uplink: "up.trace", downlink: "down.trace" }] } })));
    assert.throws(() => readPlanFile(file), /trace up\.trace: no such file \(traces are found relative to the plan's folder\)/);
  });

  it("pagepath experiment stops on a bad plan before any run, naming the file and what is wrong", async () => {
    const dir = join(tempDir("plan-cli"), "plans");
    mkdirSync(dir, { recursive: true });
    const bad = join(dir, "p.plan.json");
    writeFileSync(bad, JSON.stringify(plan({ runs: 0 })));
    const r = await runCli(["experiment", bad]);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /p\.plan\.json: \/runs: must be >= 1/);
    // The graph vector has no recording beside it: no run could be served.
    writeFileSync(bad, JSON.stringify(plan()));
    const norec = await runCli(["experiment", bad]);
    assert.notEqual(norec.code, 0);
    assert.match(norec.stderr, /\/sites\/0 \(two-frames\): .*cannot find the recording to serve/);
    writeFileSync(bad, JSON.stringify(plan({ client: "chromium", protocols: ["h3"], transports: ["mpquic"], connectionsPerOrigin: { h3: 1 }, topologies: [{ paths: 2 }] })));
    const mpquic = await runCli(["experiment", bad]);
    assert.notEqual(mpquic.code, 0);
    assert.match(mpquic.stderr, /p\.plan\.json: \/transports\/0: mpquic: Chromium has no multipath QUIC; use "client": "emulated" for mpquic, or "quic"/);
    assert.ok(!existsSync(join(dir, "p")), "nothing was written for the plan");
    const usage = await runCli(["experiment", bad, "--time-budget", "soon"]);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /--time-budget "soon": expected a duration/);
  });
});
