/**
 * Issue 20's "done when": a two-path multipath QUIC replay of the demo page (the bundled
 * multi-origin site `pagepath demo` profiles) runs with every scheduler by name, and each run
 * records what both paths carried.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { readRunResultFile } from "@pagepath/results";
import { REPLAY_SERVER } from "@pagepath/runner";
import { runCli } from "./cli-run.js";
import { tempDir } from "./fixture-profile.js";
import { recordFixtureGraph } from "./fixture-graph.js";
import { withTopology } from "./net-topology.js";

/** Every name `--scheduler` takes, as the binary lists them: pagepath's registry and tquic's own. */
const names: { name: string; family: string }[] = JSON.parse(execFileSync(REPLAY_SERVER, ["schedulers"], { encoding: "utf8" })).schedulers;

describe("every multipath QUIC scheduler replays the demo page over two paths", { skip: process.getuid?.() !== 0 ? "needs root (pagepath replay)" : false }, () => {
  const work = tempDir("every-scheduler");
  const graphFile = join(work, "graph.json");
  before(async () => {
    await recordFixtureGraph(work);
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it(`runs each of the ${names.length} by name and records the bytes of both paths`, async () => {
    assert.ok(names.length >= 14, `the registry and tquic's two: ${names.map((n) => n.name).join(", ")}`);
    // Slow enough (4 Mbit/s) that the page's bytes back up on one path, as a scheduler must choose.
    await withTopology("rp-every", ["--paths", "2", "--delay-ms", "10", "--rate-mbit", "4"], async () => {
      const failures: string[] = [];
      for (const { name, family } of names) {
        const out = join(work, `${name}.json`);
        const r = await runCli(["replay", graphFile, "--client", "emulated", "--net", "rp-every", "--protocol", "h3", "--transport", "mpquic", "--scheduler", name, "--timeout", "60", "--out", out], 120_000);
        if (r.code !== 0) {
          failures.push(`${name}: exit ${r.code}: ${r.stderr.slice(-400)}`);
          continue;
        }
        const run = readRunResultFile(out);
        assert.equal(run.status, "ok", `${name}: ${run.error}`);
        assert.equal(run.configuration.scheduler?.name, name);
        // a scheduler that holds back what is not its to schedule (a FIN, control frames) stalls
        // a connection until its idle timeout, and the page goes on without its requests
        const stalled = run.warnings.filter((w) => /request failed|idle/.test(w));
        if (stalled.length > 0) failures.push(`${name}: ${stalled.join("; ")}`);
        const down = run.paths.map((p) => p.bytesDown ?? 0);
        if (!down.every((b) => b > 5_000)) failures.push(`${name}: the paths carried ${down.join(" and ")} bytes down`);
        const perRequest = (run.requests ?? []).map((q) => q.paths);
        if (family === "pagepath") {
          // every response's bytes, counted per path by the scheduler hook
          if (!perRequest.every((p) => p !== null && p !== undefined && p.length > 0)) failures.push(`${name}: a request has no per-path bytes`);
        } else if (!perRequest.every((p) => p === null || p === undefined)) {
          failures.push(`${name}: tquic's own scheduler has no hook to count per request, yet per-path bytes were recorded`);
        }
      }
      assert.deepEqual(failures, []);
    });
  });
});
