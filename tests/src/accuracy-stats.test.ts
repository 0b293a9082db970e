import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { describe, it } from "node:test";
import {
  absolutePercentageError,
  accuracyGroup,
  accuracyScatterSvg,
  apeByConditionSvg,
  compareClients,
  lcpElementKey,
  median,
  percentile,
  spearman,
  spread,
  summariseAccuracy,
  type AccuracySample,
  type AccuracySummary,
  type Client,
} from "@pagepath/results";

const close = (a: number | null, b: number, what: string) => assert.ok(a !== null && Math.abs(a - b) < 1e-9, `${what}: ${a}, expected ${b}`);

/**
 * TEST INPUT, not measurements: load times chosen so that every statistic can be worked out by hand.
 * Medians: alpha/fast Chromium 120, emulated 129 (APE 7.5); alpha/slow 450 vs 360 (20); beta/fast 200
 * vs 240 (20, one emulated run without a load time); beta/slow 900 vs 300 (66.67). gamma's and delta's
 * cells lack a client's load times.
 */
const loads = (site: string, condition: string, client: Client, values: (number | null)[]): AccuracySample[] =>
  values.map((load) => ({ site, condition, protocol: "h2", client, metrics: { load } }));
const samples: AccuracySample[] = [
  ...loads("alpha", "fast", "chromium", [100, 140, 120]),
  ...loads("alpha", "fast", "emulated", [132, 126]),
  ...loads("alpha", "slow", "chromium", [400, 500]),
  ...loads("alpha", "slow", "emulated", [360]),
  ...loads("beta", "fast", "chromium", [200]),
  ...loads("beta", "fast", "emulated", [250, null, 230]),
  ...loads("beta", "slow", "chromium", [800, 1000, 900]),
  ...loads("beta", "slow", "emulated", [300]),
  ...loads("gamma", "fast", "chromium", [null, null]),
  ...loads("gamma", "fast", "emulated", [300]),
  ...loads("gamma", "slow", "emulated", [500]),
  ...loads("delta", "fast", "chromium", [null]),
];
const NO_LCP = "no largest-contentful-paint entry: the page painted no LCP candidate";
/**
 * TEST INPUT over HTTP/3: FCP medians Chromium 210 (200, 220, 210), emulated 231, so APE 10%; the
 * page has no LCP in either client, each saying why.
 */
