import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { describe, it } from "node:test";
import { absolutePercentageError, accuracyScatterSvg, apeByConditionSvg, median, percentile, spearman, summariseAccuracy, type LoadSample } from "@pagepath/results";

const close = (a: number | null, b: number, what: string) => assert.ok(a !== null && Math.abs(a - b) < 1e-9, `${what}: ${a}, expected ${b}`);

/**
 * TEST INPUT, not measurements: load times chosen so that every statistic can be worked out by hand.
 * Medians: alpha/fast Chromium 120, emulated 129 (APE 7.5); alpha/slow 450 vs 360 (20); beta/fast 200
 * vs 240 (20, one emulated run without a load time); beta/slow 900 vs 300 (66.67). gamma's and delta's
 * cells lack a client's load times.
 */
const samples: LoadSample[] = [
  ...[100, 140, 120].map((loadMs) => ({ site: "alpha", condition: "fast", client: "chromium" as const, loadMs })),
  ...[132, 126].map((loadMs) => ({ site: "alpha", condition: "fast", client: "emulated" as const, loadMs })),
  ...[400, 500].map((loadMs) => ({ site: "alpha", condition: "slow", client: "chromium" as const, loadMs })),
  { site: "alpha", condition: "slow", client: "emulated", loadMs: 360 },
  { site: "beta", condition: "fast", client: "chromium", loadMs: 200 },
  ...[250, null, 230].map((loadMs) => ({ site: "beta", condition: "fast", client: "emulated" as const, loadMs })),
  ...[800, 1000, 900].map((loadMs) => ({ site: "beta", condition: "slow", client: "chromium" as const, loadMs })),
  { site: "beta", condition: "slow", client: "emulated", loadMs: 300 },
  ...[null, null].map((loadMs) => ({ site: "gamma", condition: "fast", client: "chromium" as const, loadMs })),
  { site: "gamma", condition: "fast", client: "emulated", loadMs: 300 },
  { site: "gamma", condition: "slow", client: "emulated", loadMs: 500 },
  { site: "delta", condition: "fast", client: "chromium", loadMs: null },
];

/** Parses an SVG with a real XML parser (Python's), failing on anything not well-formed; returns its circles. */
function circles(svg: string): { cx: number; cy: number; title: string }[] {
  const script = `
import json, sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.fromstring(sys.stdin.buffer.read())
assert root.tag == ns + "svg", root.tag
print(json.dumps([{"cx": float(c.get("cx")), "cy": float(c.get("cy")), "title": c.find(ns + "title").text} for c in root.iter(ns + "circle")]))`;
  return JSON.parse(execFileSync("python3", ["-c", script], { input: svg, encoding: "utf8" })) as { cx: number; cy: number; title: string }[];
}

