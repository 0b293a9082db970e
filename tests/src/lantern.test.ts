import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { RunningSite } from "@pagepath/corpus";
import { predictWithLantern, type LanternPrediction } from "@pagepath/lantern";
import { readManifest, recordPage, writeRecording, type Lifecycle } from "@pagepath/profiler";
import { runCli } from "./cli-run.js";
import { optionsFor, startFixture, tempDir } from "./fixture-profile.js";

/**
 * Lighthouse's Lantern run on a recording Chromium made of the multi-origin fixture: its inputs
 * come from our trace as recorded (no category is missing), and its predictions follow the link.
 */
describe("Lantern on a recording of the multi-origin fixture", () => {
  let site: RunningSite;
  let dir: string;
  let recorded: Lifecycle;
  let fast: LanternPrediction;
  let slow: LanternPrediction;
  const SLOW = { throughputMbit: 2, rttMs: 200 };

  before(async () => {
    site = await startFixture();
    dir = join(tempDir("lantern"), "rec");
    const { recording } = await recordPage(site.config.entry, optionsFor(site));
    writeRecording(dir, recording);
    recorded = readManifest(dir).lifecycle;
    fast = await predictWithLantern(dir, { throughputMbit: 1000, rttMs: 1 });
    slow = await predictWithLantern(dir, SLOW);
  });
  after(async () => site?.close());

  it("predicts FCP, LCP and Interactive as numbers, and no load event", () => {
    for (const p of [fast, slow]) {
      for (const v of [p.fcpMs, p.lcpMs, p.interactiveMs]) assert.ok(typeof v === "number" && Number.isFinite(v) && v > 0, `not a time: ${v}`);
      assert.equal(p.loadMs, null);
      assert.ok(p.lcpMs! >= p.fcpMs && p.interactiveMs! >= p.lcpMs!, JSON.stringify(p));
      assert.deepEqual(p.warnings, []);
    }
  });

  it("predicts later paints on a slower link, at least the round trips the HTML and its CSS need", () => {
    assert.ok(slow.fcpMs > fast.fcpMs && slow.lcpMs! > fast.lcpMs!, `slow ${slow.fcpMs}/${slow.lcpMs}, fast ${fast.fcpMs}/${fast.lcpMs}`);
    // Before the first paint, two origins one after the other (the HTML's, then its CSS's), each a
    // DNS lookup, TCP and TLS handshakes and a request: at least eight round trips of the simulated link.
    assert.ok(slow.fcpMs >= 8 * SLOW.rttMs, `FCP ${slow.fcpMs} ms on a ${SLOW.rttMs} ms RTT`);
  });

  it("on a fast link, predicts paints within a sane range of the recording's own", () => {
    // Lantern leaves out the time from navigation start to the document's request and CPU tasks
    // under 10 ms, so on loopback speeds it comes out earlier than Chromium, but not by 5x, nor later by 2x.
    const fcp = recorded.firstContentfulPaint!;
    const lcp = recorded.largestContentfulPaint!;
    assert.ok(fast.fcpMs >= fcp / 5 && fast.fcpMs <= fcp * 2, `Lantern FCP ${fast.fcpMs} ms, recorded ${fcp} ms`);
    assert.ok(fast.lcpMs! >= lcp / 5 && fast.lcpMs! <= lcp * 2, `Lantern LCP ${fast.lcpMs} ms, recorded ${lcp} ms`);
  });

  it("gives every origin the one link's RTT, and the server response times it read from the recording", () => {
    assert.equal(slow.settings.rttMs, SLOW.rttMs);
    assert.equal(slow.settings.throughputKbps, (SLOW.throughputMbit * 1e6) / 1024);
    const origins = Object.keys(slow.settings.serverResponseTimeByOriginMs).sort();
    assert.deepEqual(origins, ["https://ads.fixture.test", "https://api.fixture.test", "https://fonts.fixture.test", "https://static.fixture.test", "https://www.fixture.test"]);
    for (const ms of Object.values(slow.settings.serverResponseTimeByOriginMs)) assert.ok(ms > 0 && ms < 200, `server response ${ms} ms`);
  });

  it("pagepath lantern prints the same predictions as JSON", async () => {
    const r = await runCli(["lantern", dir, "--rate-mbit", String(SLOW.throughputMbit), "--rtt-ms", String(SLOW.rttMs)]);
    assert.equal(r.code, 0, r.stderr);
    const printed = JSON.parse(r.stdout) as LanternPrediction & { recording: string };
    assert.equal(printed.recording, dir);
    assert.equal(printed.fcpMs, slow.fcpMs);
    assert.equal(printed.lcpMs, slow.lcpMs);
    assert.equal(printed.interactiveMs, slow.interactiveMs);
    assert.equal(printed.loadMs, null);
  });
});
