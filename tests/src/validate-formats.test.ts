/** `pagepath validate` on the formats experiments write: run results, plans and runs files, each known by its name or kind. */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { runCli } from "./cli-run.js";
import { tempDir } from "./fixture-profile.js";
import { samplePlan, sampleRun, writeExperiment } from "./results-fixture.js";

describe("pagepath validate on results", () => {
  const plan = samplePlan("validated");
  const cell = (site: string) => ({ site, network: plan.networks[0]!.name, protocol: "h2" as const, transport: "tcp" as const, serverModel: "out-of-order" as const, priority: "none" as const, run: 0 });

  it("knows a run result, a plan and an experiment's runs file, and reports a torn last line without failing", async () => {
    const dir = tempDir("validate-formats");
    const files = writeExperiment(dir, plan, [sampleRun(plan, cell("alpha"), 500), sampleRun(plan, cell("beta"), 600)], '{"schemaVersion":1,"ki');
    const run = join(dir, "run.json");
    writeFileSync(run, JSON.stringify(sampleRun(plan, cell("gamma"), 700)));
    const r = await runCli(["validate", run, files.plan, files.runs]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /ok {7}.*run\.json: run result, emulated, ok, load 700 ms/);
    assert.match(r.stdout, /ok {7}.*validated\.plan\.json: experiment plan validated, 3 sites, 4 networks/);
    assert.match(r.stdout, /ok {7}.*validated\.runs\.jsonl: runs file of experiment validated, 2 runs; .*line 3: is incomplete/);
  });

  it("names the file and line of a bad run in a runs file without a plan, and of a bad run result", async () => {
    const dir = tempDir("validate-formats-bad");
    const runs = join(dir, "runs.jsonl");
    const bad = { ...sampleRun(plan, cell("alpha"), 500), client: "netscape" };
    writeFileSync(runs, `${JSON.stringify(sampleRun(plan, cell("beta"), 600))}\n${JSON.stringify(bad)}\n`);
    const run = join(dir, "bad-run.json");
    writeFileSync(run, JSON.stringify(bad));
    const r = await runCli(["validate", runs, run]);
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stdout, /INVALID  .*runs\.jsonl: not a valid runs file:\n.*runs\.jsonl: line 2: .*client/);
    assert.match(r.stdout, /INVALID  .*bad-run\.json: not a valid pagepath run result/);
    const usage = await runCli(["validate"]);
    assert.equal(usage.code, 2);
  });

  it("reads a topology file as pagepath net up would, traces included, and names the field that is wrong", async () => {
    const dir = tempDir("validate-topology");
    const bad = join(dir, "bad.topology.json");
    writeFileSync(bad, JSON.stringify({ schemaVersion: 1, paths: [{ name: "a", uplink: { delayMs: "x" }, downlink: { delayMs: 5 } }] }));
    const noTrace = join(dir, "no-trace.topology.json");
    writeFileSync(noTrace, JSON.stringify({ schemaVersion: 1, paths: [{ name: "a", uplink: { delayMs: 5, trace: "missing.up" }, downlink: { delayMs: 5 } }] }));
    const r = await runCli(["validate", "examples/topologies/wifi-lte.topology.json", bad, noTrace]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /ok {7}examples\/topologies\/wifi-lte\.topology\.json: topology, 2 paths, MPTCP/);
    assert.match(r.stdout, /INVALID  .*bad\.topology\.json: not a valid topology:\n.*bad\.topology\.json: \/paths\/0\/uplink\/delayMs: must be number, not "x"\n/);
    assert.match(r.stdout, /INVALID  .*no-trace\.topology\.json: .*missing\.up/);
  });

  it("knows each format by what it says it is, not by its name, and refuses a kind it does not know", async () => {
    const dir = tempDir("validate-by-kind");
    const files = writeExperiment(dir, plan, [sampleRun(plan, cell("alpha"), 500)]);
    const renamed = join(dir, "my-plan.json");
    writeFileSync(renamed, readFileSync(files.plan));
    const topology = join(dir, "two-paths.json");
    writeFileSync(topology, readFileSync("examples/topologies/wifi-lte.topology.json"));
    const recipe = join(dir, "site.json");
    writeFileSync(recipe, readFileSync("corpus/realistic/dygraphs/recipe.json"));
    const future = join(dir, "future.json");
    writeFileSync(future, JSON.stringify({ schemaVersion: 1, kind: "pagepath-hologram" }));
    const r = await runCli(["validate", renamed, recipe, future]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    // Known as a plan by its kind; a plan is named after its file, which this copy breaks.
    assert.match(r.stdout, /INVALID  .*my-plan\.json: not a valid pagepath experiment plan:\n.*my-plan\.json: \/name: "validated" does not match the file name/);
    assert.match(r.stdout, /ok {7}.*site\.json: realistic site recipe, 1 packages/);
    assert.match(r.stdout, /INVALID  .*future\.json: \/kind: "pagepath-hologram" is not a format this pagepath knows/);
    // A topology outside examples/ names its traces relative to itself: this one has none to find.
    const t = await runCli(["validate", topology]);
    assert.match(t.stdout, /two-paths\.json: .*traces/);
  });

  it("reads a realistic site's recipe as the corpus builder does, naming the field that is wrong", async () => {
    const bad = join(tempDir("validate-recipe"), "recipe.json");
    writeFileSync(bad, JSON.stringify({ entry: "https://www.x.test/", hosts: { "www.x.test": {} }, packages: { x: { spec: "x@latest", integrity: "sha512-" } } }));
    const r = await runCli(["validate", "corpus/realistic/dygraphs/recipe.json", bad]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /ok {7}corpus\/realistic\/dygraphs\/recipe\.json: realistic site recipe, 1 packages, 4 hosts/);
    assert.match(r.stdout, /INVALID  .*recipe\.json: not a valid recipe:\n.*recipe\.json: \/packages\/x\/spec: must be name@exact-version, not "x@latest"/);
  });
});