describe("accuracy of the emulated browser against Chromium", () => {
  it("medians and percentiles interpolate linearly between ranks", () => {
    assert.equal(median([5, 1, 3]), 3);
    assert.equal(median([4, 1, 3, 2]), 2.5);
    close(percentile([1, 2, 3, 4], 90), 3.7, "p90 of 1..4");
    close(percentile([10, 20, 30, 40, 50], 25), 20, "p25 of 10..50");
    close(percentile([10, 20], 10), 11, "p10 of 10, 20");
    assert.equal(percentile([7, 3, 9], 0), 3);
    assert.equal(percentile([7, 3, 9], 100), 9);
    assert.equal(percentile([42], 90), 42);
    assert.throws(() => percentile([], 50), /no values/);
    assert.throws(() => percentile([1], 101), /p must be from 0 to 100/);
  });

  it("absolute percentage errors are relative to the actual value", () => {
    close(absolutePercentageError(110, 100), 10, "over");
    close(absolutePercentageError(75, 100), 25, "under");
    assert.throws(() => absolutePercentageError(5, 0), /above 0/);
  });

  it("Spearman's correlation averages tied ranks; null when too few pairs or no variation", () => {
    assert.equal(spearman([1, 2, 3, 4, 5], [2, 4, 6, 8, 10]), 1);
    assert.equal(spearman([1, 2, 3], [30, 20, 10]), -1);
    // ys ranks with the tie at 7: 1, 2, 3.5, 5, 3.5; Pearson of those with 1..5 is 8 / sqrt(10 x 9.5).
    close(spearman([1, 2, 3, 4, 5], [5, 6, 7, 8, 7]), 8 / Math.sqrt(95), "with ties");
    // No ties: 1 - 6 sum(d^2) / (n (n^2 - 1)) with d = 0, 1, 0, -1.
    close(spearman([129, 360, 240, 300], [120, 450, 200, 900]), 0.8, "four cells");
    assert.equal(spearman([1, 2], [2, 1]), null);
    assert.equal(spearman([1, 2, 3], [4, 4, 4]), null);
    assert.throws(() => spearman([1, 2, 3], [1, 2]), /pairs/);
  });

  it("summarises cells by their medians and lists the cells it cannot compare, with the reason", () => {
    const s = summariseAccuracy(samples);
    assert.deepEqual(
      s.cells.map((c) => [c.site, c.condition, c.chromium.medianMs, c.emulated.medianMs]),
      [
        ["alpha", "fast", 120, 129],
        ["alpha", "slow", 450, 360],
        ["beta", "fast", 200, 240],
        ["beta", "slow", 900, 300],
      ],
    );
    const betaFast = s.cells[2]!;
    assert.deepEqual([betaFast.emulated.runs, betaFast.emulated.measured, betaFast.chromium.runs], [3, 2, 1]);
    close(s.cells[0]!.apePercent, 7.5, "alpha/fast APE");
    close(s.cells[1]!.signedErrorMs, -90, "alpha/slow signed error");
    close(s.cells[1]!.signedErrorPercent, -20, "alpha/slow signed %");
    close(s.cells[3]!.apePercent, 200 / 3, "beta/slow APE");
    assert.equal(s.overall.cells, 4);
    close(s.overall.medianApePercent, 20, "median APE");
    close(s.overall.p90ApePercent, 20 + 0.7 * (200 / 3 - 20), "p90 APE");
    close(s.overall.meanApePercent, (7.5 + 20 + 20 + 200 / 3) / 4, "mean APE");
    close(s.overall.spearman, 0.8, "Spearman");
    assert.deepEqual(
      s.largestErrorsFirst.map((c) => `${c.site}/${c.condition}`),
      ["beta/slow", "alpha/slow", "beta/fast", "alpha/fast"],
    );
    assert.deepEqual(
      s.missing.map((m) => [`${m.site}/${m.condition}`, m.reason]),
      [
        ["delta/fast", "the one chromium run has no load time; no emulated run"],
        ["gamma/fast", "none of the 2 chromium runs has a load time"],
        ["gamma/slow", "no chromium run"],
      ],
    );
  });

  it("with no comparable cell the overall figures are null, not zero", () => {
    const s = summariseAccuracy(samples.filter((x) => x.site === "gamma"));
    assert.deepEqual(s.overall, { cells: 0, medianApePercent: null, p90ApePercent: null, meanApePercent: null, spearman: null });
    assert.equal(s.missing.length, 2);
  });

  it("draws one point per cell on log axes, and APE dots per condition, as well-formed SVG", () => {
    const s = summariseAccuracy(samples);
    const svg = accuracyScatterSvg(s);
    assert.equal(svg, accuracyScatterSvg(summariseAccuracy(samples)), "the same summary gives the same bytes");
    const points = circles(svg);
    assert.equal(points.length, s.cells.length);
    assert.match(svg, /median APE 20%, Spearman ρ 0\.80/);
    // Further right for a slower Chromium, higher up (smaller y) for a slower emulator.
    const byChromium = [...s.cells].sort((a, b) => a.chromium.medianMs! - b.chromium.medianMs!).map((c) => `${c.site} / ${c.condition}`);
    assert.deepEqual([...points].sort((a, b) => a.cx - b.cx).map((p) => p.title.split(":")[0]), byChromium);
    const byEmulated = [...s.cells].sort((a, b) => a.emulated.medianMs! - b.emulated.medianMs!).map((c) => `${c.site} / ${c.condition}`);
    assert.deepEqual([...points].sort((a, b) => b.cy - a.cy).map((p) => p.title.split(":")[0]), byEmulated);
    // Log axes: horizontal distances go with the ratio of Chromium's medians, not their difference.
    const cx = (cell: string) => points.find((p) => p.title.startsWith(cell))!.cx;
    const ratio = (cx("alpha / slow") - cx("alpha / fast")) / (cx("beta / slow") - cx("beta / fast"));
    assert.ok(Math.abs(ratio - Math.log(450 / 120) / Math.log(900 / 200)) < 0.01, `distance ratio ${ratio}`);

    const ape = apeByConditionSvg(s);
    const dots = circles(ape);
    assert.equal(dots.length, s.cells.length);
    assert.ok(dots.every((d) => /APE \d/.test(d.title)));
    assert.equal(circles(accuracyScatterSvg(summariseAccuracy([]))).length, 0);
    assert.match(accuracyScatterSvg(summariseAccuracy([])), /median APE n\/a/);
  });
});
