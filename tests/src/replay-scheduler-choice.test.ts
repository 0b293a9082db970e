/**
 * The scheduler a user asks `pagepath replay` for is the one the run ran with, and its result says
 * so: over two emulated paths, multipath QUIC with a scheduler of pagepath's and an option, with the
 * default, and MPTCP with the kernel's.
 */
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { readRunResultFile, type RunResult } from "@pagepath/results";
import { runCli } from "./cli-run.js";
import { tempDir } from "./fixture-profile.js";
import { recordFixtureGraph } from "./fixture-graph.js";

describe("pagepath replay records the multipath scheduler it ran", { skip: process.getuid?.() !== 0 ? "needs root (pagepath replay)" : false }, () => {
  const work = tempDir("replay-scheduler");
  const graphFile = join(work, "graph.json");
  before(async () => {
    await recordFixtureGraph(work);
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  async function replay(name: string, args: string[]): Promise<RunResult> {
    const out = join(work, `${name}.json`);
    const r = await runCli(["replay", graphFile, "--client", "emulated", "--paths", "2", "--rate-mbit", "20", "--rtt-ms", "20", "--timeout", "60", "--out", out, ...args], 120_000);
    assert.equal(r.code, 0, `${name}: ${r.stdout}${r.stderr}`);
    const run = readRunResultFile(out);
    assert.equal(run.status, "ok", `${name}: ${run.error}`);
    assert.equal(run.configuration.network.paths.length, 2);
    return run;
  }

  it("multipath QUIC: the scheduler and options asked for, lowest-rtt when none; MPTCP: the kernel's default", async () => {
    const ecf = await replay("ecf", ["--protocol", "h3", "--transport", "mpquic", "--scheduler", "ecf", "--scheduler-opt", "beta=1", "--scheduler-opt", "form=cwnd"]);
    assert.deepEqual(ecf.configuration.scheduler, { name: "ecf", options: { beta: "1", form: "cwnd" } });
    assert.ok(ecf.connections.every((c) => c.transport === "mpquic"), JSON.stringify(ecf.connections.map((c) => c.transport)));
    const plain = await replay("default", ["--protocol", "h3", "--transport", "mpquic"]);
    assert.deepEqual(plain.configuration.scheduler, { name: "lowest-rtt", options: {} });
    const mptcp = await replay("mptcp", ["--protocol", "h2", "--transport", "mptcp"]);
    assert.deepEqual(mptcp.configuration.scheduler, { name: "default", options: {} });
  });

  it("multipath QUIC with --backup 1: round-robin leaves the backup path alone while path 0 works", async () => {
    const run = await replay("backup", ["--protocol", "h3", "--transport", "mpquic", "--scheduler", "round-robin", "--backup", "1"]);
    assert.equal(run.configuration.network.paths[1]!.backup, true);
    assert.equal(run.configuration.network.paths[0]!.backup, undefined);
    const carried = (run.requests ?? []).flatMap((r) => r.paths ?? []);
    assert.ok(carried.some((p) => p.path === 0 && p.bytes > 0), "path 0 carried the responses");
    assert.deepEqual(carried.filter((p) => p.path === 1), [], "no response bytes on the backup path");
  });
});
