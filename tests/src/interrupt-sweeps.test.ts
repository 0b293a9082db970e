/**
 * A sweep (`pagepath experiment`, `pagepath accuracy`) stopped mid-run by Ctrl-C (SIGINT to its
 * whole group, as a terminal sends it) or by SIGTERM to the pagepath process alone (`kill PID`):
 * nothing of the run under way may outlive it (topology, emulator, replay server, browser), the
 * runs file keeps only complete lines of finished runs, and the same command resumes.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { cellId, cellOf, readExperiment, type RunResult } from "@pagepath/results";
import { CLI, runCli } from "./cli-run.js";
import { tempDir } from "./fixture-profile.js";
import { assertNoneMarked, assertTopologyGone, groupAlive, interrupt, marked, newMark, startGroup, until } from "./interrupt-group.js";
import { NET } from "./net-topology.js";
import { network, samplePlan } from "./results-fixture.js";

const SITE = "rules-thesis-example";
let data = "";

const lines = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : []);

interface Sweep {
  command: string[];
  runsFile: string;
  /** What shows that a run after the first recorded one is under way. */
  underWay: RegExp;
  signal: "SIGINT" | "SIGTERM";
}

/**
 * Starts the sweep, interrupts it once a line is recorded and the next run is under way, checks
 * that nothing is left, and returns the runs file's lines as they were then.
 */
async function interruptSweep(s: Sweep): Promise<string[]> {
  const mark = newMark("sweep");
  const group = startGroup([process.execPath, CLI, ...s.command], { PAGEPATH_TEST_MARK: mark });
  let topologies: string[] = [];
  try {
    await until("a recorded line", () => (lines(s.runsFile).length > 0 ? true : undefined), group.output, 60_000);
    await until(`a run under way (${s.underWay})`, () => (marked(mark).some((p) => s.underWay.test(p.cmdline)) ? true : undefined), group.output, 30_000);
    topologies = marked(mark).flatMap((p) => /pagepath-net up .*--name (\S+)/.exec(p.cmdline)?.[1] ?? []);
    assert.ok(topologies.length > 0, "the run's topology is up");
    await sleep(500);
    await interrupt(group, s.signal, s.signal === "SIGINT" ? "group" : "leader");
    assert.equal(group.child.exitCode, s.signal === "SIGINT" ? 130 : 143, group.output());
    assert.match(group.output(), /stopping: the (runs|load) under way (are|is) dropped/);
    // What the sweep started is killed before it exits.
    await assertNoneMarked(mark, group.output);
    for (const t of topologies) await assertTopologyGone(t);
    const kept = readFileSync(s.runsFile, "utf8");
    assert.ok(kept.endsWith("\n"), "the runs file ends with a complete line");
    for (const line of lines(s.runsFile)) assert.equal((JSON.parse(line) as RunResult).status, "ok", "only finished runs are recorded, not the interrupted one");
    return lines(s.runsFile);
  } finally {
    if (groupAlive(group.child.pid!)) process.kill(-group.child.pid!, "SIGKILL");
    for (const p of marked(mark)) process.kill(p.pid, "SIGKILL");
    for (const t of topologies) spawnSync(NET, ["down", t], { stdio: "ignore" });
  }
}

describe("an interrupted sweep leaves nothing running and a runs file it resumes from", () => {
  before(async () => {
    data = join(tempDir("interrupt-sweeps"), "data");
    const built = await runCli(["corpus", "build", "--data", data, "--only", SITE, "--quiet-ms", "1000"], 5 * 60_000);
    assert.equal(built.code, 0, built.stdout + built.stderr);
  });

  /** TEST INPUT: two Chromium runs on a slow link (a load takes about 3 s), so the second is under way when the signal comes. */
  function experimentPlan(name: string): { plan: string; out: string; runsFile: string } {
    const dir = join(data, "..");
    const plan = join(dir, `${name}.plan.json`);
    const p = samplePlan(name, { client: "chromium", sites: [{ name: SITE, graph: `data/graphs/${SITE}.json` }], networks: [network(1, 400)], protocols: ["h2"], runs: 2, connectionsPerOrigin: { h2: null }, timeoutMs: 60_000 });
    writeFileSync(plan, JSON.stringify(p, null, 2));
    return { plan, out: join(dir, name), runsFile: join(dir, name, `${name}.runs.jsonl`) };
  }

  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    it(`pagepath experiment, ${signal === "SIGINT" ? "Ctrl-C" : "SIGTERM to its process"} during Chromium's run: nothing left, the run is not recorded, and the same command resumes`, async () => {
      const x = experimentPlan(`intr${signal === "SIGINT" ? "int" : "term"}`);
      const command = ["experiment", x.plan, "--out", x.out, "--workers", "1"];
      const kept = await interruptSweep({ command, runsFile: x.runsFile, underWay: /\/chromium\/chrom(e|ium) /, signal });
      assert.equal(kept.length, 1);
      const again = await runCli(command, 60_000);
      assert.equal(again.code, 0, again.stdout + again.stderr);
      assert.match(again.stderr, /2 runs; 1 to go/);
      const read = readExperiment(x.runsFile.replace(/\.runs\.jsonl$/, ".plan.json"));
      assert.deepEqual(read.warnings, []);
      assert.equal(new Set(read.runs.map((r) => cellId(cellOf(r)))).size, 2, "one line per cell");
      assert.equal(read.runs.length, 2);
      assert.ok(readFileSync(x.runsFile, "utf8").startsWith(kept.join("\n") + "\n"), "the lines kept are resumed from, not rewritten");
    });
  }

  // Ctrl-C while the emulated browser loads; SIGTERM while Chromium does (puppeteer's own SIGTERM listener would close it and let the sweep go on).
  for (const [signal, clients, runs, underWay] of [
    ["SIGINT", "chromium,emulated", 1, /pagepath-browser run /],
    ["SIGTERM", "chromium", 2, /\/chromium\/chrom(e|ium) /],
  ] as const) {
    it(`pagepath accuracy, ${signal === "SIGINT" ? "Ctrl-C" : "SIGTERM to its process"} during a load (--clients ${clients}): nothing left, the load is not recorded, and the same command resumes`, async () => {
      const out = join(data, "..", `accuracy-${signal}`);
      const command = ["accuracy", "--data", data, "--sites", SITE, "--conditions", "1:400", "--protocols", "h2", "--runs", String(runs), "--clients", clients, "--out", out];
      const runsFile = join(out, "runs.jsonl");
      const kept = await interruptSweep({ command, runsFile, underWay, signal });
      assert.equal(kept.length, 1);
      const again = await runCli(command, 60_000);
      assert.equal(again.code, 0, again.stdout + again.stderr);
      assert.match(again.stderr, /= 2 loads, 1 already in /);
      const all = lines(runsFile);
      assert.equal(all.length, 2);
      const keys = all.map((l) => JSON.parse(l) as RunResult).map((r) => `${r.client} ${r.run}`);
      assert.equal(new Set(keys).size, 2, `one line per load: ${keys.join(", ")}`);
      assert.equal(all[0], kept[0], "the line kept is resumed from, not rewritten");
    });
  }
});
