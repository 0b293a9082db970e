/**
 * The congestion controller and tail loss probes a user asks `pagepath replay` for reach the replay
 * servers, and the run result records them: the fixture page over one emulated path, h2 over TCP.
 * Also: a run whose connections ran another controller than asked says so in its warnings.
 */
import assert from "node:assert/strict";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { readRunResultFile } from "@pagepath/results";
import { congestionWarnings } from "@pagepath/runner";
import { runCli } from "./cli-run.js";
import { tempDir } from "./fixture-profile.js";
import { recordFixtureGraph } from "./fixture-graph.js";

describe("pagepath replay --congestion reno --tail-loss-probes off", { skip: process.getuid?.() !== 0 ? "needs root (pagepath replay)" : false }, () => {
  const work = tempDir("replay-knobs");
  const graphFile = join(work, "graph.json");
  before(async () => {
    await recordFixtureGraph(work);
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it("records both in the run result, and the servers' connections ran reno", async () => {
    const out = join(work, "reno.json");
    const args = ["replay", graphFile, "--client", "emulated", "--protocol", "h2", "--transport", "tcp", "--rate-mbit", "20", "--rtt-ms", "20", "--timeout", "60", "--out", out];
    const r = await runCli([...args, "--congestion", "reno", "--tail-loss-probes", "off"], 120_000);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const run = readRunResultFile(out);
    assert.equal(run.status, "ok", run.error ?? "");
    assert.equal(run.configuration.congestion, "reno");
    assert.equal(run.configuration.tailLossProbes, false);
    assert.deepEqual(run.warnings.filter((w) => w.startsWith("congestion control")), []);
    const logged = readFileSync(join(work, "reno.servers", "connections.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l).congestion);
    assert.ok(logged.length > 0, "the servers logged connections");
    assert.deepEqual([...new Set(logged)], ["reno"]);
  });
});

describe("a run's connections that ran another controller than asked", () => {
  it("are a warning naming what ran; connections that ran it, or did not say, are none", () => {
    const dir = tempDir("cc-ran");
    try {
      const lines = (names: (string | null)[]) => writeFileSync(join(dir, "connections.jsonl"), names.map((congestion, id) => JSON.stringify({ id, congestion }) + "\n").join(""));
      lines(["reno", null, "reno"]);
      assert.deepEqual(congestionWarnings(dir, "reno"), []);
      lines(["bbr", "reno", "bbr", null]);
      assert.deepEqual(congestionWarnings(dir, "reno"), ["congestion control: reno was asked for, but of the servers' 3 connections that say, 2 ran bbr (connections.jsonl)"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
