import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { RunResult } from "@pagepath/results";
import { compareWithChromium, type LanternCell } from "@pagepath/cli/dist/src/lantern-errors.js";
import { accuracySample } from "@pagepath/cli/dist/src/verbs/accuracy-report.js";

/** A run result with only what its accuracy sample reads: the rest of a run does not change it. */
function run(site: string, condition: string, client: "chromium" | "emulated", metrics: Record<string, number | null>, status = "ok", protocol = "h2", transport = "tcp"): RunResult {
  return { site: { name: site }, configuration: { network: { name: condition }, protocol, transport }, client, status, metrics } as unknown as RunResult;
}

const cell = (site: string, condition: string, fcpMs: number | null, lcpMs: number | null, interactiveMs: number | null, error: string | null = null): LanternCell => ({ site, condition, fcpMs, lcpMs, interactiveMs, error });

describe("Lantern's error beside the emulated browser's", () => {
  const runs = [
    // Chromium's median is the reference: 1000 ms of load and 400 ms of FCP in a; a failed run is left out.
    run("a", "10mbit-40ms", "chromium", { loadMs: 900, firstContentfulPaintMs: 400, largestContentfulPaintMs: 500 }),
    run("a", "10mbit-40ms", "chromium", { loadMs: 1000, firstContentfulPaintMs: 400, largestContentfulPaintMs: 500 }),
    run("a", "10mbit-40ms", "chromium", { loadMs: 1100, firstContentfulPaintMs: 400, largestContentfulPaintMs: 500 }),
    run("a", "10mbit-40ms", "chromium", { loadMs: 99_999, firstContentfulPaintMs: 1, largestContentfulPaintMs: 1 }, "timeout"),
    run("a", "10mbit-40ms", "emulated", { loadMs: 1100, firstContentfulPaintMs: 440, largestContentfulPaintMs: 450 }),
    run("b", "10mbit-40ms", "chromium", { loadMs: 2000, firstContentfulPaintMs: 1000, largestContentfulPaintMs: null }),
    run("b", "10mbit-40ms", "emulated", { loadMs: 1800, firstContentfulPaintMs: 1200, largestContentfulPaintMs: null }),
  ];
  const lantern = [cell("a", "10mbit-40ms", 300, 600, 1500), cell("b", "10mbit-40ms", null, null, null, "no navigation")];
  const [fcp, lcp, load] = compareWithChromium(lantern, runs.map(accuracySample));

  it("compares each predictor's value with Chromium's median of its ok runs, per site and condition", () => {
    assert.equal(fcp!.metric, "FCP");
    assert.deepEqual(fcp!.cells[0], { site: "a", condition: "10mbit-40ms", chromiumMs: 400, emulatedMs: 440, lanternMs: 300, emulatedErrorPercent: 10, lanternErrorPercent: -25 });
    // b is listed, but left out of both figures: Lantern has no value there.
    assert.deepEqual(fcp!.cells[1], { site: "b", condition: "10mbit-40ms", chromiumMs: 1000, emulatedMs: 1200, lanternMs: null, emulatedErrorPercent: 20, lanternErrorPercent: null });
    assert.deepEqual(fcp!.emulated, { cells: 1, medianApePercent: 10, p90ApePercent: 10 });
    assert.deepEqual(fcp!.lantern, { cells: 1, medianApePercent: 25, p90ApePercent: 25 });
  });

  it("a cell without Chromium's value for the metric is not compared", () => {
    assert.deepEqual(lcp!.cells.map((c) => c.site), ["a"]);
    assert.equal(lcp!.lantern.medianApePercent, 20);
    assert.equal(lcp!.emulated.medianApePercent, 10);
  });

  it("sets Lantern's Interactive beside Chromium's load, as Lantern predicts no load event", () => {
    assert.equal(load!.metric, "load");
    assert.equal(load!.lanternLabel, "Interactive");
    assert.deepEqual(load!.lantern, { cells: 1, medianApePercent: 50, p90ApePercent: 50 });
    assert.deepEqual(load!.emulated, { cells: 1, medianApePercent: 10, p90ApePercent: 10 });
  });
});

describe("Lantern beside runs of several stacks", () => {
  const runs = [
    run("a", "10mbit-40ms", "chromium", { loadMs: 1000, firstContentfulPaintMs: 400, largestContentfulPaintMs: 500 }),
    run("a", "10mbit-40ms", "emulated", { loadMs: 1000, firstContentfulPaintMs: 400, largestContentfulPaintMs: 500 }),
    run("a", "10mbit-40ms", "chromium", { loadMs: 2000, firstContentfulPaintMs: 800, largestContentfulPaintMs: 900 }, "ok", "h2", "mptcp"),
    run("a", "10mbit-40ms", "emulated", { loadMs: 2200, firstContentfulPaintMs: 800, largestContentfulPaintMs: 900 }, "ok", "h2", "mptcp"),
  ];
  const comparisons = compareWithChromium([cell("a", "10mbit-40ms", 400, 500, 1000)], runs.map(accuracySample));

  it("compares each stack's runs apart, never pooling HTTP/2 over TCP with HTTP/2 over MPTCP", () => {
    assert.deepEqual(comparisons.map((c) => `${c.stack} ${c.metric}`), ["h2 FCP", "h2 LCP", "h2 load", "h2/mptcp FCP", "h2/mptcp LCP", "h2/mptcp load"]);
    const load = comparisons.filter((c) => c.metric === "load");
    assert.deepEqual(load.map((c) => c.cells[0]!.chromiumMs), [1000, 2000]);
    assert.deepEqual(load.map((c) => c.emulated.medianApePercent), [0, 10]);
  });
});
