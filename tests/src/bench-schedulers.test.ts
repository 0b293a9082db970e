/**
 * `pagepath bench schedulers` in the parts that run in seconds: the decision-cost binary times every
 * scheduler the registry has (its names as pagepath-server lists them, not a list kept here), and
 * the verb refuses bad arguments before measuring anything. No timing floors: the machine decides those.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { describe, it } from "node:test";
import { promisify } from "node:util";
import { runCli } from "./cli-run.js";

const run = promisify(execFile);
const RELEASE = join(process.cwd(), "replay", "target", "release");
const BENCH = join(RELEASE, "pagepath-scheduler-bench");

async function registeredSchedulers(): Promise<string[]> {
  const { stdout } = await run(join(RELEASE, "pagepath-server"), ["schedulers"]);
  return JSON.parse(stdout).schedulers.filter((s: any) => s.family === "pagepath").map((s: any) => s.name);
}

describe("pagepath bench schedulers", () => {
  it("times every registered scheduler on 1 and 20 streams, each driving the synthetic sender", async () => {
    const names = await registeredSchedulers();
    assert.ok(names.length >= 5, `pagepath-server lists ${names.join(", ")}`);
    const { stdout } = await run(BENCH, ["--decisions", "200", "--repetitions", "2"]);
    const rows = stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l));
    for (const streams of [1, 20]) {
      const timed = rows.filter((r) => r.streams === streams);
      assert.deepEqual(timed.map((r) => r.scheduler).sort(), [...names].sort(), `${streams} streams`);
      for (const r of timed) {
        assert.ok(r.nsPerDecision > 0 && r.nsP25 > 0 && r.nsP25 <= r.nsP75, JSON.stringify(r));
        assert.equal(r.decisions, 200, `${r.scheduler} stopped early: ${JSON.stringify(r)}`);
        assert.equal(r.repetitions, 2);
        assert.ok(r.packetsPerPath[0] + r.packetsPerPath[1] > 50, `${r.scheduler} hardly sent: ${JSON.stringify(r)}`);
      }
      assert.equal(timed.find((r) => r.scheduler === "lowest-rtt")?.ratioToLowestRtt, 1);
    }
  });

  it("the decision-cost binary refuses a bad count, naming it", async () => {
    const e: any = await run(BENCH, ["--decisions", "5"]).then(() => null, (x) => x);
    assert.equal(e?.code, 2);
    assert.match(e.stderr, /--decisions 5: expected a whole number from 10/);
  });

  it("the verb refuses bad arguments with a usage error naming them", async () => {
    for (const [args, message] of [
      [["--megabytes", "0"], /--megabytes "0": expected a number from 1/],
      [["--megabytes", "1.5"], /--megabytes "1.5": expected a whole number/],
      [["--loads", "2.5"], /--loads "2.5": expected a whole number/],
      [["--loads", "many"], /--loads "many": expected a number/],
    ] as const) {
      const r = await runCli(["bench", "schedulers", ...args, "--out", "/nonexistent/never-written"]);
      assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
      assert.match(r.stderr, message);
    }
  });
});
