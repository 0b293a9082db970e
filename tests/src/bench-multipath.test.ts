/**
 * `pagepath bench multipath`, small: one load of each configuration, checked for what it must
 * report (every configuration finished, the reference at ratio 1, the bytes over the paths used,
 * CPU counted for each part). No timing floors: the machine decides those.
 */
import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { MultipathCostResult } from "@pagepath/bench";
import { runCli } from "./cli-run.js";
import { tempDir } from "./fixture-profile.js";

describe("pagepath bench multipath", () => {
  const out = tempDir("bench-multipath");
  after(() => rmSync(out, { recursive: true, force: true }));

  it("downloads over single-path QUIC and multipath QUIC on 1, 2 and 3 paths, with the CPU each part used", async () => {
    const r = await runCli(["bench", "multipath", "--loads", "1", "--megabytes", "20", "--out", out], 180_000);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const result: MultipathCostResult = JSON.parse(readFileSync(join(out, "multipath.json"), "utf8"));
    assert.deepEqual(result.rows.map((row) => [row.transport, row.paths]), [["quic", 1], ["mpquic", 1], ["mpquic", 2], ["mpquic", 3]]);
    assert.equal(result.rows[0]!.ratio, 1, "single-path QUIC is the reference");
    for (const row of result.rows) {
      assert.deepEqual(row.failed, [], row.label);
      assert.ok(row.mbps! > 10, `${row.label}: ${row.mbps} Mbit/s`);
      assert.equal(row.pathBytes!.length, row.paths);
      assert.ok(row.pathBytes!.reduce((a, b) => a + b, 0) >= 20_000_000, `${row.label} received ${row.pathBytes}`);
      const cpu = row.cpu!;
      assert.ok(cpu.client > 0 && cpu.server > 0 && cpu.emulator > 0, `${row.label}: ${JSON.stringify(cpu)}`);
      assert.ok(cpu.machine <= result.cores && cpu.machine >= Math.max(cpu.client, cpu.server, cpu.emulator) * 0.5, `${row.label}: ${JSON.stringify(cpu)}`);
    }
    assert.match(r.stdout, /multipath QUIC, 3 paths +\d+ +\d\.\d{3}/);
  });

  it("refuses bad arguments with a usage error naming them", async () => {
    for (const [args, message] of [
      [["--megabytes", "0"], /--megabytes "0": expected a number from 1/],
      [["--megabytes", "2.5"], /--megabytes "2.5": expected a whole number/],
      [["--loads", "1.5"], /--loads "1.5": expected a whole number/],
    ] as const) {
      const r = await runCli(["bench", "multipath", ...args, "--out", "/nonexistent/never-written"]);
      assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
      assert.match(r.stderr, message);
    }
  });
});
