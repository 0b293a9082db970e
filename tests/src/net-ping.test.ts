import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { runCli } from "./cli-run.js";
import { tempDir } from "./fixture-profile.js";
import { withTopology } from "./net-topology.js";
import { unlessCpuStolen } from "./stolen-cpu.js";

describe("pagepath net ping", { skip: process.getuid?.() !== 0 ? "needs root for the topology" : false }, () => {
  it("measures each path's round trip and loss through the emulated links", async (t) => {
    const file = join(tempDir("net-ping"), "two.topology.json");
    const direction = (delayMs: number, loss = 0) => ({ delayMs, rateMbit: 50, loss, queue: { type: "droptail", packets: 100 } });
    writeFileSync(file, JSON.stringify({ schemaVersion: 1, seed: 3, mptcp: false, paths: [
      { name: "near", uplink: direction(10), downlink: direction(10) },
      { name: "far", uplink: direction(60), downlink: direction(60, 0.25) },
    ] }));
    await unlessCpuStolen(t, () => withTopology("tping", [file], async () => {
      const r = await runCli(["net", "ping", "tping", "--count", "40", "--interval-ms", "10", "--json"]);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      const [near, far] = JSON.parse(r.stdout) as { path: string; from: string; to: string; report: { sent: number; received: number; rttMs: { p50: number } } }[];
      assert.deepEqual([near!.path, near!.from, near!.to], ["near", "10.10.0.2", "10.10.0.1"]);
      assert.ok(near!.report.rttMs.p50 >= 20 && near!.report.rttMs.p50 < 25, `near: median ${near!.report.rttMs.p50} ms for 2 x 10 ms`);
      assert.ok(far!.report.rttMs.p50 >= 120 && far!.report.rttMs.p50 < 126, `far: median ${far!.report.rttMs.p50} ms for 2 x 60 ms`);
      assert.equal(near!.report.received, 40);
      // 25% of replies lost on the way back: 30 of 40 expected; 20-38 holds with probability above 0.999.
      assert.ok(far!.report.received >= 20 && far!.report.received <= 38, `far: ${far!.report.received} of 40 replies with 25% loss one way`);
      const text = await runCli(["net", "ping", "tping", "--count", "3", "--interval-ms", "5"]);
      assert.match(text.stdout, /^near \(10\.10\.0\.2 -> 10\.10\.0\.1\): 3 sent, 3 received, 0\.0% loss; rtt min\/median\/mean\/p90\/max [\d./]+ ms$/m);
    }));
    const gone = await runCli(["net", "ping", "tping"]);
    assert.equal(gone.code, 1);
    assert.match(gone.stderr, /pagepath net ping: .*no topology named "tping"/);
    const usage = await runCli(["net", "ping"]);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /expected the name of one topology/);
    assert.match((await runCli(["net", "ping", "--help"])).stdout, /usage: pagepath net ping NAME/);
  });
});
