import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { runCli } from "./cli-run.js";
import { tempDir } from "./fixture-profile.js";

/** A manifest the recording reader accepts, of a recording with or without a trace. */
function recordingWithoutTraceFile(dir: string, traceListed: boolean): void {
  mkdirSync(dir, { recursive: true });
  const manifest = {
    schemaVersion: 1,
    kind: "pagepath-recording",
    tool: { name: "pagepath", version: "test" },
    url: "https://www.fixture.test/",
    finalUrl: "https://www.fixture.test/",
    status: "complete",
    reason: null,
    startedAt: "2026-01-01T00:00:00.000Z",
    durationMs: 1000,
    browser: { product: "Chrome/0", userAgent: "", executablePath: "" },
    conditions: { cpuThrottlingRate: 1, network: null, device: null },
    stopPolicy: { quietMs: 500, capMs: 10000 },
    stoppedBy: "quiet",
    redaction: { enabled: true, headers: [] },
    traceCategories: [],
    frameTree: null,
    lifecycle: { navigationStartMonotonic: 0, navigationStartWallTime: 0, domContentLoaded: null, load: null, firstPaint: null, firstContentfulPaint: null, largestContentfulPaint: null, frames: [] },
    files: { events: true, trace: traceListed, archive: true },
    counts: { events: 0, traceEvents: 0, requests: 0, bodies: 0, failedRequests: 0 },
  };
  writeFileSync(join(dir, "manifest.json"), JSON.stringify(manifest));
}

/** `pagepath lantern` on what it cannot simulate names the path and what is missing, and prints no predictions. */
describe("pagepath lantern: bad input", () => {
  const root = tempDir("lantern-bad");

  it("a folder that does not exist is named as such", async () => {
    const missing = join(root, "no-such-recording");
    const r = await runCli(["lantern", missing]);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, "");
    assert.equal(r.stderr.trim(), `pagepath lantern: ${missing}: no such directory`);
  });

  it("a recording made without a trace says Lantern needs one", async () => {
    const dir = join(root, "no-trace");
    recordingWithoutTraceFile(dir, false);
    const r = await runCli(["lantern", dir]);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, "");
    assert.equal(r.stderr.trim(), `pagepath lantern: ${dir}/trace.json: the recording has no trace (recorded with --no-trace, or tracing failed), and Lantern works from the trace`);
  });

  it("a trace the manifest lists but that is gone is named", async () => {
    const dir = join(root, "trace-gone");
    recordingWithoutTraceFile(dir, true);
    const r = await runCli(["lantern", dir]);
    assert.equal(r.code, 1);
    assert.equal(r.stderr.trim(), `pagepath lantern: ${dir}/trace.json: missing, though the manifest lists it`);
  });

  it("a trace with no navigation cannot be simulated, and says why", async () => {
    const dir = join(root, "empty-trace");
    recordingWithoutTraceFile(dir, true);
    writeFileSync(join(dir, "trace.json"), JSON.stringify({ traceEvents: [] }));
    const r = await runCli(["lantern", dir]);
    assert.equal(r.code, 1);
    assert.equal(r.stderr.trim(), `pagepath lantern: ${dir}/trace.json: the trace has no navigationStart for the main frame`);
    assert.equal(r.stdout, "");
  });

  it("no recording, or a rate that is not a number, is a usage error", async () => {
    const none = await runCli(["lantern"]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /^pagepath lantern: expected exactly one recording directory\n/);
    const bad = await runCli(["lantern", root, "--rate-mbit", "fast"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^pagepath lantern: --rate-mbit "fast": expected a number/);
  });
});
