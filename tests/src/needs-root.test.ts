import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { runCli, UNPRIVILEGED, type CliResult } from "./cli-run.js";
import { tempDir } from "./fixture-profile.js";
import { netnsList } from "./net-topology.js";
import { network, samplePlan } from "./results-fixture.js";

const SITE = "fixture-multi-origin";

/** pagepath net's refusal, which every verb that brings a topology up gives alike. */
const NEEDS_ROOT = "pagepath net needs root: it creates network namespaces and TUN devices (run it as root)";

/**
 * Run as root, the test drops to nobody for the CLI; run as anyone else, it is unprivileged already.
 * Each refusal must come before anything is written, so that a later run as root finds no runs
 * recorded as failed and no cell marked done.
 */
describe("verbs that run replays refuse to start without root, and record nothing", () => {
  const work = tempDir("needs-root");
  const data = join(work, "data");
  const graph = join(data, "graphs", `${SITE}.json`);
  const planFile = join(work, "plans", "nr.plan.json");
  const asNobody = (args: string[]) => runCli(args, 120_000, {}, process.getuid?.() === 0 ? UNPRIVILEGED : []);

  before(async () => {
    const built = await runCli(["corpus", "build", "--data", data, "--only", SITE, "--quiet-ms", "1500"], 5 * 60_000);
    assert.equal(built.code, 0, built.stdout + built.stderr);
    mkdirSync(join(work, "plans"));
    const plan = samplePlan("nr", { sites: [{ name: SITE, graph: `../data/graphs/${SITE}.json` }], networks: [network(10, 40)], protocols: ["h2"], runs: 1, connectionsPerOrigin: { h2: 1 } });
    writeFileSync(planFile, JSON.stringify(plan, null, 2));
    // Every folder writable by nobody: what stops a verb must be the missing root, not a permission.
    chmodSync(work, 0o777);
    execFileSync("chmod", ["-R", "a+rwX", work]);
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  async function refused(verb: string, args: string[]): Promise<CliResult> {
    const namespaces = await netnsList();
    const r = await asNobody([verb, ...args]);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.equal(r.stderr.trim(), `pagepath ${verb}: ${NEEDS_ROOT}`, "refused first, with pagepath net's own words");
    assert.deepEqual(await netnsList(), namespaces, "nothing was started");
    return r;
  }

  it("replay refuses as pagepath net does", async () => {
    const net = await asNobody(["net", "up", "--paths", "1"]);
    assert.equal(net.code, 2, net.stdout + net.stderr);
    assert.equal(net.stderr.trim(), `pagepath net: ${NEEDS_ROOT}`);
    const out = join(work, "replay.json");
    await refused("replay", [graph, "--client", "emulated", "--out", out]);
    assert.ok(!existsSync(out));
  });

  it("experiment refuses before writing the resolved plan or a run; --dry-run only checks, so it runs", async () => {
    const out = join(work, "experiment-out");
    await refused("experiment", [planFile, "--out", out]);
    assert.ok(!existsSync(out), "no resolved plan and no runs file");
    const badPlan = join(work, "plans", "bad.plan.json");
    writeFileSync(badPlan, JSON.stringify(samplePlan("bad", { runs: 0 })));
    const bad = await asNobody(["experiment", badPlan, "--out", out]);
    assert.equal(bad.code, 1, bad.stdout + bad.stderr);
    assert.match(bad.stderr, /bad\.plan\.json: \/runs: must be >= 1/, "the plan's own errors come first");
    const dry = await asNobody(["experiment", planFile, "--out", out, "--dry-run"]);
    assert.equal(dry.code, 0, dry.stdout + dry.stderr);
    assert.match(dry.stderr, /nr: 1 sites x 1 networks x \.\.\. = 1 runs; 1 to go/);
    assert.ok(!existsSync(join(out, "nr.runs.jsonl")), "a dry run records no run");
  });

  it("worker refuses before it connects to a queue or says it is ready", async () => {
    const r = await refused("worker", ["--redis", "redis://127.0.0.1:9"]);
    assert.doesNotMatch(r.stdout, /worker ready/);
  });

  it("accuracy refuses before writing its runs", async () => {
    const out = join(work, "accuracy-out");
    await refused("accuracy", ["--data", data, "--sites", SITE, "--conditions", "10:40", "--runs", "1", "--out", out]);
    assert.ok(!existsSync(out));
  });

  it("reproduce refuses before writing plans, runs or a report", async () => {
    const w = join(work, "reproduce-work");
    const out = join(work, "reproduce-out");
    await refused("reproduce", ["--data", data, "--sites", SITE, "--rates", "10", "--rtts", "40", "--work", w, "--out", out]);
    assert.ok(!existsSync(w) && !existsSync(out));
  });
});
