/** An experiment plan's `scheduler`: per multipath transport, checked before any run, each problem at its JSON pointer. */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { validatePlan } from "@pagepath/results";
import { cellConfiguration } from "@pagepath/runner";
import { runCli } from "./cli-run.js";
import { samplePlan } from "./results-fixture.js";
import { tempDir } from "./fixture-profile.js";

const GRAPH = fileURLToPath(new URL("../../../graph-builder/test-vectors/valid/two-frames.json", import.meta.url));

function plan(scheduler: unknown, over: Record<string, unknown> = {}): Record<string, unknown> {
  const base = samplePlan("p", { sites: [{ name: "two-frames", graph: GRAPH }], networks: [], grid: { rateMbit: [10], rttMs: [20] }, topologies: [{ paths: 2 }] });
  return { ...base, protocols: ["h2", "h3"], transports: ["mptcp", "mpquic"], connectionsPerOrigin: { h2: 1, h3: 1 }, scheduler, ...over };
}

describe("an experiment plan's scheduler", () => {
  it("is given per multipath transport the plan runs, and reaches the cells of that transport", () => {
    const good = plan({ mpquic: { name: "ecf", options: { beta: "1" } } });
    assert.deepEqual(validatePlan(good, "p.plan.json"), []);
    const cell = { site: "two-frames", network: "n", serverModel: "out-of-order", priority: "none", run: 0 } as const;
    assert.deepEqual(cellConfiguration(good as any, { ...cell, protocol: "h3", transport: "mpquic", scheduler: "ecf beta=1" }).scheduler, { name: "ecf", options: { beta: "1" } });
    assert.deepEqual(cellConfiguration(good as any, { ...cell, protocol: "h2", transport: "mptcp", scheduler: "default" }).scheduler, { name: "default", options: {} }, "mptcp runs the plan format's default, named");
    assert.deepEqual(validatePlan(plan({ mpquic: { name: "ecf" } }, { transports: ["mptcp"], protocols: ["h2"], connectionsPerOrigin: { h2: 1 } }), "p.plan.json"), [
      "p.plan.json: /scheduler/mpquic: the plan runs no mpquic (it is not in /transports), so its scheduler would never be used",
    ]);
    assert.deepEqual(validatePlan(plan({ quic: { name: "ecf" } }), "p.plan.json").length, 1);
    assert.deepEqual(validatePlan(plan({ mptcp: { name: "default", options: { x: "1" } } }), "p.plan.json"), ["p.plan.json: /scheduler/mptcp/options: the kernel's MPTCP schedulers take no options"]);
  });

  it("pagepath experiment refuses an unknown name, a bad option and a scheduler the kernel lacks, naming the file and pointer, before any run", async () => {
    const dir = join(tempDir("plan-scheduler"), "plans");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "p.plan.json");
    writeFileSync(file, JSON.stringify(plan({ mpquic: { name: "fastest" }, mptcp: { name: "blest" } })));
    const r = await runCli(["experiment", file]);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /p\.plan\.json: \/scheduler\/mpquic: unknown scheduler "fastest"; choose one of lowest-rtt, round-robin, .*minrtt, roundrobin/);
    assert.match(r.stderr, /p\.plan\.json: \/scheduler\/mptcp: blest: this kernel's MPTCP has no such scheduler; net\.mptcp\.available_schedulers lists default/);
    writeFileSync(file, JSON.stringify(plan({ mpquic: { name: "blest", options: { lambda: "x" } } })));
    const opt = await runCli(["experiment", file]);
    assert.match(opt.stderr, /p\.plan\.json: \/scheduler\/mpquic: scheduler option lambda=x: expected a number/);
    assert.ok(!existsSync(join(dir, "p")), "nothing was written for the plan");
  });
});