const h3: AccuracySample[] = [
  ...[200, 220, 210].map((fcp): AccuracySample => ({ site: "alpha", condition: "fast", protocol: "h3", client: "chromium", metrics: { load: fcp + 100, fcp, lcp: null }, missing: { lcp: NO_LCP } })),
  { site: "alpha", condition: "fast", protocol: "h3", client: "emulated", metrics: { load: 330, fcp: 231, lcp: null }, missing: { lcp: "the graph has no lcp marker" } },
];
const loadOf = (s: AccuracySummary) => accuracyGroup(s, "load", "h2")!;

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
    const s = loadOf(summariseAccuracy(samples));
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
    // Chromium's spread, leave one out: alpha/fast 100 vs 130, 140 vs 110, 120 vs 120 -> median 30/130;
    // alpha/slow 400 vs 500 (20%), 500 vs 400 (25%) -> 22.5%; beta/fast has one run -> null; beta/slow 150/950.
    const spreads = s.cells.map((c) => c.chromiumSpreadPercent);
    close(spreads[0]!, 3000 / 130, "alpha/fast spread");
    close(spreads[1]!, 22.5, "alpha/slow spread");
    assert.equal(spreads[2], null);
    close(spreads[3]!, 15000 / 950, "beta/slow spread");
    assert.equal(s.overall.chromiumSpread.cells, 3);
    close(s.overall.chromiumSpread.medianPercent, 22.5, "median spread");
    close(s.overall.chromiumSpread.p90Percent, 22.5 + 0.8 * (3000 / 130 - 22.5), "p90 spread");
    // The emulated browser's, the same way: alpha/fast 132 vs 126 and 126 vs 132; beta/fast 250 vs
    // 230 and 230 vs 250 (its run without a load time left out); one run elsewhere -> null.
    const alphaFastOwn = (600 / 126 + 600 / 132) / 2;
    const betaFastOwn = (2000 / 230 + 2000 / 250) / 2;
    const own = s.cells.map((c) => c.emulatedSpreadPercent);
    close(own[0]!, alphaFastOwn, "alpha/fast emulated spread");
    assert.equal(own[1], null);
    close(own[2]!, betaFastOwn, "beta/fast emulated spread");
    assert.equal(own[3], null);
    assert.equal(s.overall.emulatedSpread.cells, 2);
    close(s.overall.emulatedSpread.medianPercent, (alphaFastOwn + betaFastOwn) / 2, "median emulated spread");
    close(s.overall.emulatedSpread.p90Percent, alphaFastOwn + 0.9 * (betaFastOwn - alphaFastOwn), "p90 emulated spread");
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
    const s = loadOf(summariseAccuracy(samples.filter((x) => x.site === "gamma")));
    assert.deepEqual(s.overall, { cells: 0, medianApePercent: null, p90ApePercent: null, meanApePercent: null, spearman: null, chromiumSpread: { cells: 0, medianPercent: null, p90Percent: null }, emulatedSpread: { cells: 0, medianPercent: null, p90Percent: null } });
    assert.equal(s.missing.length, 2);
  });

  it("draws one point per cell on log axes, and APE dots per condition, as well-formed SVG", () => {
    const s = loadOf(summariseAccuracy(samples));
    const svg = accuracyScatterSvg(s);
    assert.equal(svg, accuracyScatterSvg(loadOf(summariseAccuracy(samples))), "the same summary gives the same bytes");
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
    const empty = loadOf(summariseAccuracy(loads("gamma", "fast", "emulated", [300])));
    assert.equal(circles(accuracyScatterSvg(empty)).length, 0);
    assert.match(accuracyScatterSvg(empty), /median APE n\/a/);
    assert.match(accuracyScatterSvg(accuracyGroup(summariseAccuracy(h3), "fcp", "h3")!), /Chromium median first contentful paint/);
  });

  it("a group per metric and protocol: FCP and LCP beside load, and a page without LCP says why", () => {
    const s = summariseAccuracy([...samples, ...h3]);
    assert.deepEqual(s.groups.map((g) => `${g.metric}/${g.protocol}`), ["load/h2", "load/h3", "fcp/h3", "lcp/h3"], "results without a metric make no group of it");
    const fcp = accuracyGroup(s, "fcp", "h3")!;
    assert.equal(fcp.cells.length, 1);
    const c = fcp.cells[0]!;
    assert.deepEqual([c.chromium.medianMs, c.emulated.medianMs], [210, 231]);
    close(c.apePercent, 10, "FCP APE");
    close(c.signedErrorMs, 21, "FCP signed error");
    close(c.chromiumSpreadPercent, 1500 / 215, "FCP Chromium spread: 200 vs 215, 220 vs 205, 210 vs 210");
    const lcp = accuracyGroup(s, "lcp", "h3")!;
    assert.equal(lcp.cells.length, 0);
    assert.deepEqual(lcp.missing.map((m) => m.reason), [
      `none of the 3 chromium runs has a largest contentful paint (${NO_LCP}); the one emulated run has no largest contentful paint (the graph has no lcp marker)`,
    ]);
    assert.equal(accuracyGroup(s, "load", "h3")!.cells[0]!.chromium.medianMs, 310);
  });

  it("tells cells whose clients painted the same LCP element from those that did not, and counts each kind's error", () => {
    const hero = "image IMG https://a.test/hero.jpg";
    const lead = "text P class='lead'";
    // TEST INPUT: alpha's clients both paint the hero (APE 10%); beta's Chromium paints the lead
    // paragraph twice and the hero once, the emulated browser the hero (APE 50%); gamma's results
    // predate the element (no field); delta's Chromium names none.
    const run = (site: string, client: Client, lcp: number, element: string | null | undefined): AccuracySample => ({
      site, condition: "fast", protocol: "h2", client, metrics: { lcp }, ...(element === undefined ? {} : { lcpElement: element }),
    });
    const s = summariseAccuracy([
      run("alpha", "chromium", 100, hero), run("alpha", "emulated", 110, hero),
      run("beta", "chromium", 200, lead), run("beta", "chromium", 200, hero), run("beta", "chromium", 200, lead), run("beta", "emulated", 300, hero),
      run("gamma", "chromium", 100, undefined), run("gamma", "emulated", 100, undefined),
      run("delta", "chromium", 100, null), run("delta", "emulated", 120, hero),
    ]);
    const g = accuracyGroup(s, "lcp", "h2")!;
    const bySite = Object.fromEntries(g.cells.map((c) => [c.site, c.lcpElement]));
    assert.deepEqual(bySite.alpha, { chromium: hero, emulated: hero, same: true });
    assert.deepEqual(bySite.beta, { chromium: lead, emulated: hero, same: false }, "the element most runs painted");
    assert.equal(bySite.gamma, undefined, "older results say nothing of the element");
    assert.deepEqual(bySite.delta, { chromium: null, emulated: hero, same: null });
    assert.equal(g.overall.lcpElement!.cells, 2);
    assert.equal(g.overall.lcpElement!.same, 1);
    close(g.overall.lcpElement!.medianApePercentSame, 10, "alpha");
    close(g.overall.lcpElement!.medianApePercentDifferent, 50, "beta");
    assert.equal(accuracyGroup(summariseAccuracy(samples), "load", "h2")!.overall.lcpElement, undefined, "only LCP groups compare elements");
    assert.equal(lcpElementKey({ type: "text", nodeName: "P class='lead'", url: null }), lead);
  });

  it("Chromium's spread needs two runs and leaves each run out of its own reference", () => {
    assert.equal(spread([500]), null);
    close(spread([100, 300]), (200 / 300 * 100 + 200) / 2, "100 vs 300 (66.7%), 300 vs 100 (200%)");
    assert.equal(spread([250, 250, 250]), 0);
  });

  it("compares any two clients: the simulator against the replay, Chromium left out", () => {
    // TEST INPUT: the simulator's 110 against the replay's median 100 (10%), and 450 against 500 (10%).
    const both = [
      ...loads("alpha", "fast", "emulated", [90, 100, 110]),
      ...loads("alpha", "fast", "simulated", [110]),
      ...loads("alpha", "fast", "chromium", [1000]),
      ...loads("alpha", "slow", "emulated", [500]),
      ...loads("alpha", "slow", "simulated", [450]),
    ];
    const g = compareClients(both, "simulated", "emulated").groups[0]!;
    assert.equal(g.cells.length, 2);
    close(g.overall.medianApePercent, 10, "median APE of the simulator against the replay");
    close(g.cells[0]!.chromium.medianMs, 100, "the reference is the replay's median, not Chromium's");
    close(g.cells[1]!.signedErrorPercent, -10, "the simulator 10% faster at alpha/slow");
    const c = compareClients(both, "simulated", "chromium").groups[0]!;
    assert.equal(c.cells.length, 1, "only alpha/fast has Chromium runs");
    close(c.cells[0]!.apePercent, 89, "110 against 1000");
  });
});
