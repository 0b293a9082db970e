import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { replaySummary } from "@pagepath/cli/dist/src/verbs/replay-summary.js";
import { pathShares } from "@pagepath/results";
import { twoPathRun } from "./two-path-run.js";

describe("pagepath replay's summary of a run", () => {
  it("gives each path's share of the bytes and the scheduler beside the load time", () => {
    const lines = replaySummary(twoPathRun(), "runs/two-frames.json").split("\n");
    assert.equal(lines[1], "  DOMContentLoaded 150 ms, load 195 ms, whole graph 195 ms");
    assert.equal(lines[2], "  first contentful paint not measured, largest contentful paint not measured", "a run made before the paint metrics");
    assert.equal(lines[3], "  scheduler: ecf beta=1");
    // Wire: 38527 and 8391 bytes down; responses: 27340 and 7300 bytes (the requests' paths summed).
    assert.equal(lines[4], "  bytes down on the wire: path 0 82% (39 kB), path 1 18% (8 kB); response bytes sent: path 0 79% (27 kB), path 1 21% (7 kB)");
  });

  it("says what was not recorded rather than share out unknown bytes", () => {
    const run = twoPathRun();
    run.requests = run.requests!.map((q) => ({ ...q, paths: null }));
    run.paths[1]!.bytesDown = null;
    delete run.configuration.scheduler;
    const lines = replaySummary(run, "runs/two-frames.json").split("\n");
    assert.equal(lines[3], "  scheduler: not recorded");
    assert.equal(lines[4], "  bytes down on the wire: path 0 ?% (39 kB), path 1 ?% (?); response bytes sent: not recorded per path");
    assert.deepEqual(pathShares(run).map((s) => [s.wireShare, s.responseBytes]), [[null, null], [null, null]]);
  });

  it("gives the paints beside DCL and load, and why a page has no LCP", () => {
    const run = twoPathRun();
    run.metrics = { ...run.metrics, firstContentfulPaintMs: 120.4, largestContentfulPaintMs: 180.6 };
    assert.equal(replaySummary(run, "runs/x.json").split("\n")[2], "  first contentful paint 120 ms, largest contentful paint 181 ms");
    run.metrics = { ...run.metrics, largestContentfulPaintMs: null, largestContentfulPaintMissing: "no largest contentful paint candidate in the main frame" };
    assert.equal(replaySummary(run, "runs/x.json").split("\n")[2], "  first contentful paint 120 ms, largest contentful paint not measured (no largest contentful paint candidate in the main frame)");
  });

  it("prints no shares for a single-path run", () => {
    const run = twoPathRun();
    run.configuration = { ...run.configuration, transport: "quic", scheduler: null, network: { name: "one", paths: [run.configuration.network.paths[0]!] } };
    run.paths = [run.paths[0]!];
    const text = replaySummary(run, "runs/x.json");
    assert.doesNotMatch(text, /scheduler|share|on the wire/);
    assert.match(text.split("\n")[3]!, /^  5 requests over 2 connections; path 0: 39 kB down, 4 kB up$/);
  });
});
