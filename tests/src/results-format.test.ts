import assert from "node:assert/strict";
import { appendFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { readExperiment, readPlanFile, readRunResultFile, validatePlan, validateRunResult, type CellKey, type RunResult } from "@pagepath/results";
import { tempDir } from "./fixture-profile.js";
import { samplePlan, sampleRun, writeExperiment } from "./results-fixture.js";

const plan = samplePlan("format-test");
const cell: CellKey = { site: "alpha", network: "1M-20ms", protocol: "h1", transport: "tcp", serverModel: "out-of-order", priority: "none", run: 1 };
const dirs: string[] = [];
const VECTORS = fileURLToPath(new URL("../../../replay/results/test-vectors/", import.meta.url));

function dir(): string {
  const d = tempDir("results-format");
  dirs.push(d);
  return d;
}

/** A valid run changed by `edit`, validated as if read from run.json. */
function problemsAfter(edit: (r: RunResult & Record<string, unknown>) => void): string[] {
  const r = structuredClone(sampleRun(plan, cell, 1234)) as RunResult & Record<string, unknown>;
  edit(r);
  return validateRunResult(r, "run.json");
}

function assertProblem(problems: string[], pattern: RegExp): void {
  assert.ok(problems.some((p) => pattern.test(p)), `expected a problem matching ${pattern}, got:\n${problems.join("\n")}`);
}

describe("run result and experiment formats", () => {
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it("accepts a valid run result, a failed one and a valid plan", () => {
    assert.deepEqual(validateRunResult(sampleRun(plan, cell, 1234), "run.json"), []);
    assert.deepEqual(validateRunResult(sampleRun(plan, cell, null), "run.json"), []);
    assert.deepEqual(validatePlan(plan, "format-test.plan.json"), []);
    const d = dir();
    writeFileSync(join(d, "run.json"), JSON.stringify(sampleRun(plan, cell, 99)));
    assert.equal(readRunResultFile(join(d, "run.json")).metrics.loadMs, 99);
  });

  it("rejects each kind of bad run result, naming the file and the field", () => {
    const cases: [(r: RunResult & Record<string, unknown>) => void, RegExp][] = [
      [(r) => delete (r.metrics as Partial<RunResult["metrics"]>).loadMs, /^run\.json: \/metrics\/loadMs: is missing$/],
      [(r) => ((r.metrics as unknown as Record<string, unknown>).loadMs = "12"), /^run\.json: \/metrics\/loadMs: must be number or null, not "12"$/],
      [(r) => (r.metrics.loadMs = -5), /^run\.json: \/metrics\/loadMs: must be >= 0, not -5$/],
      [(r) => ((r.configuration as unknown as Record<string, unknown>).protocol = "h4"), /^run\.json: \/configuration\/protocol: must be one of h1, h2, h3, not "h4"$/],
      [(r) => ((r.metrics as unknown as Record<string, unknown>).plt = 3), /^run\.json: \/metrics\/plt: is not a field of the run result format/],
      [(r) => ((r as Record<string, unknown>).schemaVersion = 2), /^run\.json: \/schemaVersion: 2 is not supported/],
      [(r) => (r.configuration.protocol = "h3"), /^run\.json: \/configuration\/transport: h3 cannot run over tcp/],
      [(r) => Object.assign(r, { status: "failed", error: null }), /^run\.json: \/error: is null, but a failed run must say why/],
      [(r) => (r.error = "boom"), /^run\.json: \/error: must be null when status is "ok"/],
      [(r) => (r.nodeTimings = null), /^run\.json: \/nodeTimings: is null, but the emulated browser/],
      [(r) => (r.nodeTimings = [{ nodeId: "n0", start: 10, end: 5 }]), /^run\.json: \/nodeTimings\/0\/end: 5 is before its start 10/],
      [(r) => r.paths.push({ path: 1, bytesUp: 0, bytesDown: 0 }), /^run\.json: \/paths: has 2 entries, but the network has 1 paths/],
      [(r) => (r.connections[0]!.paths[0]!.path = 3), /^run\.json: \/connections\/0\/paths\/0\/path: there is no path 3/],
      [(r) => (r.site.graphSha256 = "abc"), /^run\.json: \/site\/graphSha256: must be 64 lower-case hex digits/],
      [(r) => (r.seed = 1.5), /^run\.json: \/seed: must be integer, not 1\.5$/],
      [(r) => (r.configuration.scheduler = { name: "ecf", options: {} }), /^run\.json: \/configuration\/scheduler: must be null over tcp, which has one path/],
      [(r) => Object.assign(r.configuration, { transport: "mptcp", scheduler: { name: "default", options: { beta: "1" } } }), /^run\.json: \/configuration\/scheduler\/options: the kernel's MPTCP schedulers take no options, but beta given/],
      [(r) => Object.assign(r.configuration, { protocol: "h3", transport: "quic", tailLossProbes: false }), /^run\.json: \/configuration\/tailLossProbes: must be null over quic/],
      [(r) => (r.configuration.congestion = "Reno!"), /^run\.json: \/configuration\/congestion: /],
    ];
    for (const [edit, pattern] of cases) assertProblem(problemsAfter(edit), pattern);
  });

  it("rejects bad plans, naming the file and the field", () => {
    const bad = (change: object) => validatePlan({ ...plan, ...change }, "p.plan.json");
    assertProblem(bad({ sites: [plan.sites[0], plan.sites[0]] }), /^p\.plan\.json: \/sites\/1\/name: site "alpha" is already used by \/sites\/0$/);
    assertProblem(bad({ protocols: ["h3"], connectionsPerOrigin: { h3: 1 } }), /^p\.plan\.json: \/protocols\/0: h3 has no transport in \/transports/);
    assertProblem(bad({ connectionsPerOrigin: { h1: 6 } }), /^p\.plan\.json: \/connectionsPerOrigin\/h2: is missing/);
    assertProblem(bad({ runs: 0 }), /^p\.plan\.json: \/runs: must be >= 1/);
    const d = dir();
    writeFileSync(join(d, "other.plan.json"), JSON.stringify(plan));
    assert.throws(() => readPlanFile(join(d, "other.plan.json")), /other\.plan\.json: \/name: "format-test" does not match the file name/);
  });

  it("skips a truncated last line with a warning and keeps the complete ones", () => {
    const d = dir();
    const runs = [0, 1, 2].map((run) => sampleRun(plan, { ...cell, run }, 100 + run));
    const cut = JSON.stringify(sampleRun(plan, { ...cell, site: "beta" }, 500)).slice(0, 90);
    const files = writeExperiment(d, plan, runs, cut);
    const x = readExperiment(files.plan);
    assert.deepEqual(x.runs.map((r) => r.metrics.loadMs), [100, 101, 102]);
    assert.equal(x.warnings.length, 1);
    assert.match(x.warnings[0]!, /format-test\.runs\.jsonl: line 4: is incomplete .*skipped/);
  });

  it("takes a TCP profile in a plan of the simulated client only, and holds its runs to it over TCP", () => {
    assert.deepEqual(validatePlan({ ...samplePlan("sim", { client: "simulated" }), tcpProfile: "thesis" }, "sim.plan.json"), []);
    assert.match(validatePlan({ ...plan, tcpProfile: "thesis" }, "p.plan.json").join("\n"), /\/tcpProfile: the emulated client runs the kernel's TCP/);
    assert.match(validatePlan({ ...samplePlan("sim", { client: "simulated" }), tcpProfile: "ns3" }, "sim.plan.json").join("\n"), /tcpProfile/);
    const d = dir();
    const sim = { ...samplePlan("format-sim", { client: "simulated" }), tcpProfile: "thesis" as const };
    const run = sampleRun(sim, { ...cell, transport: "tcp" }, 100);
    writeExperiment(d, sim, [{ ...run, configuration: { ...run.configuration, tcpProfile: "thesis" } }]);
    assert.equal(readExperiment(join(d, "format-sim.plan.json")).runs.length, 1);
    const files = writeExperiment(d, sim, [run]);
    assert.throws(() => readExperiment(files.plan), /\/configuration\/tcpProfile: "linux" differs from the plan's TCP profile "thesis"/);
  });

  it("takes a clock tick in a plan of the simulated client only, on simulated runs over TCP and MPTCP only, and holds its runs to it", () => {
    const sim = { ...samplePlan("format-tick", { client: "simulated" }), clockTickUs: 1 };
    assert.deepEqual(validatePlan(sim, "sim.plan.json"), []);
    assert.match(validatePlan({ ...plan, clockTickUs: 1 }, "p.plan.json").join("\n"), /\/clockTickUs: the emulated client runs in real time; a clock tick is the simulator's/);
    assert.match(validatePlan({ ...sim, clockTickUs: 0 }, "sim.plan.json").join("\n"), /clockTickUs/);
    const run = sampleRun(sim, { ...cell, transport: "tcp" }, 100);
    const ticked = { ...run, configuration: { ...run.configuration, clockTickUs: 1 } };
    assert.deepEqual(validateRunResult(ticked, "run.json"), []);
    assert.match(validateRunResult({ ...ticked, client: "emulated" }, "run.json").join("\n"), /\/configuration\/clockTickUs: only a simulated run over tcp or mptcp has a clock tick; this run is emulated, over tcp/);
    const d = dir();
    writeExperiment(d, sim, [ticked]);
    assert.equal(readExperiment(join(d, "format-tick.plan.json")).runs.length, 1);
    const files = writeExperiment(d, sim, [run]);
    assert.throws(() => readExperiment(files.plan), /\/configuration\/clockTickUs: 1000 differs from the plan's clock tick 1/);
  });

  it("takes summary runs, without node timings and requests, where a plan asks for them, and only such runs without them", () => {
    assert.deepEqual(validatePlan({ ...plan, runDetail: "summary" }, "p.plan.json"), []);
    assert.match(validatePlan({ ...plan, runDetail: "brief" }, "p.plan.json").join("\n"), /\/runDetail/);
    assert.deepEqual(problemsAfter((r) => Object.assign(r, { detail: "summary", nodeTimings: null, requests: null })), []);
    assertProblem(problemsAfter((r) => Object.assign(r, { detail: "summary" })), /^run\.json: \/detail: a summary has null nodeTimings and requests/);
    assertProblem(problemsAfter((r) => Object.assign(r, { detail: "full", nodeTimings: null })), /\/detail/);
    const d = dir();
    const summaryPlan = { ...samplePlan("format-summary"), runDetail: "summary" as const };
    const files = writeExperiment(d, summaryPlan, [{ ...sampleRun(summaryPlan, cell, 77), detail: "summary", nodeTimings: null, requests: null }]);
    assert.equal(readExperiment(files.plan).runs[0]!.metrics.loadMs, 77);
  });

  it("reads a runs file larger than a string can hold a chunk at a time, lines across chunks, and light runs without their detail", () => {
    const d = dir();
    const runs = [0, 1, 2].map((run) => sampleRun(plan, { ...cell, run }, 100 + run));
    const files = writeExperiment(d, plan, runs);
    // Lines padded to 3 MB each, 40 of them (reruns of the three cells), cross the reader's 16 MB chunks.
    const padded = Array.from({ length: 40 }, (_, i) => JSON.stringify(sampleRun(plan, { ...cell, run: i % 3 }, 200 + i)) + " ".repeat(3 << 20) + "\n").join("");
    appendFileSync(files.runs, padded);
    const x = readExperiment(files.plan);
    assert.deepEqual(x.runs.map((r) => r.metrics.loadMs), [237, 238, 239]);
    assert.equal(x.warnings.filter((w) => /reruns the cell/.test(w)).length, 40);
    assert.ok(x.runs.every((r) => r.requests !== null));
    const light = readExperiment(files.plan, { light: true });
    assert.deepEqual(light.runs.map((r) => r.metrics.loadMs), [237, 238, 239]);
    assert.ok(light.runs.every((r) => r.requests === null && r.nodeTimings === null && r.connections.length === 0));
  });

  it("fails on a corrupt or misplaced complete line, naming file, line and field; a rerun replaces its cell", () => {
    const d = dir();
    const good = sampleRun(plan, cell, 100);
    const files = writeExperiment(d, plan, [good, good], "{not json\n");
    assert.throws(() => readExperiment(files.plan), /format-test\.runs\.jsonl: line 3: not valid JSON/);
    writeExperiment(d, plan, [good, { ...good, seed: 7 }, { ...good, configuration: { ...good.configuration, priority: "mime" } }]);
    assert.throws(() => readExperiment(files.plan), (e: Error) => {
      assert.match(e.message, /line 2: \/seed: 7 differs from the plan's seed for run 1 \(baseSeed \+ run\) 1001/);
      assert.match(e.message, /line 3: \/configuration\/priority: "mime" is not one of the plan's priority schemes/);
      return true;
    });
    writeExperiment(d, plan, [sampleRun(plan, cell, null), sampleRun(plan, cell, 300)]);
    const x = readExperiment(files.plan);
    assert.deepEqual(x.runs.map((r) => r.metrics.loadMs), [300]);
    assert.match(x.warnings.join("\n"), /line 2: reruns the cell of line 1 .*line 2 counts/);
  });

  it("accepts every valid test vector and rejects every invalid one where its .expect.txt says", () => {
    const read = (f: string) => JSON.parse(readFileSync(f, "utf8")) as unknown;
    const check = (name: string, path: string) => (name.startsWith("plan") || name.endsWith(".plan.json") ? validatePlan : validateRunResult)(read(path), name);
    for (const name of readdirSync(join(VECTORS, "valid")).filter((n) => n.endsWith(".json"))) assert.deepEqual(check(name, join(VECTORS, "valid", name)), [], name);
    const x = readExperiment(join(VECTORS, "valid", "sweep.plan.json"));
    assert.equal(x.runs.length, 2);
    assert.match(x.warnings.join("\n"), /sweep\.runs\.jsonl: line 3: is incomplete/);
    const invalid = readdirSync(join(VECTORS, "invalid")).filter((n) => n.endsWith(".json"));
    assert.ok(invalid.length >= 8);
    for (const name of invalid) {
      const expect = readFileSync(join(VECTORS, "invalid", name.replace(/\.json$/, ".expect.txt")), "utf8").trim();
      const report = check(name, join(VECTORS, "invalid", name));
      assert.ok(report.length > 0 && report.every((p) => p.startsWith(`${name}: `)), `${name}: ${report.join("; ")}`);
      assert.ok(report.some((p) => p.includes(expect)), `${name}: no problem mentions ${expect}: ${report.join("; ")}`);
    }
  });

  it("reads a plan whose sweep has not finished a run yet", () => {
    const d = dir();
    const files = writeExperiment(d, plan, []);
    rmSync(files.runs);
    const x = readExperiment(files.plan);
    assert.equal(x.runs.length, 0);
    assert.match(x.warnings[0]!, /does not exist yet/);
  });
});
